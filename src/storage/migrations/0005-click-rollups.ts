import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// Click analytics at scale (docs/decisions/0012-click-rollups.md):
// - click_events.clicks: visits identical in every recorded field within one second are one row.
// - click_rollups: a workspace's clicks per dimension value, per quarter hour and per UTC day,
//   kept up to date as events are written (link_id 0). When raw events pass
//   ANALYTICS_RETENTION_DAYS they are folded into per-link day rows (link_id = the link) and
//   deleted, and the workspace's quarter-hour rows go with them: day rows outlive both.
//
// Frozen: the SQL that rolls up the events written before this migration is written out here, as
// storage/rollups.ts had it when this migration was made, so that later changes to the rollups
// never change what this migration does.
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
      // The events written before this migration, rolled up as if written after it: the workspace's
      // rows (link_id 0) of every dimension, per quarter hour and per UTC day.
      for (const [period, length] of PERIODS) {
        const start = `time - time % ${length}`;
        for (const [dimension, value, counts] of DIMENSIONS) {
          const grouped = dimension === 'clicks' ? start : `${start}, ${value}`;
          await sql
            .raw(`insert into click_rollups (account_id, link_id, period, dimension, start, value, clicks)
              select account_id, 0, '${period}', '${dimension}', ${start}, ${value}, sum(clicks)
              from click_events
              where ${counts}
              group by account_id, ${grouped}
              on conflict (account_id, link_id, period, dimension, start, value)
              do update set clicks = click_rollups.clicks + excluded.clicks`)
            .execute(db);
        }
      }
    },
  };
}

/** The rollup periods and their lengths in milliseconds. */
const PERIODS = [
  ['quarter', 900_000],
  ['day', 86_400_000],
] as const;

/**
 * Each dimension, its value in a click_events row and the condition for the row to count: people's
 * clicks in all (value ''), per browser and major version, per value of a column; `bot` counts bots' visits only.
 */
const DIMENSIONS: ReadonlyArray<readonly [dimension: string, value: string, counts: string]> = [
  ['clicks', `''`, 'bot is null'],
  ['browser_version', `browser || ' ' || browser_version`, 'bot is null and browser is not null and browser_version is not null'],
  ['bot', 'bot', 'bot is not null'],
  ...['browser', 'os', 'device_type', 'device_vendor', 'language', 'referrer_host', 'country', 'city'].map(
    (column) => [column, `"${column}"`, `bot is null and "${column}" is not null`] as const,
  ),
  ['link_id', 'cast(link_id as text)', 'bot is null'],
];
