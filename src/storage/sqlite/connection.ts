import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Connection } from '../connection.js';
import type { Tables } from '../tables.js';
import { type SqliteBackground, startSqliteBackground } from './background.js';
import { createPrivateFiles, isDatabaseFile } from './file-modes.js';
import { openSqliteReader } from './reader.js';
import { withStatementCache } from './statement-cache.js';
import { WAL_SIZE_LIMIT_BYTES } from './wal-restart.js';
import { WriteBatcher } from './write-batcher.js';

/** A SQLite database (a file, or in memory) as the SQLite stores use it. */
export interface SqliteConnection extends Connection {
  /**
   * A durable write run synchronously on the writing connection itself, in the same group
   * commit as write(); for hot writes with statements prepared once.
   */
  writeSqlite<T>(work: (sqlite: SQLite.Database) => T): Promise<T>;
  /**
   * Files only: the read-only connection for synchronous reads of committed rows,
   * opened on first call (by then the migrations have run and the schema exists).
   */
  readonly reader: (() => SQLite.Database) | undefined;
  /** Files only: the thread that checkpoints and applies clicks. */
  readonly background: SqliteBackground | undefined;
}

export function openSqliteConnection(file: string): SqliteConnection {
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
