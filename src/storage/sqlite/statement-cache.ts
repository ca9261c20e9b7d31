import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

// Kysely prepares every query it runs; preparing was 12% of the server's CPU under load
// (docs/benchmarks.md). Its SQL is stable per query shape, so statements are kept.
const MAX_STATEMENTS = 1000;
/**
 * Only statements whose SQL is at most this long are kept. Multi-row shapes (a batch of click
 * events, `in (?, ?, …)` over a batch's links) differ with every batch size and grow with it:
 * a 500-row insert holds ~0.5 MB of native memory, which V8 does not see. Kept, a thousand of
 * them held a soak's server at 1 GB after ten minutes (docs/decisions/0009). Unkept, each is
 * prepared once per batch and freed with its garbage.
 */
export const MAX_CACHED_SQL_LENGTH = 1024;

/** better-sqlite3 as Kysely's SqliteDialect sees it, with prepared statements reused by SQL text. */
export function withStatementCache(sqlite: SQLite.Database): SqliteDatabase & { readonly cachedStatements: number } {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      if (sql.length > MAX_CACHED_SQL_LENGTH) return sqlite.prepare(sql);
      let statement = statements.get(sql);
      if (statement === undefined) {
        // Shapes like `in (?, ?, …)` vary with their input: a bound keeps the map small.
        if (statements.size >= MAX_STATEMENTS) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    get cachedStatements() {
      return statements.size;
    },
  };
}
