import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// `brief import` (decision 0025): which link each imported row became, by the row's source (the
// format and the domain it had there) and its key there, so a second run of the same file skips
// what the first one imported. No foreign key: the link row is written in the same transaction.
export function linkImports(dialect: Dialect) {
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      let table = db.schema
        .createTable('link_imports')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('origin_key', 'text', (c) => c.notNull())
        .addColumn('link_id', big, (c) => c.notNull())
        .addColumn('imported_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('link_imports_pk', ['source', 'origin_key']);
      // SQLite: the primary key is the table itself (no rowid and second index beside it).
      if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
      await table.execute();
    },
  };
}
