// The per-link options of the redirect, in the order their steps run (decision 0039). A new option is one file
// in this folder and one line in OPTIONS; the pipeline, the cache and the fast path need no change.
import type { LinkTarget } from '../../storage/stores/links.js';
import { expiry } from './expiry.js';
import { noQueryForwarding } from './no-query-forwarding.js';
import { passwordGate } from './password-gate.js';
import { previewCard } from './preview-card.js';
import type { LinkOption, RedirectStep, RedirectTarget, StepContext } from './redirect-step.js';
import { rules } from './rules.js';
import { visitLimit } from './visit-limit.js';

const OPTIONS: readonly LinkOption[] = [expiry, visitLimit, passwordGate, rules, noQueryForwarding, previewCard];

/**
 * A loaded link with the steps its options need, made once (the cache keeps the result): a link that uses none
 * comes back as it is, without a `steps` property, so the redirect's hot path stays one property test.
 */
export function withSteps(target: LinkTarget | null, context: StepContext = {}): RedirectTarget | null {
  if (target === null) return null;
  const steps: RedirectStep[] = [];
  for (const option of OPTIONS) {
    const step = option(target, context);
    if (step !== undefined) steps.push(step);
  }
  return steps.length === 0 ? target : { ...target, steps };
}
