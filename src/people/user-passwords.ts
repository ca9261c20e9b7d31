// A person's password: what a new one must be, and every check of one, counted and bounded (decision 0034).
import { BriefError, overLimit, tooShort } from '../errors.js';
import type { PasswordPool } from '../passwords/password-pool.js';
import type { RateCounters } from '../shared-state/counters.js';
import { LocalCounters } from '../shared-state/counters.js';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 1024;

/** A new password, checked: at least 10 characters (and at most 1024, so a hash is bounded); `field` names it in the error. */
export function checkNewPassword(password: string, field = 'password'): string {
  if ([...password].length < PASSWORD_MIN_LENGTH) throw BriefError.field(tooShort(field, PASSWORD_MIN_LENGTH));
  if (password.length > PASSWORD_MAX_LENGTH) throw BriefError.field(overLimit(field, PASSWORD_MAX_LENGTH));
  return password;
}

/** The per-email counters' window: a minute, as every limit's. */
const WINDOW_MS = 60_000;

/**
 * People's passwords, for every service that checks or sets one (sign-in, invitation acceptance, a
 * change, a reset, `brief user`). Each check counts against the email of the person whose password it
 * is, whoever asks and from wherever (RATE_LIMIT_SIGN_IN a minute; over it E_TOO_MANY_REQUESTS and no
 * hash), on the same counters for every call: sign-in, acceptance and change share one limit. The
 * address's limit is the routes' (`limit: 'sign-in'`, http/rate-limits.ts). Every hash runs on the
 * bounded password threads (E_SERVICE_UNAVAILABLE when they are busy).
 */
export class UserPasswords {
  constructor(
    private readonly pool: Pick<PasswordPool, 'hash' | 'verify'>,
    /** The password attempts' counters (SharedState.passwordCounters: shared by instances with Redis). */
    private readonly counters: RateCounters,
    /** RATE_LIMIT_SIGN_IN: checks a minute per email; 0, none. */
    private readonly perEmail: number,
  ) {}

  /**
   * Counts a check of `email`'s password, then checks it against `stored` (null: nobody's, still
   * hashed, so an unknown email takes as long). Throws 429 over the email's limit, 503 when busy.
   */
  async verify(email: string, password: string, stored: string | null): Promise<boolean> {
    await this.count(email);
    return this.pool.verify('person', password, stored);
  }

  /** A new password's stored form (checked by checkNewPassword first); 503 when busy. */
  hash(password: string): Promise<string> {
    return this.pool.hash('person', password);
  }

  private async count(email: string): Promise<void> {
    if (this.perEmail === 0) return;
    const key = `sign-in-email:${email.trim().toLowerCase().slice(0, 254)}`;
    const state = await this.counters.add(key, 1, WINDOW_MS);
    if (state.current > this.perEmail) throw BriefError.tooManyRequests(Math.max(1, Math.ceil(state.ttlMs / 1000)));
  }
}

/** Passwords counted in this process only, for a service made outside the composition root (a test's). */
export function uncountedUserPasswords(pool: Pick<PasswordPool, 'hash' | 'verify'>): UserPasswords {
  return new UserPasswords(pool, new LocalCounters(), 0);
}
