import { type Kysely, sql } from 'kysely';
import { eventValue, PERIOD_MS } from '../sql/rollups.js';
import type { Tables } from '../tables.js';

// On SQLite the workspace rollups of the `link_id` dimension are not written with the events (the
// dearest part of the event write, decision 0013) but caught up afterwards, many events at a time.

/** The rollups' dimension that SQLite rolls up after the events are written (rollUpLinkEvents). */
export const LATE_DIMENSION = 'link_id';
/** Events rolled up per transaction (rollUpLinkEvents): it holds the write lock ~80 ms at 200,000 links (decision 0013). */
export const LINK_ROLLUP_EVENTS = 8192;

/**
 * SQLite: adds the `link_id` rows (quarter hours and days) of up to `limit` events not counted
 * yet, in the order they were written, and moves the mark past them, in the caller's transaction.
 * True while more remain. Each visit to a different link would otherwise add two rows at random
 * places of the table, the dearest part of the event write (decision 0013); here a catch-up's
 * rows are grouped and written in key order. Only one connection writes a SQLite file at a time
 * and event ids only grow, so the ids above the mark are exactly the events not counted yet.
 */
export async function rollUpLinkEvents(db: Kysely<Tables>, limit: number): Promise<boolean> {
  const mark = await sql<{ event_id: number }>`select event_id from click_rollup_marks where name = ${LATE_DIMENSION}`.execute(db);
  const from = Number(mark.rows[0]?.event_id ?? 0);
  const newest = await sql<{ id: number | null }>`select max(id) as id from click_events`.execute(db);
  const last = Math.min(Number(newest.rows[0]?.id ?? 0), from + limit);
  if (last <= from) return false;
  const { value, counts } = eventValue(LATE_DIMENSION);
  for (const period of ['quarter', 'day'] as const) {
    const start = sql<number>`time - time % ${sql.lit(PERIOD_MS[period])}`;
    await sql`
      insert into click_rollups (account_id, link_id, period, dimension, start, value, clicks)
      select account_id, 0, ${sql.lit(period)}, ${sql.lit(LATE_DIMENSION)}, ${start}, ${value}, sum(clicks)
      from click_events
      where id > ${from} and id <= ${last} and ${counts}
      group by account_id, ${start}, ${value}
      on conflict (account_id, link_id, period, dimension, start, value)
      do update set clicks = click_rollups.clicks + excluded.clicks`.execute(db);
  }
  await sql`insert into click_rollup_marks (name, event_id) values (${LATE_DIMENSION}, ${last})
    on conflict (name) do update set event_id = excluded.event_id`.execute(db);
  return last < Number(newest.rows[0]?.id ?? 0);
}
