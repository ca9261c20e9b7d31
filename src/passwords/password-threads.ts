import { Worker } from 'node:worker_threads';
import { hashPasswordInProcess, type PasswordKind, verifyPasswordInProcess } from './scrypt.js';

/** One scrypt hash to make, or one password to check against a stored hash. */
export type PasswordJob =
  | { readonly op: 'hash'; readonly kind: PasswordKind; readonly password: string }
  | { readonly op: 'verify'; readonly kind: PasswordKind; readonly password: string; readonly stored: string | null };

/** What a job answers: the stored form of a hash, whether a password is right. */
export type PasswordResult<J extends PasswordJob> = J extends { op: 'hash' } ? string : boolean;

/**
 * Threads of their own for password hashes (password-worker.ts), started on the first job and never
 * more than `size`: a job takes an idle thread or starts one. Callers bound how many jobs run at once
 * to `size` (password-pool.ts), so a job never waits here for a thread. A thread that fails is dropped
 * and its job made on libuv's pool instead: a job always answers. The threads do not keep the process
 * alive; `close` ends them.
 */
export class PasswordThreads {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();

  constructor(
    private readonly size: number,
    private readonly script = workerScript(),
  ) {}

  readonly run = <J extends PasswordJob>(job: J): Promise<PasswordResult<J>> =>
    this.onThread(job).catch(() => inProcess(job)) as Promise<PasswordResult<J>>;

  private onThread(job: PasswordJob): Promise<string | boolean> {
    return new Promise<string | boolean>((resolve, reject) => {
      const worker = this.idle.pop() ?? this.start();
      const done = () => {
        worker.off('message', answered);
        worker.off('error', failed);
        worker.off('exit', failed);
      };
      const failed = (error?: unknown) => {
        done();
        this.all.delete(worker);
        void worker.terminate();
        reject(error instanceof Error ? error : new Error('password thread ended'));
      };
      const answered = (result: unknown) => {
        if (typeof result !== 'string' && typeof result !== 'boolean') return failed(new Error('the password thread failed'));
        done();
        this.idle.push(worker);
        resolve(result);
      };
      worker.on('message', answered);
      worker.on('error', failed);
      worker.on('exit', failed);
      worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    const workers = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private start(): Worker {
    if (this.all.size >= this.size) throw new Error(`more than ${this.size} password jobs at once`);
    const worker = new Worker(this.script);
    worker.unref();
    worker.on('exit', () => this.all.delete(worker));
    this.all.add(worker);
    return worker;
  }
}

/** A job on libuv's pool (crypto.scrypt): what a thread that cannot run leaves to this process. */
export function inProcess(job: PasswordJob): Promise<string | boolean> {
  return job.op === 'hash' ? hashPasswordInProcess(job.kind, job.password) : verifyPasswordInProcess(job.kind, job.password, job.stored);
}

/** The worker's file beside this one: .js when built; from source (tests), .ts through tsx (as storage/sqlite/background.ts). */
function workerScript(): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL('./password-worker.js', import.meta.url);
  const thread = new URL('./password-worker.ts', import.meta.url).href;
  const bootstrap = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); await import(${JSON.stringify(thread)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}
