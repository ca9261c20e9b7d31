import { randomBytes, type ScryptOptions, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

// scrypt at one of OWASP's equivalent minimum settings (N=2^14, r=8, p=5): 16 MiB a hash,
// so the four threads of libuv's pool that run them hold at most 64 MiB, where N=2^17 would take 512.
const N = 2 ** 14;
const R = 8;
const P = 5;
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** The stored form of a link's password: `scrypt$N$r$p$salt$hash` (base64url); never the password. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` is the one `stored` was made from (in constant time). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  return matches(await derive(password, parsed.salt, parsed.options), parsed.expected);
}

/**
 * The same, on the calling thread: for a thread of its own (redirect/password-worker.ts), so that the
 * hash takes neither the event loop nor libuv's thread pool.
 */
export function verifyPasswordSync(password: string, stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return false;
  return matches(scryptSync(password.normalize('NFC'), parsed.salt, KEY_LENGTH, { ...parsed.options, maxmem: MAX_MEMORY }), parsed.expected);
}

function parse(stored: string): { salt: Buffer; expected: Buffer; options: ScryptOptions } | undefined {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return undefined;
  return { salt: Buffer.from(salt, 'base64url'), expected: Buffer.from(hash, 'base64url'), options: { N: Number(n), r: Number(r), p: Number(p) } };
}

const matches = (key: Buffer, expected: Buffer) => key.length === expected.length && timingSafeEqual(key, expected);
