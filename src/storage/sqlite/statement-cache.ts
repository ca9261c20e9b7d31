import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

// Kysely prepares every query it runs; preparing was 12% of the server's CPU under load
// (docs/benchmarks.md). Its SQL is stable per query shape, so statements are kept.
const MAX_STATEMENTS = 1000;

/** better-sqlite3 as Kysely's SqliteDialect sees it, with prepared statements reused by SQL text. */
export function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (statement === undefined) {
        // Shapes like `in (?, ?, …)` vary with their input: a bound keeps the map small.
        if (statements.size >= MAX_STATEMENTS) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
