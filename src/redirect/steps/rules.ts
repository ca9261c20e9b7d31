import { compileRules, evaluate } from '../rules/evaluate.js';
import type { LinkOption } from './redirect-step.js';

/**
 * A link with redirect rules: the first rule whose conditions all match chooses the destination (none: the link's
 * own), compiled once here; the answer depends on the visitor, so it is personal (302, `private, no-store`).
 */
export const rules: LinkOption = (target) => {
  if (target.rules === undefined) return undefined;
  const compiled = compileRules(target.rules);
  return (visit) => {
    const chosen = evaluate(compiled, visit.url, visit.visitor);
    visit.url = chosen.url;
    visit.rule = chosen.rule;
    visit.personal = true;
    return undefined;
  };
};
