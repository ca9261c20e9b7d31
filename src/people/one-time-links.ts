// The one-time links Brief hands over instead of sending mail (decision 0028, 0034): an invitation, a
// password reset. Printed once: their secret, after `#`, never reaches a server's log.
import { generateToken, hashToken } from '../tokens/token-secrets.js';

/** A one-time link as it is handed over, once. */
export interface OneTimeLink {
  readonly link: string;
  readonly email: string;
  readonly expiresAt: number;
}

/** A new secret for the web app's `page`: the link to hand over, and the hash to store. */
export function newOneTimeLink(appPrefix: string, page: 'invitation' | 'reset-password'): { link: string; tokenHash: string } {
  const token = generateToken();
  return { link: `${appPrefix}/app/${page}#${token}`, tokenHash: hashToken(token) };
}

/** A secret as a call gave it, hashed for the lookup; undefined for what can be no secret of ours (not a string, or too long). */
export function secretHash(token: unknown): string | undefined {
  return typeof token === 'string' && token.length <= 512 ? hashToken(token) : undefined;
}
