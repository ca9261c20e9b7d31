import pLimit from 'p-limit';
import { verifyPassword } from '../links/passwords.js';

/**
 * Password checks running at once, at most: each is a scrypt hash (~90 ms of a core). The server runs
 * them on threads of their own at the lowest priority (password-workers.ts), so they take neither
 * libuv's pool (file reads, DNS) nor the event loop's core from anyone; two bound the CPU and memory
 * (16 MiB a hash) that guessing can take.
 */
export const CHECKS_AT_ONCE = 2;
/** Checks waiting for their turn, at most (under a second's wait at ~90 ms a check, two at a time); beyond, busy. */
export const CHECKS_WAITING = 16;

/** True or false for a password against a link's stored hash, or `busy` when too many checks wait already. */
export type PasswordCheck = (password: string, stored: string) => Promise<boolean | 'busy'>;

/**
 * The redirect pipeline's password check, bounded: however many wrong passwords arrive, at most
 * `atOnce` hashes run and `waiting` wait; any more is answered busy at once, without a hash.
 * `verify` is the hash comparison: on libuv's pool by default, on the password threads in the server
 * (services.ts); tests count what runs through it.
 */
export function boundedPasswordCheck(
  options: { atOnce?: number; waiting?: number; verify?: (password: string, stored: string) => Promise<boolean> } = {},
): PasswordCheck {
  const { atOnce = CHECKS_AT_ONCE, waiting = CHECKS_WAITING, verify = verifyPassword } = options;
  const limit = pLimit(atOnce);
  return async (password, stored) => {
    // p-limit moves a check from waiting to running in one step, so this count is exact.
    if (limit.pendingCount >= waiting && limit.activeCount >= atOnce) return 'busy';
    return limit(verify, password, stored);
  };
}
