import { VISIT_LIMIT_REACHED } from '../redirect-answer.js';
import type { LinkOption } from './redirect-step.js';

/**
 * A link with a visit limit: once the visits counted (bots excluded, every instance's: redirect/visit-limits.ts)
 * reach it, 410 to everyone, bots included. Its answer depends on a count that changes, so it is personal (302,
 * `private, no-store`): no browser keeps a redirect the limit may close. Counting is the visit observer's, so only
 * visits that reach their destination count (not a HEAD, not the password form).
 */
export const visitLimit: LinkOption = (target, context) => {
  const limit = target.visitLimit;
  if (limit === undefined) return undefined;
  // Evaluated without an instance's counts (POST …/evaluate): where the visit would go, as for an expiry.
  const visits = context.visits?.of(target.id, limit);
  return (visit) => {
    if (visits !== undefined && visits.total >= limit.max) return VISIT_LIMIT_REACHED;
    visit.personal = true;
    return undefined;
  };
};
