import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// Click analytics: one row per counted visit (analytics/visit-recorder.ts), with what was
// learnt of the visitor and never an address. account_id is copied from the link when the
// event is written, so a workspace's figures need no join; bot is null for people.
export function clickEvents(dialect: Dialect) {
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  const id = dialect === 'sqlite' ? sql`integer primary key autoincrement` : sql`bigserial primary key`;
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('click_events')
        .addColumn('id', id)
        .addColumn('time', big, (c) => c.notNull())
        .addColumn('link_id', big, (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('bot', 'text')
        .addColumn('browser', 'text')
        .addColumn('browser_version', 'text')
        .addColumn('os', 'text')
        .addColumn('device_type', 'text')
        .addColumn('device_vendor', 'text')
        .addColumn('language', 'text')
        .addColumn('referrer_host', 'text')
        .addColumn('country', 'text')
        .addColumn('city', 'text')
        .execute();
      await db.schema.createIndex('click_events_account_time').on('click_events').columns(['account_id', 'time']).execute();
      await db.schema.createIndex('click_events_link_time').on('click_events').columns(['link_id', 'time']).execute();
    },
  };
}
