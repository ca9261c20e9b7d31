import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

// Work that must not run on the event loop, done by a thread with its own connection:
// - WAL checkpoints. Copying the WAL back into the database (with its fsyncs) ran
//   inside whichever COMMIT crossed the auto-checkpoint threshold and tripled the cost
//   of a group commit under load (docs/benchmarks.md).
// - Click increments. Under cache-missing redirect load every click dirties a random
//   page of link_clicks; applying them on the event loop took about a quarter of the
//   server's time.
//   Each chunk commits alone (the write lock is held for about a millisecond), with
//   synchronous=NORMAL: a click count is not an acknowledged write, and the next FULL
//   commit of the server's own connection makes it durable with the rest of the WAL.
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.path);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -4096');
const checkpoint = (mode) => { try { db.pragma('wal_checkpoint(' + mode + ')'); } catch {} };
const timer = setInterval(() => checkpoint('PASSIVE'), workerData.intervalMs);
const upserts = new Map();
let claim, prune, applyBatch;
// Prepared on first use: the thread starts before the migrations have run.
function prepare() {
  claim = db.prepare('insert into click_writers (writer, seq, updated_at) values (?, ?, ?) on conflict (writer) do update' +
    ' set seq = excluded.seq, updated_at = excluded.updated_at where click_writers.seq < excluded.seq returning writer');
  prune = db.prepare('delete from click_writers where updated_at < ?');
  applyBatch = db.transaction((batch) => {
    const now = Date.now();
    if (claim.get(batch.writer, batch.seq, now) === undefined) return; // applied before
    if (batch.seq === 1) prune.run(now - workerData.writerRetentionMs);
    const chunk = batch.clicks;
    let upsert = upserts.get(chunk.length);
    if (!upsert) {
      upsert = db.prepare('insert into link_clicks (link_id, clicks) values ' + Array(chunk.length).fill('(?, ?)').join(', ') +
        ' on conflict (link_id) do update set clicks = link_clicks.clicks + excluded.clicks');
      upserts.set(chunk.length, upsert);
    }
    upsert.run(chunk.flat());
  });
}
parentPort.on('message', (message) => {
  if (message.type === 'clicks') {
    try {
      if (!applyBatch) prepare();
      applyBatch(message.batch);
      parentPort.postMessage({ id: message.id });
    } catch (error) {
      parentPort.postMessage({ id: message.id, error: String(error && error.message || error) });
    }
    return;
  }
  clearInterval(timer);
  checkpoint('TRUNCATE');
  db.close();
  parentPort.close();
});
`;

/** Clicks to add: [link id, clicks] pairs, by link id. */
export type ClickChunk = Array<[linkId: number, clicks: number]>;

/**
 * A chunk numbered by its writer (a random id per process, numbers rising by one). The
 * number is recorded with the clicks in one transaction, so a batch retried after an
 * unclear failure is applied at most once (migrations/0002-click-writers.ts).
 */
export interface ClickBatch {
  writer: string;
  seq: number;
  clicks: ClickChunk;
}

/** How long a writer's last number is kept after its last batch (a retry comes long before). */
export const CLICK_WRITER_RETENTION_MS = 30 * 24 * 3600 * 1000;

export interface SqliteBackground {
  /** False once the thread has died; the caller then applies clicks itself. */
  readonly running: boolean;
  addClicks(batch: ClickBatch): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the background thread for a SQLite file and turns off auto-checkpoints on
 * the server's connection. None for in-memory databases.
 */
export function startSqliteBackground(sqlite: SQLite.Database, path: string, intervalMs = 250): SqliteBackground | undefined {
  if (path === '' || path === ':memory:' || path.startsWith('file:')) return undefined;
  sqlite.pragma('wal_autocheckpoint = 0');
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, { eval: true, workerData: { module, path, intervalMs, writerRetentionMs: CLICK_WRITER_RETENTION_MS } });
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let exited = false;

  worker.on('message', (reply: { id: number; error?: string }) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (waiting.size === 0) worker.unref();
    if (reply.error === undefined) pending?.resolve();
    else pending?.reject(new Error(reply.error));
  });
  // Should the thread die, checkpoints fall back to the writer's commits, pending click
  // batches fail (the click counter retries them), and later ones are applied by the caller.
  worker.on('error', () => sqlite.pragma('wal_autocheckpoint = 1000'));
  worker.once('exit', () => {
    exited = true;
    for (const pending of waiting.values()) pending.reject(new Error('SQLite background thread exited'));
    waiting.clear();
  });
  worker.unref();

  return {
    get running() {
      return !exited;
    },
    addClicks: (batch) =>
      new Promise<void>((resolve, reject) => {
        if (exited) return reject(new Error('SQLite background thread exited'));
        const id = nextId++;
        // Referenced while a reply is owed, so a shutdown's last flush is not cut off.
        if (waiting.size === 0) worker.ref();
        waiting.set(id, { resolve, reject });
        worker.postMessage({ type: 'clicks', id, batch });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        worker.once('exit', () => resolve());
        worker.ref(); // keep the process alive until the last checkpoint is done
        worker.postMessage({ type: 'stop' });
      }),
  };
}
