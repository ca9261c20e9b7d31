import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

// Kysely prepares every query it runs; preparing was 12% of the server's CPU under load
// (docs/benchmarks.md). Its SQL is stable per query shape, so statements are kept.
const MAX_STATEMENTS = 1000;
/** SQL up to this long is a query shape of the code: kept among MAX_STATEMENTS. */
export const MAX_CACHED_SQL_LENGTH = 1024;
/**
 * Longer SQL is a multi-row statement (a batch of click events, an `in` list over a batch's
 * links), which holds up to ~0.5 MB of native memory that V8 does not see. Batches come in
 * power-of-two sizes (storage/sql/batch-shapes.ts), so a few dozen such shapes exist: at most
 * MAX_LONG_STATEMENTS of them are kept, none over MAX_LONG_SQL_LENGTH. A thousand kept
 * shapes of every batch size held a soaking server at 1 GB after ten minutes (decision 0009).
 */
export const MAX_LONG_STATEMENTS = 64;
const MAX_LONG_SQL_LENGTH = 32 * 1024;

/** better-sqlite3 as Kysely's SqliteDialect sees it, with prepared statements reused by SQL text. */
export function withStatementCache(sqlite: SQLite.Database): SqliteDatabase & { readonly cachedStatements: number } {
  const short = new Map<string, SqliteStatement>();
  const long = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      if (sql.length > MAX_LONG_SQL_LENGTH) return sqlite.prepare(sql);
      const [statements, max] = sql.length > MAX_CACHED_SQL_LENGTH ? [long, MAX_LONG_STATEMENTS] : [short, MAX_STATEMENTS];
      let statement = statements.get(sql);
      if (statement === undefined) {
        // Shapes that vary with their input beyond these bounds: the maps stay small.
        if (statements.size >= max) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    get cachedStatements() {
      return short.size + long.size;
    },
  };
}
