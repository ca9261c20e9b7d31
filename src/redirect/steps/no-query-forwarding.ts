import type { LinkOption } from './redirect-step.js';

/** A link that does not forward query strings (v3 `forwardQuery: false`): the destination as chosen, whatever the visitor sent. */
export const noQueryForwarding: LinkOption = (target) => {
  if (target.forwardQuery !== false) return undefined;
  return (visit) => {
    visit.forwarded = undefined;
    return undefined;
  };
};
