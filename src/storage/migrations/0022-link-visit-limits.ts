import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// A link's visit limit (decision 0039): `max_visits`, null when it has none, and `limited_visits`, the visits counted
// against it (bots excluded), added to by each instance's flush as clicks are, so every instance reads one total.
export function linkVisitLimits(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('links').addColumn('max_visits', 'integer').execute();
      await db.schema
        .alterTable('links')
        .addColumn('limited_visits', 'integer', (c) => c.notNull().defaultTo(sql.lit(0)))
        .execute();
    },
  };
}
