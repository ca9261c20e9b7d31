import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { rollUpEvents } from '../rollups.js';

// Click analytics at scale (docs/decisions/0012-click-rollups.md):
// - click_events.clicks: visits identical in every recorded field within one second are one row.
// - click_rollups: a workspace's clicks per dimension value, per quarter hour and per UTC day,
//   kept up to date as events are written (link_id 0). When raw events pass
//   ANALYTICS_RETENTION_DAYS they are folded into per-link day rows (link_id = the link) and
//   deleted, and the workspace's quarter-hour rows go with them: day rows outlive both.
export function clickRollups(dialect: Dialect) {
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('click_events')
        .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      let table = db.schema
        .createTable('click_rollups')
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('link_id', big, (c) => c.notNull())
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('dimension', 'text', (c) => c.notNull())
        .addColumn('start', big, (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('clicks', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('click_rollups_pk', ['account_id', 'link_id', 'period', 'dimension', 'start', 'value']);
      // A clustered table: a range of one dimension's rows is one contiguous read.
      if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
      await table.execute();
      // The events written before this migration, rolled up as if written after it.
      await rollUpEvents(db, { perLink: false });
    },
  };
}
