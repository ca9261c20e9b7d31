// Click events on every dialect: the AnalyticsStore (once per batch number, the link's account,
// counts per slot) and the VisitRecorder in front of it (bounded, retried, drops counted).
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { VisitEnricher } from '../../src/analytics/enrich.js';
import { VisitRecorder } from '../../src/analytics/visit-recorder.js';
import { clientAddress } from '../../src/net/client-address.js';
import type { AnalyticsStore, ClickEvent, ClickEventBatch } from '../../src/storage/stores/analytics.js';
import { createStoreLink, dialects, openTestDatabase, type TestDatabase } from '../support/database.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ADDRESS = '198.51.100.77';

const event = (linkId: number, time: number, bot: string | null = null): ClickEvent => ({
  time,
  linkId,
  bot,
  browser: 'Chrome',
  browserVersion: '131',
  os: 'Windows',
  deviceType: 'desktop',
  deviceVendor: null,
  language: 'en',
  referrerHost: null,
  country: 'US',
  city: null,
  rule: null,
  clicks: 1,
});

/** A request as the redirect pipeline hands it to observers. */
const request = (headers: Record<string, string> = {}) =>
  ({
    headers: { 'user-agent': CHROME, 'x-forwarded-for': ADDRESS, ...headers },
    socket: { remoteAddress: '127.0.0.1' },
  }) as unknown as IncomingMessage;

for (const dialect of dialects) {
  describe(`click events (${dialect})`, () => {
    let t: TestDatabase;
    let linkId: number;
    let accountId: number;
    before(async () => {
      t = await openTestDatabase(dialect);
      const account = await t.database.accounts.create(`events-${dialect}`);
      accountId = account!.id;
      linkId = await createStoreLink(t.database, accountId, 'events');
    });
    after(async () => {
      await t.cleanup();
    });

    /** The link's events, one per visit (visits alike within a second are stored as one row with their count). */
    const rowsOf = async (id: number) => {
      const rows = await t.database.db.selectFrom('click_events').selectAll().where('link_id', '=', id).orderBy('id').execute();
      return rows.flatMap((row) => Array.from({ length: row.clicks }, () => row));
    };

    describe('AnalyticsStore', () => {
      it('stores events with their link’s account, once per writer and number', async () => {
        const batch: ClickEventBatch = { writer: 'store-test', seq: 1, events: [event(linkId, 1000), event(linkId, 2000, 'Googlebot')] };
        await t.database.analytics.add(batch);
        await t.database.analytics.add(batch);
        const rows = await rowsOf(linkId);
        assert.equal(rows.length, 2);
        assert.deepEqual(
          rows.map((r) => [Number(r.time), Number(r.link_id), r.account_id, r.bot, r.browser, r.country]),
          [
            [1000, linkId, accountId, null, 'Chrome', 'US'],
            [2000, linkId, accountId, 'Googlebot', 'Chrome', 'US'],
          ],
        );
        await t.database.analytics.add({ writer: 'store-test', seq: 2, events: [event(linkId, 3000)] });
        assert.equal((await rowsOf(linkId)).length, 3);
      });

      it('counts people’s clicks per slot in [from, to), for an account or one link', async () => {
        const base = 1_800_000_000_000; // a multiple of 15 minutes
        const slot = 900_000;
        await t.database.analytics.add({
          writer: 'slot-test',
          seq: 1,
          events: [event(linkId, base), event(linkId, base + slot - 1), event(linkId, base + slot), event(linkId, base + 2 * slot, 'Twitterbot')],
        });
        const query = { accountId, from: base, to: base + 3 * slot, detailFrom: 0 };
        const sorted = (slots: Array<{ start: number; clicks: number }>) => [...slots].sort((a, b) => a.start - b.start);
        assert.deepEqual(sorted(await t.database.analytics.humanClicksBySlot(query)), [
          { start: base, clicks: 2 },
          { start: base + slot, clicks: 1 },
        ]);
        // One link's figures come from its events, to the millisecond.
        assert.deepEqual(sorted(await t.database.analytics.humanClicksBySlot({ ...query, linkId, from: base + 1 })), [
          { start: base, clicks: 1 },
          { start: base + slot, clicks: 1 },
        ]);
        // A workspace's from its quarter-hour figures: ranges are whole quarter hours.
        assert.deepEqual(sorted(await t.database.analytics.humanClicksBySlot({ ...query, from: base + slot })), [{ start: base + slot, clicks: 1 }]);
        assert.deepEqual(await t.database.analytics.humanClicksBySlot({ ...query, linkId: linkId + 1000 }), []);
        assert.deepEqual(await t.database.analytics.humanClicksBySlot({ ...query, accountId: accountId + 1000 }), []);
      });
    });

    describe('VisitRecorder', () => {
      const logged: Array<{ details: object; message: string }> = [];
      const log = { info: () => {}, warn: (details: object, message: string) => void logged.push({ details, message }) };
      const enricher = new VisitEnricher('full', clientAddress({ kind: 'hops', hops: 1 }), () => 'US');

      /** The database's store, except that add fails as `failure` says: after committing, or instead of it. */
      const failing = (failure: (call: number) => 'after-commit' | 'before-commit' | undefined): AnalyticsStore => {
        let calls = 0;
        return {
          add: async (batch) => {
            const how = failure(++calls);
            if (how === 'before-commit') throw new Error('Connection terminated unexpectedly');
            await t.database.analytics.add(batch);
            if (how === 'after-commit') throw new Error('Connection terminated unexpectedly');
          },
          humanClicksBySlot: (query) => t.database.analytics.humanClicksBySlot(query),
          expire: (cutoff) => t.database.analytics.expire(cutoff),
          topCounts: (query, column, limit) => t.database.analytics.topCounts(query, column, limit),
          topBrowserVersions: (query, browsers) => t.database.analytics.topBrowserVersions(query, browsers),
        };
      };

      it('notes visits on the request path without enriching them, and writes them on flush', async () => {
        let enriched = 0;
        const counting = {
          trim: () => enricher.trim(),
          profile: (visit: Parameters<VisitEnricher['profile']>[0]) => {
            enriched++;
            return enricher.profile(visit);
          },
        } as unknown as VisitEnricher;
        const recorder = new VisitRecorder(t.database.analytics, counting, log, { max: 100, full: true, forwarded: true });
        const before = (await rowsOf(linkId)).length;
        for (let i = 0; i < 3; i++) recorder.observe({ id: linkId, url: 'https://example.com/events', blocked: false }, request());
        recorder.observe({ id: linkId, url: 'https://example.com/events', blocked: false }, request({ 'accept-language': 'fr' }));
        assert.equal(enriched, 0);
        await recorder.stop();
        // The three alike in a row were noted as one visit of three (unless a second began between them).
        assert.ok(enriched >= 2 && enriched <= 3, `read ${enriched} times`);
        const rows = (await rowsOf(linkId)).slice(before);
        assert.equal(rows.length, 4);
        assert.equal(rows[0]!.browser, 'Chrome');
        assert.equal(rows[0]!.country, 'US');
        assert.deepEqual(rows.map((row) => row.language).sort(), ['fr', null, null, null]);
      });

      it('folds the visits alike within a second across the whole flush, in any number of writes', async () => {
        const batches: number[] = [];
        const store: AnalyticsStore = {
          ...failing(() => undefined),
          add: async (batch) => {
            batches.push(batch.events.length);
            await t.database.analytics.add(batch);
          },
        };
        const recorder = new VisitRecorder(store, enricher, log, { max: 20_000, full: true, forwarded: true });
        const hot = { id: linkId, url: 'https://example.com/events', blocked: false };
        const rowCount = async () => (await t.database.db.selectFrom('click_events').select('id').where('link_id', '=', linkId).execute()).length;
        const beforeVisits = (await rowsOf(linkId)).length;
        const beforeRows = await rowCount();
        // One hot link among 9,000 others' single visits: more events than one write takes.
        const others = await Promise.all(Array.from({ length: 3 }, (_, i) => createStoreLink(t.database, accountId, `fold-${i}`)));
        for (let i = 0; i < 9000; i++) {
          recorder.observe(hot, request());
          recorder.observe({ id: others[i % 3]!, url: 'https://example.com/other', blocked: false }, request({ 'accept-language': `x-${i}` }));
        }
        await recorder.stop();
        assert.equal((await rowsOf(linkId)).length - beforeVisits, 9000, 'every visit counted');
        assert.ok((await rowCount()) - beforeRows <= 3, 'the hot link’s visits are one row per second');
        assert.ok(batches.length >= 2, `written in several writes: ${batches.join()}`);
        assert.equal(recorder.writtenVisits, 18_000);
      });

      it('holds at most `max` visits while the database fails, drops and counts the rest, then writes what it held', async () => {
        logged.length = 0;
        let down = true;
        const recorder = new VisitRecorder(
          failing(() => (down ? 'before-commit' : undefined)),
          enricher,
          log,
          { max: 3, full: true, forwarded: true },
        );
        const target = { id: linkId, url: 'https://example.com/events', blocked: false };
        const before = (await rowsOf(linkId)).length;
        for (let i = 0; i < 5; i++) recorder.observe(target, request());
        assert.equal(recorder.droppedVisits, 2);
        await recorder.flush(); // fails: the three are kept
        recorder.observe(target, request());
        assert.equal(recorder.droppedVisits, 3, 'still full while the write is failing');
        assert.equal((await rowsOf(linkId)).length, before);
        const drops = logged.filter((entry) => /dropped/.test(entry.message));
        assert.ok(drops.length > 0, 'the drops are logged');
        assert.equal((drops[0]!.details as { dropped: number }).dropped, 2);
        assert.ok(!JSON.stringify(logged).includes(ADDRESS), 'no address in the log');
        down = false;
        await recorder.flush();
        assert.equal((await rowsOf(linkId)).length, before + 3);
        recorder.observe(target, request());
        await recorder.stop();
        assert.equal((await rowsOf(linkId)).length, before + 4, 'room again once written');
        assert.equal(recorder.droppedVisits, 3);
      });

      it('writes a batch whose outcome was unclear once', async () => {
        const recorder = new VisitRecorder(
          failing((call) => (call === 1 ? 'after-commit' : undefined)),
          enricher,
          log,
          { max: 100, full: true, forwarded: true },
        );
        const target = { id: linkId, url: 'https://example.com/events', blocked: false };
        const before = (await rowsOf(linkId)).length;
        recorder.observe(target, request());
        recorder.observe(target, request());
        await recorder.flush(); // committed, but the recorder cannot know
        recorder.observe(target, request());
        await recorder.stop(); // the unclear batch again, then the new visit
        assert.equal((await rowsOf(linkId)).length, before + 3);
      });

      it('keeps the visits that took different rules apart, in a burst and in the fold, and stores what each took', async () => {
        const recorder = new VisitRecorder(t.database.analytics, enricher, log, { max: 100, full: true, forwarded: true });
        const ruled = await createStoreLink(t.database, accountId, 'events-ruled');
        const target = { id: ruled, url: 'https://example.com/events', blocked: false };
        // All within one second (events are to the second), so what keeps rows apart is the rule alone.
        if (Date.now() % 1000 > 900) await new Promise((resolve) => setTimeout(resolve, 150));
        // The same visitor (headers) in a row: one burst only while the rule taken is the same.
        for (const taken of ['rules.0', 'rules.0', 'rules.1.split.1', 'url', 'rules.0', undefined]) recorder.observe(target, request(), taken);
        await recorder.stop();
        const stored = await t.database.db.selectFrom('click_events').select(['rule', 'clicks']).where('link_id', '=', ruled).execute();
        assert.deepEqual(
          new Map(stored.map((row) => [row.rule, Number(row.clicks)])),
          new Map<string | null, number>([
            ['rules.0', 3],
            ['rules.1.split.1', 1],
            ['url', 1],
            [null, 1],
          ]),
          'one row per rule taken, with its visits',
        );
        assert.equal(stored.length, 4);
      });

      it('notes only the time and link of a visit that opted out (DNT or Sec-GPC), and not the rule it took', async () => {
        const recorder = new VisitRecorder(t.database.analytics, enricher, log, { max: 100, full: true, forwarded: true });
        const target = { id: linkId, url: 'https://example.com/events', blocked: false };
        const before = (await rowsOf(linkId)).length;
        recorder.observe(target, request({ dnt: '1', referer: 'https://example.org/', 'accept-language': 'de' }), 'rules.0');
        recorder.observe(target, request({ 'sec-gpc': '1' }), 'url');
        await recorder.stop();
        const rows = (await rowsOf(linkId)).slice(before);
        assert.equal(rows.length, 2);
        for (const row of rows) {
          assert.deepEqual(
            [
              row.bot,
              row.browser,
              row.browser_version,
              row.os,
              row.device_type,
              row.device_vendor,
              row.language,
              row.referrer_host,
              row.country,
              row.city,
              row.rule,
            ],
            Array(11).fill(null),
          );
        }
      });

      it('ANALYTICS=minimal: no rule taken is noted', async () => {
        const minimal = new VisitEnricher('minimal', clientAddress({ kind: 'hops', hops: 1 }), () => 'US');
        const recorder = new VisitRecorder(t.database.analytics, minimal, log, { max: 100, full: false, forwarded: true });
        const target = { id: linkId, url: 'https://example.com/events', blocked: false };
        const before = (await rowsOf(linkId)).length;
        recorder.observe(target, request(), 'rules.0');
        await recorder.stop();
        assert.deepEqual(
          (await rowsOf(linkId)).slice(before).map((row) => row.rule),
          [null],
        );
      });
    });
  });
}
