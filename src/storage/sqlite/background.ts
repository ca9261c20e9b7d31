import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { threadScript } from '../../thread-scripts.js';
import type { ClickEventBatch } from '../stores/analytics.js';
import type { ClickBatch } from '../stores/clicks.js';
import type { ImportOutcome } from '../stores/imports.js';
import type { ThreadData, ThreadMessage, ThreadReply } from './background-thread.js';
import { packEvents } from './event-packing.js';
import type { ImportBatch } from './import-batches.js';
import { packImport, transfersOf } from './import-packing.js';
import { WAL_RESTART_FRAMES } from './wal-restart.js';
import { newWriteTurns, serverTurns, type WritePriority } from './write-turns.js';

// Work that must not run on the event loop, done by a thread with its own connection
// (background-thread.ts):
// - WAL checkpoints. Copying the WAL back into the database (with its fsyncs) ran
//   inside whichever COMMIT crossed the auto-checkpoint threshold and tripled the cost
//   of a group commit under load (docs/benchmarks.md).
// - Click increments. Under cache-missing redirect load every click dirties a random
//   page of link_clicks; applying them on the event loop took about a quarter of the
//   server's time.
// - Click events (analytics), for the same reason: each touches random index pages.

export interface SqliteBackground {
  /** False once the thread has died; the caller then applies clicks itself. */
  readonly running: boolean;
  /**
   * Around each write of the server's own connection (a group commit): the thread starts no
   * transaction of its own until it ends, and the write waits for one under way with the event
   * loop free (write-turns.ts). Acknowledged writes (shortens, edits) go first; the thread's
   * batches take the gaps between them.
   */
  readonly priority: WritePriority;
  addClicks(batch: ClickBatch): Promise<void>;
  addEvents(batch: ClickEventBatch): Promise<void>;
  /** Rolls every event sent before into the link_id rows (rollUpLinkEvents): a query of them waits for it. */
  rollUpLinks(): Promise<void>;
  /** Writes a batch of `brief import` in one durable transaction of the thread's; its outcomes in the batch's order. */
  importLinks(batch: ImportBatch): Promise<ImportOutcome[]>;
  stop(): Promise<void>;
}

/** Starts the background thread for a SQLite file and turns off auto-checkpoints on the server's connection. */
export function startSqliteBackground(
  sqlite: SQLite.Database,
  path: string,
  { checkpointMs = 250, walRestartFrames = WAL_RESTART_FRAMES }: { checkpointMs?: number; walRestartFrames?: number } = {},
): SqliteBackground {
  sqlite.pragma('wal_autocheckpoint = 0');
  const turns = newWriteTurns();
  const priority = serverTurns(turns);
  const worker = new Worker(threadScript(import.meta.url, 'background-thread'), {
    workerData: { path, checkpointMs, walRestartFrames, turns } satisfies ThreadData,
  });
  const send = (message: ThreadMessage) => worker.postMessage(message);
  const waiting = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let exited = false;

  worker.on('message', (reply: ThreadReply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (waiting.size === 0) worker.unref();
    if (reply.error === undefined) pending?.resolve(reply.result);
    else pending?.reject(new Error(reply.error));
  });
  // Should the thread die, checkpoints fall back to the writer's commits, pending click
  // batches fail (the click counter retries them), and later ones are applied by the caller.
  worker.on('error', () => sqlite.pragma('wal_autocheckpoint = 1000'));
  worker.once('exit', () => {
    exited = true;
    priority.threadGone();
    for (const pending of waiting.values()) pending.reject(new Error('SQLite background thread exited'));
    waiting.clear();
  });
  worker.unref();

  /** Sends a batch; settles with the thread's reply. */
  const request = <T = void>(message: (id: number) => ThreadMessage, transfer: ArrayBuffer[] = []) =>
    new Promise<T>((resolve, reject) => {
      if (exited) return reject(new Error('SQLite background thread exited'));
      const id = nextId++;
      // Referenced while a reply is owed, so a shutdown's last flush is not cut off.
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve: resolve as (result: unknown) => void, reject });
      worker.postMessage(message(id), transfer);
    });

  return {
    get running() {
      return !exited;
    },
    priority,
    addClicks: (batch) => request((id) => ({ type: 'clicks', id, batch })),
    addEvents: (batch) => {
      const packed = packEvents(batch);
      return request((id) => ({ type: 'events', id, batch: packed }), [packed.numbers.buffer as ArrayBuffer, packed.texts.buffer as ArrayBuffer]);
    },
    rollUpLinks: () => request((id) => ({ type: 'links', id })),
    importLinks: (batch) => {
      const packed = packImport(batch);
      return request<ImportOutcome[]>((id) => ({ type: 'import', id, batch: packed }), transfersOf(packed));
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        worker.once('exit', () => resolve());
        worker.ref(); // keep the process alive until the last checkpoint is done
        send({ type: 'stop' });
      }),
  };
}
