import { Worker } from 'node:worker_threads';
import { verifyPassword } from '../links/passwords.js';

/**
 * Threads of their own for password checks (password-worker.ts), started on the first check and
 * never more than `size`: a check takes an idle thread or starts one. Callers bound how many checks
 * run at once to `size` (password-check.ts), so a check never waits here for a thread. A thread
 * that fails is dropped and its check made on libuv's pool instead: a check always answers. The
 * threads do not keep the process alive; `close` ends them.
 */
export class PasswordWorkers {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();

  constructor(
    private readonly size: number,
    private readonly script = workerScript(),
  ) {}

  readonly verify = (password: string, stored: string): Promise<boolean> =>
    this.onThread(password, stored).catch(() => verifyPassword(password, stored));

  private onThread(password: string, stored: string): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const worker = this.idle.pop() ?? this.start();
      const done = () => {
        worker.off('message', answered);
        worker.off('error', failed);
        worker.off('exit', failed);
      };
      const failed = (error?: unknown) => {
        done();
        this.all.delete(worker);
        reject(error instanceof Error ? error : new Error('password thread ended'));
      };
      const answered = (right: unknown) => {
        done();
        this.idle.push(worker);
        resolve(right === true);
      };
      worker.on('message', answered);
      worker.on('error', failed);
      worker.on('exit', failed);
      worker.postMessage({ password, stored });
    });
  }

  async close(): Promise<void> {
    const workers = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private start(): Worker {
    if (this.all.size >= this.size) throw new Error(`more than ${this.size} password checks at once`);
    const worker = new Worker(this.script);
    worker.unref();
    worker.on('exit', () => this.all.delete(worker));
    this.all.add(worker);
    return worker;
  }
}

/** The worker's file beside this one: .js when built; from source (tests), .ts through tsx (as storage/sqlite/background.ts). */
function workerScript(): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL('./password-worker.js', import.meta.url);
  const thread = new URL('./password-worker.ts', import.meta.url).href;
  const bootstrap = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); await import(${JSON.stringify(thread)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}
