import type { LinkRecord } from '../storage/stores/links.js';
import type { Visitor } from '../visitors/visitor.js';
import { Visit } from './steps/redirect-step.js';
import { withSteps } from './steps/steps.js';

/** Where a visit would go, and the rule that chose it (null: the link's own url). */
export interface VisitOutcome {
  readonly url: string;
  readonly rule: number | null;
}

/**
 * Where the redirect would send this visitor, by the link's own steps (its rules, its query forwarding) as the
 * redirect runs them, past its gates: a password counts as given and an expiry as not reached, since the question is
 * where a visit goes, not whether it may. No visit is counted. `forwarded`: the query string the redirect would
 * add (undefined when forwarding is off for the whole server or nothing was sent).
 */
export function evaluateVisit(link: LinkRecord, forwarded: string | undefined, visitor: Visitor): VisitOutcome {
  const target = withSteps({
    id: link.id,
    url: link.url,
    blocked: false,
    ...(!link.forwardQuery && { forwardQuery: false as const }),
    ...(link.rules.length > 0 && { rules: link.rules }),
  })!;
  const visit = new Visit(target, true, forwarded, () => visitor);
  // An answer (the expired page) ends a visit, not the question of where it would have gone: the steps after it still run.
  for (const step of target.steps ?? []) step(visit);
  return { url: visit.location(), rule: visit.rule };
}
