import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// Query strings forwarded on redirect (decision 0015): on for every link unless its owner turns it off
// (v3's `forwardQuery: false`), so every link that exists now forwards, as a new one does.
export function linkForwardQuery(dialect: Dialect) {
  const bool = dialect === 'sqlite' ? 'integer' : 'boolean';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('links')
        .addColumn('forward_query', bool, (c) => c.notNull().defaultTo(sql.lit(true)))
        .execute();
    },
  };
}
