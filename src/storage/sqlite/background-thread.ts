// The SQLite background thread (see background.ts): its own connection, WAL checkpoints
// on a timer, click and click-event batches applied as they arrive, and `brief import`'s batches.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { applyClickBatch } from '../sql/click-writes.js';
import type { ClickBatch } from '../stores/clicks.js';
import type { Tables } from '../tables.js';
import { type PackedEvents, unpackEvents } from './event-packing.js';
import { SqliteEventWrites } from './event-writes.js';
import { SqliteImportBatches } from './import-batches.js';
import { type PackedImport, unpackImport } from './import-packing.js';
import { LINK_ROLLUP_EVENTS, rollUpLinkEvents } from './link-rollups.js';
import { withStatementCache } from './statement-cache.js';
import { WAL_SIZE_LIMIT_BYTES } from './wal-restart.js';
import { inThreadTurn } from './write-turns.js';

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface ThreadData {
  path: string;
  checkpointMs: number;
  /** A WAL of this many frames is started over (see the checkpoint timer). */
  walRestartFrames: number;
  /** Whose turn it is to write (write-turns.ts). */
  turns: Int32Array;
}

const BUSY_TIMEOUT_MS = 5000;
/** How long a RESTART checkpoint waits for readers on an older snapshot before it gives up until the next tick. */
const RESTART_BUSY_MS = 50;

/** Import batches written back to back for at most this long, then a pause of IMPORT_GAP_MS (importBatch). */
const IMPORT_RUN_MS = 800;
/** Longer than SQLite's longest sleep between two tries of a busy wait (100 ms). */
const IMPORT_GAP_MS = 110;

/** How often the link_id rows catch up with the events written meanwhile, when fewer than LINK_ROLLUP_EVENTS came. */
const LINK_ROLLUP_MS = 1000;

/** What the thread is sent: a batch to apply (answered with its id), or stop. */
export type ThreadMessage =
  | { type: 'clicks'; id: number; batch: ClickBatch }
  | { type: 'events'; id: number; batch: PackedEvents }
  /** Roll up every event stored so far into the link_id rows (rollUpLinkEvents), then answer. */
  | { type: 'links'; id: number }
  /** Write a batch of `brief import` (import-store.ts), durably, and answer with its outcomes. */
  | { type: 'import'; id: number; batch: PackedImport }
  | { type: 'stop' };
export interface ThreadReply {
  id: number;
  error?: string;
  /** What the work answered (an import batch's outcomes). */
  result?: unknown;
}

const port = parentPort;
if (port) {
  const { path, checkpointMs, walRestartFrames, turns } = workerData as ThreadData;
  const sqlite = new SQLite(path);
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // A click count is not an acknowledged write: the next FULL commit of the server's own
  // connection makes it durable with the rest of the WAL.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('cache_size = -32768');
  // The timer below checkpoints; an automatic one after each of the thread's own commits (past 1,000
  // pages) copied and fsynced the same pages again and again: 8.5% of the server's core in a cold
  // redirect load with analytics on.
  sqlite.pragma('wal_autocheckpoint = 0');
  // Whichever connection writes first after the WAL starts over cuts the file back: this one too.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  // Its statements are prepared on the first batch of events, not here: on a new file the thread starts
  // before the migrations have made the tables, and a statement prepared on a missing table throws.
  let events: SqliteEventWrites | undefined;
  const checkpoint = (mode: 'PASSIVE' | 'RESTART' | 'TRUNCATE'): CheckpointResult | undefined => {
    try {
      return (sqlite.pragma(`wal_checkpoint(${mode})`) as CheckpointResult[])[0];
    } catch {
      // Busy: the next tick tries again.
      return undefined;
    }
  };
  /** A reader still on an older snapshot makes RESTART wait: briefly, then the next tick tries again. */
  const withBusyTimeout = <T>(ms: number, work: () => T): T => {
    sqlite.pragma(`busy_timeout = ${ms}`);
    try {
      return work();
    } finally {
      sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  };
  // A passive checkpoint never waits, so under a steady stream of commits it never catches up with
  // the last one, and SQLite only starts the WAL over when a checkpoint has: the file grew by ~80 MB
  // a second under bulk creates (docs/benchmarks.md). Past walRestartFrames, one RESTART checkpoint
  // in the thread's write turn (the server's writes wait for it with the event loop free) finishes
  // the copy, and the next commit writes the WAL from its start again.
  let restartQueued = false;
  const restartWal = async () => {
    try {
      await inThreadTurn(turns, () => withBusyTimeout(RESTART_BUSY_MS, () => checkpoint('RESTART')));
    } finally {
      restartQueued = false;
    }
  };
  const timer = setInterval(() => {
    const copied = checkpoint('PASSIVE');
    if (!copied || copied.log < walRestartFrames || restartQueued) return;
    restartQueued = true;
    enqueue(restartWal);
  }, checkpointMs);

  /** One batch at a time: a Kysely transaction awaits between statements, and another must not begin inside it. */
  let queue = Promise.resolve();
  /** Appends work to the queue (one piece at a time, in order); the work settles its own errors. */
  const enqueue = (work: () => Promise<void>) => {
    queue = queue.then(work);
  };
  /** Events written since the link_id rows were last rolled up (a guess after a start: the mark is in the file). */
  let unrolled = 1;
  /** One transaction of the link_id catch-up (rollUpLinkEvents); true while more events wait. */
  const rollUpLinks = async (): Promise<boolean> => {
    const more = await inThreadTurn(turns, () => db.transaction().execute((trx) => rollUpLinkEvents(trx, LINK_ROLLUP_EVENTS)));
    unrolled = more ? Math.max(unrolled - LINK_ROLLUP_EVENTS, 1) : 0;
    return more;
  };
  const rollUpAllLinks = async () => {
    while (await rollUpLinks());
  };
  /** A catch-up nobody waits for (by count or by the clock): a failure is left to the next one. */
  const rollUpLinksLater = () =>
    enqueue(() =>
      rollUpLinks().then(
        () => undefined,
        () => undefined,
      ),
    );
  let imports: SqliteImportBatches | undefined;
  /** When the current run of import batches written back to back began, and when the last one ended. */
  let importRun = { began: 0, ended: 0 };
  /**
   * An import batch in one transaction, committed as durably as the server's own writes (synchronous
   * FULL). After IMPORT_RUN_MS of batches back to back the lock stays free for IMPORT_GAP_MS (the next
   * batch waits in the queue), so that a process that opened the file meanwhile (a server started during
   * the import) gets its write in within about a second: SQLite's busy wait polls every 100 ms at most.
   */
  const importBatch = (batch: PackedImport) => {
    imports ??= new SqliteImportBatches(sqlite);
    const began = Date.now();
    if (began - importRun.ended >= IMPORT_GAP_MS) importRun = { began, ended: began };
    const write = sqlite.transaction(() => imports!.write(unpackImport(batch)));
    sqlite.pragma('synchronous = FULL');
    try {
      return write.immediate();
    } finally {
      sqlite.pragma('synchronous = NORMAL');
      importRun.ended = Date.now();
      if (importRun.ended - importRun.began >= IMPORT_RUN_MS) enqueue(() => new Promise((resolve) => setTimeout(resolve, IMPORT_GAP_MS)));
    }
  };
  const apply = async (message: Exclude<ThreadMessage, { type: 'stop' }>): Promise<unknown> => {
    if (message.type === 'links') return rollUpAllLinks();
    if (message.type === 'import') return inThreadTurn(turns, () => importBatch(message.batch));
    if (message.type === 'clicks') {
      // Each click batch commits alone: the write lock is held briefly (about a millisecond).
      return inThreadTurn(turns, () => db.transaction().execute((trx) => applyClickBatch(trx, message.batch)));
    }
    // Synchronous, with statements prepared once (event-writes.ts): the thread's main work under load.
    const batch = unpackEvents(message.batch);
    events ??= new SqliteEventWrites(sqlite);
    const writes = events;
    await inThreadTurn(turns, () => writes.add(batch));
    unrolled += batch.events.length;
    // Many events at a time, so that a link visited again shares its row's write (decision 0013);
    // after this batch's answer, which does not depend on it.
    if (unrolled >= LINK_ROLLUP_EVENTS) rollUpLinksLater();
  };
  // The rest of a quiet period's events, a second later at most.
  const linkTimer = setInterval(() => {
    if (unrolled > 0) rollUpLinksLater();
  }, LINK_ROLLUP_MS);

  port.on('message', (message: ThreadMessage) => {
    if (message.type !== 'stop') {
      enqueue(() =>
        apply(message).then(
          (result) => port.postMessage({ id: message.id, result } satisfies ThreadReply),
          (error: unknown) => port.postMessage({ id: message.id, error: String((error as Error)?.message ?? error) } satisfies ThreadReply),
        ),
      );
      return;
    }
    enqueue(async () => {
      clearInterval(timer);
      clearInterval(linkTimer);
      await rollUpAllLinks().catch(() => undefined); // else the next start or query does it
      checkpoint('TRUNCATE');
      await db.destroy();
      port.close();
    });
  });
}
