import type { LinkTarget } from '../../storage/stores/links.js';
import { EXPIRED } from '../redirect-answer.js';
import type { LinkOption } from './redirect-step.js';

/** Whether a link's expiry has passed. */
export function isExpired(target: LinkTarget): boolean {
  const expiresAt = target.guard?.expiresAt ?? null;
  return expiresAt !== null && expiresAt <= Date.now();
}

/** A link with an expiry answers 410 from then on (the page of an expired link), before any other step. */
export const expiry: LinkOption = (target) => {
  const expiresAt = target.guard?.expiresAt ?? null;
  if (expiresAt === null) return undefined;
  return () => (expiresAt <= Date.now() ? EXPIRED : undefined);
};
