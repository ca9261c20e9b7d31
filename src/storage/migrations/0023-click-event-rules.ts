import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// What a visit of a link with rules took (decision 0039, "What a visit took"): `rule`, null for every event written
// before it and for links without rules. Adding a nullable column without a default rewrites no row on either engine.
export function clickEventRules(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('click_events').addColumn('rule', 'text').execute();
    },
  };
}
