import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// A link's redirect rules (decision 0039): one JSON text column, null when the link has none. The rules are read
// whole with the link and never searched by, and a text column is the same on both engines.
export function linkRules(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('links').addColumn('rules', 'text').execute();
    },
  };
}
