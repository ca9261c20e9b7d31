import { threadScript } from '../thread-scripts.js';
import { WorkerPool } from '../worker-pool.js';
import { hashPasswordInProcess, type PasswordKind, verifyPasswordInProcess } from './scrypt.js';

/** One scrypt hash to make, or one password to check against a stored hash. */
export type PasswordJob =
  | { readonly op: 'hash'; readonly kind: PasswordKind; readonly password: string }
  | { readonly op: 'verify'; readonly kind: PasswordKind; readonly password: string; readonly stored: string | null };

/** What a job answers: the stored form of a hash, whether a password is right. */
export type PasswordResult<J extends PasswordJob> = J extends { op: 'hash' } ? string : boolean;

/**
 * Threads of their own for password hashes (password-worker.ts), on the worker pool QR codes use too
 * (worker-pool.ts), never more than `size`. Callers bound how many jobs run at once to `size`
 * (password-pool.ts), so a job never waits here for a thread. A job whose thread fails is made on
 * libuv's pool instead: a job always answers. The threads do not keep the process alive; `close` ends them.
 */
export class PasswordThreads {
  private readonly pool: WorkerPool<PasswordJob, string | boolean>;

  constructor(size: number, script = threadScript(import.meta.url, 'password-worker')) {
    this.pool = new WorkerPool(script, size, 0);
  }

  readonly run = <J extends PasswordJob>(job: J): Promise<PasswordResult<J>> =>
    this.pool.run(job).then(
      (result) => (result === 'busy' ? inProcess(job) : result),
      () => inProcess(job),
    ) as Promise<PasswordResult<J>>;

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** A job on libuv's pool (crypto.scrypt): what a thread that cannot run leaves to this process. */
export function inProcess(job: PasswordJob): Promise<string | boolean> {
  return job.op === 'hash' ? hashPasswordInProcess(job.kind, job.password) : verifyPasswordInProcess(job.kind, job.password, job.stored);
}
