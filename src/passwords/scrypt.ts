// The scrypt hashes of every password Brief keeps: a person's (sign-in) and a link's (its form). Only
// the password threads (password-worker.ts) run them, through the bounded pool (password-pool.ts); the
// in-process forms below are the threads' fall-back and the tests' way to make a hash.
import { randomBytes, type ScryptOptions, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

/** Whose password: a person's is stronger than a link's (a sign-in is rare, a link's form is the hot side). */
export type PasswordKind = 'person' | 'link';

// OWASP's equivalent minimum settings: a person's N=2^15, r=8, p=3 (32 MiB a hash); a link's N=2^14,
// r=8, p=5 (16 MiB). A stored hash carries its own parameters, so these can be raised later.
const SETTINGS: Readonly<Record<PasswordKind, Readonly<{ N: number; r: number; p: number }>>> = {
  person: { N: 2 ** 15, r: 8, p: 3 },
  link: { N: 2 ** 14, r: 8, p: 5 },
};
const KEY_LENGTH = 32;
/** Above a person's 32 MiB; a stored hash asking more (never one Brief made) fails and matches nothing. */
const MAX_MEMORY = 96 * 1024 * 1024;

interface Parsed {
  readonly salt: Buffer;
  readonly expected: Buffer;
  readonly options: ScryptOptions;
}

/** The stored form: `scrypt$N$r$p$salt$hash` (base64url); never the password. */
export function hashPasswordSync(kind: PasswordKind, password: string): string {
  const salt = randomBytes(16);
  return stored(kind, salt, scryptSync(password.normalize('NFC'), salt, KEY_LENGTH, { ...SETTINGS[kind], maxmem: MAX_MEMORY }));
}

/**
 * True when `password` is the one `stored` was made from (in constant time). With no stored hash (an
 * unknown email, a person with no password yet) a hash is still computed, so the answer takes as long
 * either way; parameters out of range match nothing.
 */
export function verifyPasswordSync(kind: PasswordKind, password: string, stored: string | null): boolean {
  const parsed = parse(stored);
  try {
    const key = scryptSync(password.normalize('NFC'), parsed?.salt ?? randomBytes(16), KEY_LENGTH, {
      ...(parsed?.options ?? SETTINGS[kind]),
      maxmem: MAX_MEMORY,
    });
    return parsed !== undefined && matches(key, parsed.expected);
  } catch {
    return false;
  }
}

/** hashPasswordSync on libuv's thread pool: when a password thread cannot run, and for the tests' fixtures. */
export async function hashPasswordInProcess(kind: PasswordKind, password: string): Promise<string> {
  const salt = randomBytes(16);
  return stored(kind, salt, await derive(password, salt, SETTINGS[kind]));
}

/** verifyPasswordSync on libuv's thread pool: when a password thread cannot run. */
export async function verifyPasswordInProcess(kind: PasswordKind, password: string, stored: string | null): Promise<boolean> {
  const parsed = parse(stored);
  try {
    const key = await derive(password, parsed?.salt ?? randomBytes(16), parsed?.options ?? SETTINGS[kind]);
    return parsed !== undefined && matches(key, parsed.expected);
  } catch {
    return false;
  }
}

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

function stored(kind: PasswordKind, salt: Buffer, key: Buffer): string {
  const { N, r, p } = SETTINGS[kind];
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parse(stored: string | null): Parsed | undefined {
  const [scheme, n, r, p, salt, hash] = (stored ?? '').split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return undefined;
  return { salt: Buffer.from(salt, 'base64url'), expected: Buffer.from(hash, 'base64url'), options: { N: Number(n), r: Number(r), p: Number(p) } };
}

const matches = (key: Buffer, expected: Buffer) => key.length === expected.length && timingSafeEqual(key, expected);
