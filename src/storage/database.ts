import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import type { Tables } from './tables.js';
import { openSqliteReader } from './sqlite-reader.js';
import { withStatementCache } from './statement-cache.js';
import { CLICK_WRITER_RETENTION_MS, startSqliteBackground, type ClickBatch } from './sqlite-background.js';
import { WriteBatcher } from './write-batcher.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<Tables>;
  readonly dialect: Dialect;
  /**
   * Runs a write that must be durable before it is acknowledged. On SQLite, writes
   * arriving together share one transaction and one fsync (group commit).
   */
  write<T>(work: (db: Kysely<Tables>) => Promise<T>): Promise<T>;
  /**
   * Adds clicks to links, additively (any number of instances can do it at once), and
   * at most once per batch number of a writer (a retry after an unclear failure is safe).
   */
  addClicks(batch: ClickBatch): Promise<void>;
  /** SQLite files only: a read-only connection for synchronous hot-path reads of committed rows. */
  readonly reader?: SQLite.Database;
  close(): Promise<void>;
}

// int8 (bigint) columns hold ids, counters and epoch milliseconds: all safe as numbers.
pg.types.setTypeParser(20, (value) => Number(value));

export interface DatabaseOptions {
  poolMax?: number;
  /** PostgreSQL: how long to wait for a connection (new, or a free one from the pool) before failing. */
  connectTimeoutMs?: number;
}

export function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Database {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: options.poolMax ?? 10,
      // Without a bound, a request waits forever on an unreachable server or a full pool;
      // with one, it fails and is answered 503.
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    });
    // A client whose connection drops emits 'error': on the pool while idle, on the client
    // while checked out (pg-pool removes its own listener then). Unhandled, either would
    // crash the process. The query in flight fails on its own, and the pool discards the
    // broken client when it is released, so these listeners need do nothing.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    const write: Database['write'] = (work) => db.transaction().execute(work);
    return { db, dialect: 'postgres', write, addClicks: (batch) => updateClicks(write, batch), close: () => db.destroy() };
  }

  if (target.path !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(target.path)), { recursive: true });
  const sqlite = new SQLite(target.path);
  // WAL with synchronous=FULL: a committed write is on disk before it is acknowledged.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const batcher = new WriteBatcher(db, sqlite);
  const background = startSqliteBackground(sqlite, target.path);
  const write: Database['write'] = (work) => batcher.run(work);
  let reader: SQLite.Database | undefined;
  return {
    db,
    dialect: 'sqlite',
    write,
    // Off the event loop when there is a background thread (files), else a group-committed write.
    addClicks: (batch) => (background?.running ? background.addClicks(batch) : updateClicks(write, batch)),
    // Opened on first use: the file and its schema exist by then (migrations ran).
    get reader() {
      reader ??= openSqliteReader(target.path);
      return reader;
    },
    close: async () => {
      await batcher.drain();
      reader?.close();
      await background?.stop();
      await db.destroy();
    },
  };
}

function updateClicks(write: Database['write'], { writer, seq, clicks }: ClickBatch): Promise<void> {
  return write(async (db) => {
    const now = Date.now();
    const claimed = await db
      .insertInto('click_writers')
      .values({ writer, seq, updated_at: now })
      .onConflict((oc) =>
        oc
          .column('writer')
          .doUpdateSet((eb) => ({ seq: eb.ref('excluded.seq'), updated_at: eb.ref('excluded.updated_at') }))
          .where('click_writers.seq', '<', (eb) => eb.ref('excluded.seq')),
      )
      .returning('writer')
      .executeTakeFirst();
    if (!claimed) return; // applied before: the attempt that seemed to fail had committed
    if (seq === 1) await db.deleteFrom('click_writers').where('updated_at', '<', now - CLICK_WRITER_RETENTION_MS).execute();
    await db
      .insertInto('link_clicks')
      .values(clicks.map(([link_id, n]) => ({ link_id, clicks: n })))
      .onConflict((oc) => oc.column('link_id').doUpdateSet((eb) => ({ clicks: eb('link_clicks.clicks', '+', eb.ref('excluded.clicks')) })))
      .execute();
  });
}

// pg's errors without a code: a dropped connection, a connect timeout (pg's own, and
// pg-pool's while waiting for a free client), a client broken by an earlier drop.
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable/i;
const CONNECTION_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'SQLITE_BUSY'];

/** True for a connection-level failure (database down or unreachable), as opposed to a query error. */
export function isConnectionError(error: unknown): boolean {
  // Node reports a failed connect to several addresses (localhost: ::1 and 127.0.0.1) as an AggregateError.
  if (error instanceof AggregateError && error.errors.some(isConnectionError)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (CONNECTION_CODES.includes(code)) return true;
    // SQLSTATE classes 08 (connection exception), 57P0x (shutdown, crash, starting up) and
    // 53300 (too many connections): the server is not there for us right now.
    if (code.startsWith('08') || /^57P0[1-4]$/.test(code) || code === '53300') return true;
  }
  const message = error instanceof Error ? error.message : '';
  return CONNECTION_MESSAGES.test(message);
}
