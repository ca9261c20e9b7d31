import type SQLite from 'better-sqlite3';
import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../tables.js';
import type { WritePriority } from './write-turns.js';

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
 * transaction on the pool (see postgres/connection.ts).
 */
export class WriteBatcher {
  // biome-ignore lint/suspicious/noExplicitAny: one queue holds jobs of every result type; run<T>() keeps each caller typed
  private queue: Job<any>[] = [];
  private scheduled = false;
  private running: Promise<void> = Promise.resolve();
  // Prepared once: exec() would parse these three statements again for every job.
  private savepoints: { open: SQLite.Statement; rollback: SQLite.Statement; release: SQLite.Statement } | undefined;

  constructor(
    private readonly db: Kysely<Tables>,
    /** The connection under `db`: savepoints go straight to it, not through Kysely's async query path. */
    private readonly sqlite: SQLite.Database,
    /** The background thread's handshake: it starts no transaction while one of these runs. */
    private readonly priority?: WritePriority,
    private readonly maxBatch = 256,
  ) {}

  /**
   * A write on the connection itself, synchronous, in the same group commit: for hot writes
   * whose statements are prepared once (Kysely builds and compiles a query on every call).
   */
  runOnConnection<T>(work: (sqlite: SQLite.Database) => T): Promise<T> {
    return this.run(async () => work(this.sqlite));
  }

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

  private preparedSavepoints() {
    this.savepoints ??= {
      open: this.sqlite.prepare('savepoint job'),
      rollback: this.sqlite.prepare('rollback to savepoint job'),
      release: this.sqlite.prepare('release savepoint job'),
    };
    return this.savepoints;
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      const settled: Array<{ ok: boolean; value: unknown }> = [];
      await this.priority?.enter();
      try {
        await this.db.transaction().execute(async (trx) => {
          const savepoint = this.preparedSavepoints();
          for (const job of batch) {
            savepoint.open.run();
            try {
              settled.push({ ok: true, value: await job.run(trx) });
            } catch (error) {
              savepoint.rollback.run();
              settled.push({ ok: false, value: error });
            }
            savepoint.release.run();
          }
        });
      } catch (error) {
        for (const job of batch) job.reject(error);
        continue;
      } finally {
        this.priority?.leave();
      }
      batch.forEach((job, i) => {
        const outcome = settled[i]!;
        if (outcome.ok) job.resolve(outcome.value);
        else job.reject(outcome.value);
      });
    }
  }
}
