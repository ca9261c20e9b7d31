// CPU work that must not hold the event loop, run on a few threads of its own at the lowest CPU
// priority, with a bound on what may wait: QR codes (qr/qr-service.ts) and password hashes
// (passwords/password-threads.ts) run on it.
import os from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';

/** What a thread answers to one task: its value, or the message of what it threw. */
type Answer<Result> = { value: Result } | { error: string };

interface Waiting<Task, Result> {
  task: Task;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

/**
 * Tasks run on at most `threads` threads (`script`, serving them with `serveTasks`), one task a
 * thread at a time; threads start on the first tasks and are kept. At most `waiting` tasks wait
 * for a thread, in order; a task beyond that is answered `busy` at once, without any work, so a
 * flood costs the event loop only its refusals. A thread that fails is dropped and its task
 * rejected; the next task starts another. An idle thread does not keep the process alive; `close`
 * ends them all.
 */
export class WorkerPool<Task, Result> {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly queue: Array<Waiting<Task, Result>> = [];
  private running = 0;

  constructor(
    private readonly script: URL,
    readonly threads: number,
    readonly waiting: number,
  ) {
    if (!(threads >= 1)) throw new Error('a worker pool needs at least one thread');
  }

  /** The task's result, or `busy` when `threads` tasks run and `waiting` wait already. */
  run(task: Task): Promise<Result | 'busy'> {
    if (this.running < this.threads) return this.onThread(task);
    if (this.queue.length >= this.waiting) return Promise.resolve('busy');
    return new Promise<Result>((resolve, reject) => this.queue.push({ task, resolve, reject }));
  }

  /** Tasks running and waiting now (for tests and metrics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.queue.length };
  }

  /** Ends every thread; tasks still running are rejected, waiting ones too. */
  async close(): Promise<void> {
    for (const waiting of this.queue.splice(0)) waiting.reject(new Error('the worker pool is closed'));
    const workers = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private onThread(task: Task): Promise<Result> {
    this.running++;
    return new Promise<Result>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = this.idle.pop() ?? this.start();
      } catch (error) {
        this.finished();
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      // Referenced while it works: an answer awaited keeps the process alive, an idle thread does not.
      worker.ref();
      const done = () => {
        worker.off('message', answered);
        worker.off('error', failed);
        worker.off('exit', failed);
      };
      const failed = (error?: unknown) => {
        done();
        this.all.delete(worker);
        void worker.terminate();
        this.finished();
        reject(error instanceof Error ? error : new Error('a worker thread ended'));
      };
      const answered = (answer: Answer<Result>) => {
        done();
        worker.unref();
        this.idle.push(worker);
        this.finished();
        if ('error' in answer) reject(new Error(answer.error));
        else resolve(answer.value);
      };
      worker.on('message', answered);
      worker.on('error', failed);
      worker.on('exit', failed);
      worker.postMessage(task);
    });
  }

  /** A task ended: the first waiting one, if any, takes its place. */
  private finished(): void {
    this.running--;
    const next = this.queue.shift();
    if (next) this.onThread(next.task).then(next.resolve, next.reject);
  }

  private start(): Worker {
    const worker = new Worker(this.script);
    worker.unref();
    worker.on('exit', () => this.all.delete(worker));
    this.all.add(worker);
    return worker;
  }
}

/**
 * In a pool's thread: answers each task with `work`'s value (or what it threw), one at a time, at
 * the lowest CPU priority, so that however much work arrives the event loop keeps its core.
 */
export function serveTasks<Task, Result>(work: (task: Task) => Result): void {
  try {
    // 0: this thread alone (on Linux the nice value is per thread); where refused, it runs at normal priority.
    os.setPriority(0, 19);
  } catch {}
  parentPort?.on('message', (task: Task) => {
    let answer: Answer<Result>;
    try {
      answer = { value: work(task) };
    } catch (error) {
      answer = { error: error instanceof Error ? error.message : String(error) };
    }
    parentPort?.postMessage(answer);
  });
}
