import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// On SQLite the workspace's per-link rollup rows (dimension link_id, the top-short-links figures)
// are no longer written with each event but rolled up from the stored events afterwards
// (rollUpLinkEvents, decision 0013). This row says how far: every event with an id up to
// `event_id` is counted in them. Until now every event was counted as it was written, so the mark
// starts at the newest event. PostgreSQL keeps writing the rows with the events and never reads it.
export function linkRollupMark(dialect: Dialect) {
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('click_rollup_marks')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('event_id', big, (c) => c.notNull())
        .execute();
      await sql`insert into click_rollup_marks (name, event_id) select 'link_id', coalesce(max(id), 0) from click_events`.execute(db);
    },
  };
}
