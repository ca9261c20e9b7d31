// Click rollups on every dialect: a workspace's figures over any range (quarter hours at its
// edges, whole days inside) equal the events' own count, and retention turns old events into
// their links' day figures without losing a click from any total.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rollUpEvents } from '../../src/storage/sql/rollups.js';
import type { ClickCountQuery, ClickEvent } from '../../src/storage/stores/analytics.js';
import { createStoreLink, dialects, openTestDatabase, type TestDatabase } from '../support/database.js';

const QUARTER = 900_000;
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 5, 1); // a UTC midnight

const event = (linkId: number, time: number, country: string, bot: string | null = null, rule: string | null = null): ClickEvent => ({
  time,
  linkId,
  bot,
  browser: 'Firefox',
  browserVersion: String(120 + (time % 3)),
  os: null,
  deviceType: 'desktop',
  deviceVendor: null,
  language: null,
  referrerHost: null,
  country,
  city: null,
  rule,
  clicks: 1 + (time % 2),
});

/** What the events say of a range, counted here in plain code: people's clicks per country (or per rule taken). */
function expected(events: ClickEvent[], from: number, to: number, linkId?: number, field: 'country' | 'rule' = 'country'): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) {
    if (e.time < from || e.time >= to || e.bot !== null || (linkId !== undefined && e.linkId !== linkId) || e[field] === null) continue;
    counts.set(e[field], (counts.get(e[field]) ?? 0) + e.clicks);
  }
  return counts;
}

const asMap = (rows: Array<{ value: string; clicks: number }>) => new Map(rows.map((r) => [r.value, r.clicks]));
const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

for (const dialect of dialects) {
  describe(`click rollups (${dialect})`, () => {
    let t: TestDatabase;
    let accountId: number;
    const linkIds: number[] = [];
    const events: ClickEvent[] = [];

    before(async () => {
      t = await openTestDatabase(dialect);
      accountId = (await t.database.accounts.create(`rollups-${dialect}`))!.id;
      for (const n of [1, 2]) linkIds.push(await createStoreLink(t.database, accountId, `rollups/${n}`));
      // Five days of events at irregular times (every 37 minutes and a few seconds), two links, three countries, some bots;
      // the first link's visits took one of its rules (three labels), the second link has none.
      for (let time = BASE + 7_000, i = 0; time < BASE + 5 * DAY; time += 37 * 60_000 + 13_000, i++) {
        const rule = i % 2 === 0 ? ['rules.0', 'url', 'rules.0.split.1'][i % 3]! : null;
        events.push(event(linkIds[i % 2]!, time, ['FR', 'DE', 'JP'][i % 3]!, i % 7 === 0 ? 'Googlebot' : null, rule));
      }
      for (let i = 0; i < events.length; i += 100)
        await t.database.analytics.add({ writer: `rollups-${dialect}`, seq: i + 1, events: events.slice(i, i + 100) });
    });
    after(async () => {
      await t.cleanup();
    });

    const query = (from: number, to: number, linkId?: number): ClickCountQuery => ({ accountId, linkId, from, to, detailFrom: 0 });

    it('counts a workspace over any quarter-hour range exactly: day figures inside, quarter-hour figures at the edges', async () => {
      const ranges: Array<[number, number]> = [
        [BASE, BASE + 5 * DAY], // whole days only
        [BASE + 10 * QUARTER, BASE + 3 * DAY + 7 * QUARTER], // edges on both sides
        [BASE + DAY + QUARTER, BASE + DAY + 40 * QUARTER], // within one day
        [BASE - DAY, BASE + 30 * QUARTER], // from before the first event
      ];
      for (const [from, to] of ranges) {
        const want = expected(events, from, to);
        assert.ok(total(want) > 0);
        assert.deepEqual(asMap(await t.database.analytics.topCounts(query(from, to), 'country')), want, `${from}..${to}`);
        const slots = await t.database.analytics.humanClicksBySlot(query(from, to));
        assert.equal(
          slots.reduce((sum, slot) => sum + slot.clicks, 0),
          total(want),
        );
        assert.ok(slots.every((slot) => slot.start % QUARTER === 0 && slot.start >= from && slot.start < to));
      }
      const bots = await t.database.analytics.topCounts(query(BASE, BASE + 5 * DAY), 'bot');
      assert.deepEqual(bots, [{ value: 'Googlebot', clicks: events.filter((e) => e.bot).reduce((sum, e) => sum + e.clicks, 0) }]);
      // The most clicked version of each browser, from the same figures.
      const versions = await t.database.analytics.topBrowserVersions(query(BASE, BASE + 5 * DAY), ['Firefox']);
      assert.match(versions.get('Firefox') ?? '', /^12[012]$/);
    });

    it('counts the workspace per link once, however often it is read (SQLite rolls those rows up after the write)', async () => {
      for (let round = 0; round < 2; round++) {
        const top = await t.database.analytics.topCounts(query(BASE, BASE + 5 * DAY), 'link_id');
        assert.deepEqual(asMap(top), new Map(linkIds.map((id) => [String(id), total(expected(events, BASE, BASE + 5 * DAY, id))])));
      }
    });

    it('writes the same workspace rollups as the SQL that rolls up stored events, for every dimension', async () => {
      await t.database.analytics.topCounts(query(BASE, BASE + DAY), 'link_id'); // SQLite: the link_id rows are made by now
      const workspaceRows = async () => {
        const rows = await t.database.db
          .selectFrom('click_rollups')
          .select(['period', 'dimension', 'start', 'value', 'clicks'])
          .where('account_id', '=', accountId)
          .where('link_id', '=', 0)
          .execute();
        return rows.map((r) => `${r.period} ${r.dimension} ${Number(r.start)} ${r.value} ${Number(r.clicks)}`).sort();
      };
      const written = await workspaceRows();
      assert.ok(written.some((row) => row.startsWith('day link_id ')) && written.some((row) => row.startsWith('quarter browser_version ')));
      assert.ok(!written.some((row) => / rule /.test(row)), 'the rule taken is one link’s: never in the workspace’s rows');
      await t.database.db.deleteFrom('click_rollups').where('account_id', '=', accountId).execute();
      await rollUpEvents(t.database.db, { accountId, perLink: false });
      assert.deepEqual(await workspaceRows(), written);
    });

    it('keeps totals when events expire: the links’ day figures replace them, and quarter hours before the cut-off go', async () => {
      const cutoff = BASE + 2 * DAY;
      const before = {
        workspace: asMap(await t.database.analytics.topCounts(query(BASE, BASE + 5 * DAY), 'country')),
        link: asMap(await t.database.analytics.topCounts(query(BASE, BASE + 5 * DAY, linkIds[0]), 'country')),
        rules: asMap(await t.database.analytics.topCounts(query(BASE, BASE + 5 * DAY, linkIds[0]), 'rule')),
      };
      assert.deepEqual(before.rules, expected(events, BASE, BASE + 5 * DAY, linkIds[0], 'rule'));
      assert.equal(before.rules.size, 3);
      // Twice at once (two instances) and once more: nothing counted twice.
      await Promise.all([t.database.analytics.expire(cutoff), t.database.analytics.expire(cutoff)]);
      await t.database.analytics.expire(cutoff);
      const raw = await t.database.db.selectFrom('click_events').select('time').where('account_id', '=', accountId).execute();
      assert.ok(raw.length > 0 && raw.every((row) => Number(row.time) >= cutoff), 'events before the cut-off are deleted');
      const quarters = await t.database.db
        .selectFrom('click_rollups')
        .select('start')
        .where('account_id', '=', accountId)
        .where('period', '=', 'quarter')
        .execute();
      assert.ok(
        quarters.every((row) => Number(row.start) >= cutoff),
        'quarter hours before the cut-off are deleted',
      );
      const detailed = { detailFrom: cutoff };
      // Whole days: the same totals as before, for the workspace and for one link.
      assert.deepEqual(asMap(await t.database.analytics.topCounts({ ...query(BASE, BASE + 5 * DAY), ...detailed }, 'country')), before.workspace);
      assert.deepEqual(
        asMap(await t.database.analytics.topCounts({ ...query(BASE, BASE + 5 * DAY, linkIds[0]), ...detailed }, 'country')),
        before.link,
      );
      // What the link's visits took of its rules outlives its events too: in its day rows, never the workspace's.
      assert.deepEqual(
        asMap(await t.database.analytics.topCounts({ ...query(BASE, BASE + 5 * DAY, linkIds[0]), ...detailed }, 'rule')),
        before.rules,
      );
      const ruleRows = await t.database.db
        .selectFrom('click_rollups')
        .select(['link_id', 'period'])
        .where('account_id', '=', accountId)
        .where('dimension', '=', 'rule')
        .execute();
      assert.ok(ruleRows.length > 0 && ruleRows.every((row) => Number(row.link_id) === linkIds[0] && row.period === 'day'));
      // The old part by days, the rest to the quarter hour.
      const from = BASE + DAY;
      const to = BASE + 3 * DAY + 5 * QUARTER;
      assert.deepEqual(asMap(await t.database.analytics.topCounts({ ...query(from, to), ...detailed }, 'country')), expected(events, from, to));
      assert.deepEqual(
        asMap(await t.database.analytics.topCounts({ ...query(from, to, linkIds[1]), ...detailed }, 'country')),
        expected(events, from, to, linkIds[1]),
      );
      assert.deepEqual(
        asMap(await t.database.analytics.topCounts({ ...query(from, to, linkIds[0]), ...detailed }, 'rule')),
        expected(events, from, to, linkIds[0], 'rule'),
      );
      const series = await t.database.analytics.humanClicksBySlot({ ...query(from, to, linkIds[1]), ...detailed });
      assert.equal(
        series.reduce((sum, slot) => sum + slot.clicks, 0),
        total(expected(events, from, to, linkIds[1])),
      );
    });
  });
}
