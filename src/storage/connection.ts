import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import { type SqliteBackground, startSqliteBackground } from './sqlite/background.js';
import { createPrivateFiles, isDatabaseFile } from './sqlite/file-modes.js';
import { openSqliteReader } from './sqlite/reader.js';
import { withStatementCache } from './sqlite/statement-cache.js';
import { WAL_SIZE_LIMIT_BYTES } from './sqlite/wal-restart.js';
import { WriteBatcher } from './sqlite/write-batcher.js';
import type { Tables } from './tables.js';

export type Dialect = 'sqlite' | 'postgres';

/** An open connection to either engine, as the stores use it. */
export interface Connection {
  readonly dialect: Dialect;
  readonly db: Kysely<Tables>;
  /**
   * Runs a write that must be durable before it is acknowledged. On SQLite, writes
   * arriving together share one transaction and one fsync (group commit).
   */
  write<T>(work: (db: Kysely<Tables>) => Promise<T>): Promise<T>;
  /**
   * SQLite only: a durable write run synchronously on the writing connection itself, in the
   * same group commit as write(); for hot writes with statements prepared once.
   */
  readonly writeSqlite: (<T>(work: (sqlite: SQLite.Database) => T) => Promise<T>) | undefined;
  /**
   * SQLite files only: the read-only connection for synchronous reads of committed rows,
   * opened on first call (by then the migrations have run and the schema exists).
   */
  readonly reader: (() => SQLite.Database) | undefined;
  /** SQLite files only: the thread that checkpoints and applies clicks. */
  readonly background: SqliteBackground | undefined;
  close(): Promise<void>;
}

export interface ConnectionOptions {
  poolMax?: number;
  /** PostgreSQL: how long to wait for a connection (new, or a free one from the pool) before failing. */
  connectTimeoutMs?: number;
}

// int8 (bigint) columns hold ids, counters and epoch milliseconds: all safe as numbers.
pg.types.setTypeParser(20, (value) => Number(value));

export function openConnection(target: DatabaseTarget, options: ConnectionOptions = {}): Connection {
  return target.kind === 'postgres' ? openPostgres(target.url, options) : openSqlite(target.path);
}

function openPostgres(url: string, options: ConnectionOptions): Connection {
  const pool = new pg.Pool({
    connectionString: url,
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
  return {
    dialect: 'postgres',
    db,
    write: (work) => db.transaction().execute(work),
    writeSqlite: undefined,
    reader: undefined,
    background: undefined,
    close: () => db.destroy(),
  };
}

function openSqlite(file: string): Connection {
  if (isDatabaseFile(file)) createPrivateFiles(file);
  const sqlite = new SQLite(file);
  // WAL with synchronous=FULL: a committed write is on disk before it is acknowledged.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // After a burst, the WAL is cut back to 64 MB when it starts over (the background thread's
  // checkpoints keep it near that size under load), instead of keeping the burst's size on disk.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  // Each job of a group commit is a savepoint, for which SQLite keeps the first copy of every page
  // the job changes. On a temp file that was a file created, written and deleted per commit (18% of
  // a bulk create's CPU, decision 0014); in memory it is bounded by the pages one commit changes.
  sqlite.pragma('temp_store = MEMORY');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const background = isDatabaseFile(file) ? startSqliteBackground(sqlite, file) : undefined;
  const batcher = new WriteBatcher(db, sqlite, background?.priority);
  let reader: SQLite.Database | undefined;
  return {
    dialect: 'sqlite',
    db,
    write: (work) => batcher.run(work),
    writeSqlite: (work) => batcher.runOnConnection(work),
    reader: isDatabaseFile(file) ? () => (reader ??= openSqliteReader(file)) : undefined,
    background,
    close: async () => {
      await batcher.drain();
      reader?.close();
      await background?.stop();
      await db.destroy();
    },
  };
}
