// Migration 0005 on every dialect: the click events written before it are rolled up as if written
// after it (the workspace's rows of every dimension, per quarter hour and per UTC day). The migration
// keeps its own frozen copy of the SQL, so the rows are spelt out here, not derived from storage/sql/rollups.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, migrateUpTo } from '../../src/storage/migrate.js';
import { dialects, openTestDatabase } from '../support/database.js';

const BEFORE = '0004-click-events';
const QUARTER = 900_000;
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 2, 1); // a UTC midnight
const ACCOUNT = 7;

/** Events as migration 0004 stored them (no `clicks` column yet: each is one visit). */
const EVENTS = [
  { time: BASE + 7_000, link_id: 11, bot: null, browser: 'Firefox', browser_version: '120', os: 'Linux', device_type: 'desktop', country: 'FR' },
  { time: BASE + 60_000, link_id: 11, bot: null, browser: 'Firefox', browser_version: '121', os: null, device_type: null, country: 'FR' },
  { time: BASE + QUARTER + 5, link_id: 12, bot: 'Googlebot', browser: 'Chrome', browser_version: '130', os: null, device_type: null, country: 'US' },
  // An event of another workspace, and one of a person the next day with every field known.
  { time: BASE + 9_000, link_id: 13, bot: null, browser: null, browser_version: null, os: null, device_type: null, country: null, account_id: 8 },
  {
    time: BASE + DAY + 1_000,
    link_id: 12,
    bot: null,
    browser: 'Chrome',
    browser_version: '130',
    os: 'macOS',
    device_type: 'desktop',
    device_vendor: 'Apple',
    language: 'en-gb',
    referrer_host: 'example.org',
    country: 'DE',
    city: 'Berlin',
  },
];

/** The rows of one slot: `dimension value clicks` each. */
const firstQuarter = [
  'clicks  2',
  'browser_version Firefox 120 1',
  'browser_version Firefox 121 1',
  'browser Firefox 2',
  'os Linux 1',
  'device_type desktop 1',
  'country FR 2',
  'link_id 11 2',
];
const secondQuarter = ['bot Googlebot 1'];
const nextDay = [
  'clicks  1',
  'browser_version Chrome 130 1',
  'browser Chrome 1',
  'os macOS 1',
  'device_type desktop 1',
  'device_vendor Apple 1',
  'language en-gb 1',
  'referrer_host example.org 1',
  'country DE 1',
  'city Berlin 1',
  'link_id 12 1',
];
const slot = (period: string, start: number, rows: string[]) => rows.map((row) => `${period} ${start} ${row}`);
const EXPECTED = [
  ...slot('quarter', BASE, firstQuarter),
  ...slot('quarter', BASE + QUARTER, secondQuarter),
  ...slot('quarter', BASE + DAY, nextDay),
  ...slot('day', BASE, [...firstQuarter, ...secondQuarter]),
  ...slot('day', BASE + DAY, nextDay),
].sort();

for (const dialect of dialects) {
  describe(`migration 0005: click rollups (${dialect})`, () => {
    it('rolls up the events written before it into the workspace rows of every dimension', async () => {
      const { database, cleanup } = await openTestDatabase(dialect, { migrate: false });
      try {
        await migrateUpTo(database, BEFORE);
        for (const { account_id = ACCOUNT, ...event } of EVENTS) {
          await sql`insert into click_events (time, link_id, account_id, bot, browser, browser_version, os, device_type, device_vendor, language, referrer_host, country, city)
            values (${event.time}, ${event.link_id}, ${account_id}, ${event.bot}, ${event.browser}, ${event.browser_version}, ${event.os}, ${event.device_type},
              ${event.device_vendor ?? null}, ${event.language ?? null}, ${event.referrer_host ?? null}, ${event.country}, ${event.city ?? null})`.execute(
            database.db,
          );
        }
        const applied = await migrateToLatest(database);
        assert.ok(applied.includes('0005-click-rollups'), applied.join(', '));
        const rows = await database.db
          .selectFrom('click_rollups')
          .select(['link_id', 'period', 'dimension', 'start', 'value', 'clicks'])
          .where('account_id', '=', ACCOUNT)
          .execute();
        assert.ok(
          rows.every((r) => Number(r.link_id) === 0),
          'only workspace rows',
        );
        assert.deepEqual(rows.map((r) => `${r.period} ${Number(r.start)} ${r.dimension} ${r.value} ${Number(r.clicks)}`).sort(), EXPECTED);
        const other = await database.db.selectFrom('click_rollups').select(['dimension', 'clicks']).where('account_id', '=', 8).execute();
        assert.deepEqual(other.map((r) => `${r.dimension} ${Number(r.clicks)}`).sort(), ['clicks 1', 'clicks 1', 'link_id 1', 'link_id 1']);
      } finally {
        await cleanup();
      }
    });
  });
}
