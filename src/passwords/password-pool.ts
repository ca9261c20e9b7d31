import pLimit from 'p-limit';
import { BriefError } from '../errors.js';
import { type PasswordJob, type PasswordResult, PasswordThreads } from './password-threads.js';
import type { PasswordKind } from './scrypt.js';

/**
 * Password hashes running at once, at most: each is a scrypt hash (~50–100 ms of a core). They run on
 * threads of their own at the lowest priority (password-threads.ts), so they take neither libuv's pool
 * (file reads, DNS) nor the event loop's core from anyone; two bound the CPU and memory (32 MiB a
 * person's hash) that guessing can take.
 */
export const HASHES_AT_ONCE = 2;
/** Hashes waiting for their turn, at most (about a second's wait, two at a time); beyond, busy. */
export const HASHES_WAITING = 16;
/** What a busy answer tells the caller to wait, in seconds: the queue above drains in about one. */
export const BUSY_RETRY_SECONDS = 1;

/**
 * Every scrypt hash of the server and the CLI (decision 0034): a person's password checked at sign-in,
 * invitation acceptance or a change, one set by a new person, a reset or the operator, a link's password
 * checked on its form or hashed when the link is made. However many arrive, at most `atOnce` run and
 * `waiting` wait; any more is answered busy at once, without a hash: `check` says `busy` (the link's
 * form answers its page), `hash` and `verify` throw E_SERVICE_UNAVAILABLE with a retry-after (the API's
 * 503). `run` makes a hash: on the password threads by default; tests give one that counts and holds.
 */
export class PasswordPool {
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly atOnce: number;
  private readonly waiting: number;
  private readonly threads: PasswordThreads | undefined;
  private readonly runJob: (job: PasswordJob) => Promise<string | boolean>;

  constructor(options: { atOnce?: number; waiting?: number; run?: (job: PasswordJob) => Promise<string | boolean> } = {}) {
    this.atOnce = options.atOnce ?? HASHES_AT_ONCE;
    this.waiting = options.waiting ?? HASHES_WAITING;
    this.limit = pLimit(this.atOnce);
    if (options.run) this.runJob = options.run;
    else {
      const threads = new PasswordThreads(this.atOnce);
      this.threads = threads;
      this.runJob = threads.run;
    }
  }

  /** A password's stored form; throws busy. */
  hash(kind: PasswordKind, password: string): Promise<string> {
    return this.orBusy({ op: 'hash', kind, password });
  }

  /** Whether a password is the one a stored hash was made from (null: nobody's, still hashed); throws busy. */
  verify(kind: PasswordKind, password: string, stored: string | null): Promise<boolean> {
    return this.orBusy({ op: 'verify', kind, password, stored });
  }

  /** The same, answering `busy` instead of throwing (the link's form, whose busy answer is a page). */
  async check(kind: PasswordKind, password: string, stored: string | null): Promise<boolean | 'busy'> {
    return this.tryRun({ op: 'verify', kind, password, stored });
  }

  /** Ends the threads (the server's stop); a later job starts them again. */
  async close(): Promise<void> {
    await this.threads?.close();
  }

  private async orBusy<J extends PasswordJob>(job: J): Promise<PasswordResult<J>> {
    const result = await this.tryRun(job);
    if (result === 'busy') throw BriefError.busy(BUSY_RETRY_SECONDS);
    return result;
  }

  private tryRun<J extends PasswordJob>(job: J): Promise<PasswordResult<J> | 'busy'> {
    // p-limit moves a job from waiting to running in one step, so this count is exact.
    if (this.limit.pendingCount >= this.waiting && this.limit.activeCount >= this.atOnce) return Promise.resolve('busy');
    return this.limit(() => this.runJob(job) as Promise<PasswordResult<J>>);
  }
}
