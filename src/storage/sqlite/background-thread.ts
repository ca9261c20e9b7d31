// The SQLite background thread (see background.ts): its own connection, WAL checkpoints
// on a timer, and click and click-event batches applied as they arrive.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { applyClickBatch, applyEventBatch } from '../click-writes.js';
import type { ClickBatch } from '../stores.js';
import type { Tables } from '../tables.js';
import { type PackedEvents, unpackEvents } from './event-packing.js';
import { withStatementCache } from './statement-cache.js';

export interface ThreadData {
  path: string;
  checkpointMs: number;
}

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
  const { path, checkpointMs } = workerData as ThreadData;
  const sqlite = new SQLite(path);
  sqlite.pragma('busy_timeout = 5000');
  // A click count is not an acknowledged write: the next FULL commit of the server's own
  // connection makes it durable with the rest of the WAL.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('cache_size = -32768');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const checkpoint = (mode: 'PASSIVE' | 'TRUNCATE') => {
    try {
      sqlite.pragma(`wal_checkpoint(${mode})`);
    } catch {
      // Busy: the next tick tries again.
    }
  };
  const timer = setInterval(() => checkpoint('PASSIVE'), checkpointMs);

  port.on('message', (message: ThreadMessage) => {
    if (message.type !== 'stop') {
      // Each batch commits alone: the write lock is held briefly (a click batch: about a millisecond).
      db.transaction()
        .execute((trx) => (message.type === 'clicks' ? applyClickBatch(trx, message.batch) : applyEventBatch(trx, unpackEvents(message.batch))))
        .then(
          () => port.postMessage({ id: message.id } satisfies ThreadReply),
          (error: unknown) => port.postMessage({ id: message.id, error: String((error as Error)?.message ?? error) } satisfies ThreadReply),
        );
      return;
    }
    clearInterval(timer);
    checkpoint('TRUNCATE');
    void db.destroy().then(() => port.close());
  });
}
