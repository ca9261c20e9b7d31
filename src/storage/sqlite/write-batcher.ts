import type SQLite from 'better-sqlite3';
import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../tables.js';

type Job<T> = {
  run: (trx: Transaction<Tables>) => Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
};

/**
 * Group commit. Writes that arrive in the same turn of the event loop share one
 * transaction, so one fsync acknowledges them all; each caller's promise settles
 * only after that commit. Each job runs in a savepoint of its own, so a job that
 * throws is rolled back alone and the others still commit.
 *
 * Used for SQLite, where every commit is an fsync on the one connection. PostgreSQL
 * already groups concurrent commits in its WAL writer, so there a write is a plain
 * transaction on the pool (see connection.ts).
 */
export class WriteBatcher {
  // biome-ignore lint/suspicious/noExplicitAny: one queue holds jobs of every result type; run<T>() keeps each caller typed
  private queue: Job<any>[] = [];
  private scheduled = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Tables>,
    /** The connection under `db`: savepoints go straight to it, not through Kysely's async query path. */
    private readonly sqlite: SQLite.Database,
    private readonly maxBatch = 256,
  ) {}

  run<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: work, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.running = this.running.then(() => this.flush());
        });
      }
    });
  }

  /** Resolves when every write queued so far has committed or failed. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.scheduled) {
      await this.running;
      await new Promise((r) => setImmediate(r));
    }
    await this.running;
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      const settled: Array<{ ok: boolean; value: unknown }> = [];
      try {
        await this.db.transaction().execute(async (trx) => {
          for (const job of batch) {
            this.sqlite.exec('savepoint job');
            try {
              settled.push({ ok: true, value: await job.run(trx) });
            } catch (error) {
              this.sqlite.exec('rollback to savepoint job');
              settled.push({ ok: false, value: error });
            }
            this.sqlite.exec('release savepoint job');
          }
        });
      } catch (error) {
        for (const job of batch) job.reject(error);
        continue;
      }
      batch.forEach((job, i) => {
        const outcome = settled[i]!;
        if (outcome.ok) job.resolve(outcome.value);
        else job.reject(outcome.value);
      });
    }
  }
}
