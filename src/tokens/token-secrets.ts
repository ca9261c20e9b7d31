import { createHash, randomBytes } from 'node:crypto';

const TOKEN_PREFIX = 'brf_';

/** A new bearer token: a recognisable prefix and 256 random bits. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** What is stored in place of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
