// The SQLite background thread (see background.ts): its own connection, WAL checkpoints
// on a timer, and click and click-event batches applied as they arrive.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { applyClickBatch } from '../click-writes.js';
import type { ClickBatch } from '../stores.js';
import type { Tables } from '../tables.js';
import { type PackedEvents, unpackEvents } from './event-packing.js';
import { SqliteEventWrites } from './event-writes.js';
import { withStatementCache } from './statement-cache.js';

export interface ThreadData {
  path: string;
  checkpointMs: number;
  /** [0]: how many writes the server's own connection has under way; the thread waits for none before a transaction. */
  writers: Int32Array;
}

/** The longest a batch waits for the server's writes, so that a stream of them cannot hold the thread's back for good. */
const MAX_WAIT_MS = 200;

/** What the thread is sent: a batch to apply (answered with its id), or stop. */
export type ThreadMessage =
  | { type: 'clicks'; id: number; batch: ClickBatch }
  | { type: 'events'; id: number; batch: PackedEvents }
  | { type: 'stop' };
export interface ThreadReply {
  id: number;
  error?: string;
}

const port = parentPort;
if (port) {
  const { path, checkpointMs, writers } = workerData as ThreadData;
  const sqlite = new SQLite(path);
  sqlite.pragma('busy_timeout = 5000');
  // A click count is not an acknowledged write: the next FULL commit of the server's own
  // connection makes it durable with the rest of the WAL.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('cache_size = -32768');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const events = new SqliteEventWrites(sqlite);
  const checkpoint = (mode: 'PASSIVE' | 'TRUNCATE') => {
    try {
      sqlite.pragma(`wal_checkpoint(${mode})`);
    } catch {
      // Busy: the next tick tries again.
    }
  };
  const timer = setInterval(() => checkpoint('PASSIVE'), checkpointMs);

  /** One batch at a time: a Kysely transaction awaits between statements, and another must not begin inside it. */
  let queue = Promise.resolve();
  /** Waits while the server's connection is writing: its writes block the event loop while they wait for the lock. */
  const yieldToServer = () => {
    const until = Date.now() + MAX_WAIT_MS;
    for (let now = Date.now(), seen = Atomics.load(writers, 0); seen > 0 && now < until; now = Date.now(), seen = Atomics.load(writers, 0))
      Atomics.wait(writers, 0, seen, until - now);
  };
  const apply = (message: Exclude<ThreadMessage, { type: 'stop' }>): Promise<void> => {
    yieldToServer();
    return message.type === 'events'
      ? // Synchronous, with statements prepared once (event-writes.ts): the thread's main work under load.
        Promise.resolve().then(() => events.add(unpackEvents(message.batch)))
      : // Each click batch commits alone: the write lock is held briefly (about a millisecond).
        db.transaction().execute((trx) => applyClickBatch(trx, message.batch));
  };

  port.on('message', (message: ThreadMessage) => {
    if (message.type !== 'stop') {
      queue = queue.then(() =>
        apply(message).then(
          () => port.postMessage({ id: message.id } satisfies ThreadReply),
          (error: unknown) => port.postMessage({ id: message.id, error: String((error as Error)?.message ?? error) } satisfies ThreadReply),
        ),
      );
      return;
    }
    void queue.then(() => {
      clearInterval(timer);
      checkpoint('TRUNCATE');
      return db.destroy().then(() => port.close());
    });
  });
}
