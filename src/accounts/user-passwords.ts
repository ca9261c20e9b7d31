import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { BriefError } from '../errors.js';

// A person's password: scrypt at N=2^15, r=8, p=3 (one of OWASP's equivalent settings, 32 MiB),
// stronger than a link's (links/passwords.ts): a sign-in is rare, a link's form is the hot side.
const N = 2 ** 15;
const R = 8;
const P = 3;
const KEY_LENGTH = 32;
const MAX_MEMORY = 96 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** A new password, checked: at least 10 characters (and at most 1024, so a hash is bounded). */
export function checkNewPassword(password: string): string {
  if ([...password].length < PASSWORD_MIN_LENGTH) {
    throw BriefError.invalid('password', 'minLength', `The password field must be at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw BriefError.invalid('password', 'maxLength', `The password field must be at most ${PASSWORD_MAX_LENGTH} characters`);
  }
  return password;
}

/** The stored form: `scrypt$N$r$p$salt$hash` (base64url); never the password. */
export async function hashUserPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * True when `password` is the one `stored` was made from. With no stored hash (an unknown email, a
 * person with no password yet) a hash is still computed, so the answer takes as long either way.
 */
export async function verifyUserPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = (stored ?? '').split('$');
  if (scheme !== 'scrypt' || !salt || !hash) {
    await derive(password, randomBytes(16), { N, r: R, p: P });
    return false;
  }
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  const expected = Buffer.from(hash, 'base64url');
  return key.length === expected.length && timingSafeEqual(key, expected);
}
