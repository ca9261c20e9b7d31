import { PASSWORD_FORM } from '../redirect-answer.js';
import type { LinkOption } from './redirect-step.js';

/** A link with a password answers its form, until the form's POST brings the right one (the pipeline's unlock). */
export const passwordGate: LinkOption = (target) => {
  if ((target.guard?.passwordHash ?? null) === null) return undefined;
  return (visit) => (visit.unlocked ? undefined : PASSWORD_FORM);
};
