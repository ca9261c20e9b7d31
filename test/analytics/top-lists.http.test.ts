// Click analytics, top lists: GET /v3/shorten/analytics/top-{dimension} after real redirects
// (user agents, referers, languages, forwarded addresses, bots), every dimension's figures
// exactly, the link filter, the order, the limit, an empty range, and the errors.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { workspaceUuid } from '../../src/accounts/ids.js';
import type { ClickEvent } from '../../src/storage/stores/analytics.js';
import { BASE_HOST, buildTestApp, qs, type TestAccount, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { personVisit, TOP_LIST_DIMENSIONS } from '../support/events.js';
import { mmdbFile } from '../support/mmdb.js';
import { awayFromBoundary } from '../support/time.js';

const DAY = 86_400_000;
const AGENTS = {
  chrome131: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chrome130: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
};
/** A public address the bundled database places in the United States. */
const US_ADDRESS = '8.8.8.8';

const DIMENSIONS = TOP_LIST_DIMENSIONS;

let counter = 0;
let seq = 0;

for (const dialect of dialects) {
  describe(`GET /v3/shorten/analytics/top-{dimension} (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    const makeLink = async (account: TestAccount, prefix: string) => {
      const slug = `${prefix}-${++counter}`;
      const res = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: `https://example.com/top/${counter}`, slug })}`, headers: account.headers });
      assert.equal(res.statusCode, 200, res.body);
      const row = await ctx.t.database.db.selectFrom('links').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
      return { id: Number(row.id), slug, shortUrl: res.json().shortened as string };
    };
    const top = (account: TestAccount | null, dimension: string, query: Record<string, string> = {}) =>
      ctx.t.app.inject({ url: `/v3/shorten/analytics/top-${dimension}?${qs(query)}`, headers: account?.headers ?? {} });
    const dataOf = async (account: TestAccount, dimension: string, query: Record<string, string> = {}) => {
      const res = await top(account, dimension, query);
      assert.equal(res.statusCode, 200, `${dimension}: ${res.body}`);
      return res.json().data;
    };

    it('counts each dimension exactly from real visits: people only, bots only for top-bots, unknown values left out', async () => {
      const [owner, other] = [await ctx.t.account(), await ctx.t.account()];
      // B's slug sorts after A's: their tie (4 clicks each) is ordered by label.
      const a = await makeLink(owner, 'top-a');
      const b = await makeLink(owner, 'top-b');
      const theirs = await makeLink(other, 'top-c');
      const now = await awayFromBoundary();
      const visitor = await buildTestApp(ctx.t.database, { CLICK_FLUSH_MS: '600000', TRUST_PROXY: '1' });
      const full = { referer: 'https://News.Example.org/page?q=1', 'accept-language': 'en-GB,en;q=0.9', 'x-forwarded-for': US_ADDRESS };
      const visits: Array<[string, Record<string, string>, number]> = [
        [a.slug, { 'user-agent': AGENTS.chrome131, ...full }, 3],
        [a.slug, { 'user-agent': AGENTS.iphone, 'accept-language': 'fr-CA' }, 1],
        [b.slug, { 'user-agent': AGENTS.chrome131, referer: 'https://example.org/', 'accept-language': 'de', 'x-forwarded-for': US_ADDRESS }, 1],
        [b.slug, { 'user-agent': AGENTS.chrome130 }, 1],
        [b.slug, { 'user-agent': AGENTS.iphone }, 2],
        // Bots, with every other dimension known: counted by top-bots only.
        [a.slug, { 'user-agent': AGENTS.googlebot, ...full }, 2],
        [b.slug, { 'user-agent': AGENTS.slack, ...full }, 1],
        // Another workspace's link.
        [theirs.slug, { 'user-agent': AGENTS.chrome131, ...full }, 1],
      ];
      for (const [slug, headers, times] of visits) {
        for (let i = 0; i < times; i++) {
          const res = await visitor.app.inject({ url: `/${slug}`, headers: { host: BASE_HOST, ...headers } });
          assert.equal(res.statusCode, 301, res.body);
        }
      }
      await visitor.close(); // writes the events

      const today = now - (now % DAY);
      const res = await top(owner, 'browsers', { range: '7d', timezone: 'Etc/UTC' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        datetimeRange: [new Date(today - 6 * DAY).toISOString(), new Date(today + DAY).toISOString()],
        range: '7d',
        data: [
          { label: 'Chrome', click: 5, meta: { version: '131' } },
          { label: 'Mobile Safari', click: 3, meta: { version: '17' } },
        ],
      });
      // The defaults are 7d in Etc/UTC.
      assert.deepEqual((await top(owner, 'browsers')).json(), res.json());

      const expected: Record<(typeof DIMENSIONS)[number], unknown[]> = {
        browsers: res.json().data,
        'device-types': [
          { label: 'desktop', click: 5 },
          { label: 'mobile', click: 3 },
        ],
        'short-links': [
          { label: a.shortUrl, click: 4 },
          { label: b.shortUrl, click: 4 },
        ],
        bots: [
          { label: 'Googlebot', click: 2 },
          { label: 'Slackbot-LinkExpanding', click: 1 },
        ],
        'device-vendors': [{ label: 'Apple', click: 3 }],
        'operating-systems': [
          { label: 'Windows', click: 5 },
          { label: 'iOS', click: 3 },
        ],
        countries: [{ label: 'US', click: 4 }],
        referers: [
          { label: 'news.example.org', click: 3 },
          { label: 'example.org', click: 1 },
        ],
        languages: [
          { label: 'en-gb', click: 3 },
          { label: 'de', click: 1 },
          { label: 'fr-ca', click: 1 },
        ],
        cities: [],
      };
      for (const dimension of DIMENSIONS) {
        assert.deepEqual(await dataOf(owner, dimension, { range: '1d' }), expected[dimension], dimension);
      }
      assert.equal(a.shortUrl, `http://${BASE_HOST}/${a.slug}`);

      // One link only.
      const onlyA = { range: '1d', link: `${BASE_HOST}/${a.slug}` };
      assert.deepEqual(await dataOf(owner, 'browsers', onlyA), [
        { label: 'Chrome', click: 3, meta: { version: '131' } },
        { label: 'Mobile Safari', click: 1, meta: { version: '17' } },
      ]);
      assert.deepEqual(await dataOf(owner, 'short-links', onlyA), [{ label: a.shortUrl, click: 4 }]);
      assert.deepEqual(await dataOf(owner, 'bots', onlyA), [{ label: 'Googlebot', click: 2 }]);
      assert.deepEqual(await dataOf(owner, 'languages', onlyA), [
        { label: 'en-gb', click: 3 },
        { label: 'fr-ca', click: 1 },
      ]);

      // Brief's `limit`: the first entries of the same order.
      assert.deepEqual(await dataOf(owner, 'languages', { limit: '2' }), expected.languages.slice(0, 2));
      assert.deepEqual(await dataOf(owner, 'short-links', { limit: '1' }), expected['short-links'].slice(0, 1));

      // The other workspace sees its own click only.
      assert.deepEqual(await dataOf(other, 'browsers'), [{ label: 'Chrome', click: 1, meta: { version: '131' } }]);
      assert.deepEqual(await dataOf(other, 'bots'), []);
    });

    it('lists at most 10 entries, most clicked first then by label, and nothing outside the range', async () => {
      const owner = await ctx.t.account();
      const link = await makeLink(owner, 'top-many');
      const now = await awayFromBoundary();
      const event = (time: number, referrerHost: string): ClickEvent => ({ ...personVisit(link.id, time), referrerHost });
      // 12 referrers: r00..r11, r05 and r07 clicked 3 times, r11 twice, the others once; and one 61 days ago.
      const events = Array.from({ length: 12 }, (_, i) => event(now - 1000, `r${String(i).padStart(2, '0')}.example`));
      events.push(event(now - 1000, 'r07.example'), event(now - 1000, 'r07.example'), event(now - 1000, 'r05.example'));
      events.push(event(now - 1000, 'r05.example'), event(now - 1000, 'r11.example'), event(now - 61 * DAY, 'old.example'));
      await ctx.t.database.analytics.add({ writer: `top-test-${dialect}`, seq: ++seq, events });
      const data = await dataOf(owner, 'referers');
      assert.deepEqual(data, [
        { label: 'r05.example', click: 3 },
        { label: 'r07.example', click: 3 },
        { label: 'r11.example', click: 2 },
        ...['00', '01', '02', '03', '04', '06', '08'].map((n) => ({ label: `r${n}.example`, click: 1 })),
      ]);
      assert.equal((await dataOf(owner, 'referers', { range: '60d', limit: '100' })).length, 12, 'the old one is out of 60 days');
      // Ties by label in code point order, whatever the database's collation ('Z' < 'a'); no version: no meta.
      const browsers = ['alpha', 'Zeta', 'beta', 'beta'].map((browser) => ({ ...event(now - 1000, 'x.example'), browser }));
      await ctx.t.database.analytics.add({ writer: `top-test-${dialect}`, seq: ++seq, events: browsers });
      assert.deepEqual(await dataOf(owner, 'browsers'), [
        { label: 'beta', click: 2 },
        { label: 'Zeta', click: 1 },
        { label: 'alpha', click: 1 },
      ]);
      // An empty range: a workspace whose only click is 61 days old.
      const quiet = await ctx.t.account();
      const old = await makeLink(quiet, 'top-old');
      await ctx.t.database.analytics.add({
        writer: `top-test-${dialect}`,
        seq: ++seq,
        events: [{ ...event(now - 61 * DAY, 'old.example'), linkId: old.id }],
      });
      for (const dimension of DIMENSIONS) {
        const empty = await top(quiet, dimension, { range: '60d', timezone: 'Asia/Kolkata' });
        assert.equal(empty.statusCode, 200, empty.body);
        assert.deepEqual(empty.json().data, [], dimension);
        assert.equal(empty.json().range, '60d');
        assert.match(empty.json().datetimeRange[0], /T18:30:00\.000Z$/, 'midnight in Kolkata');
      }
      assert.equal((await dataOf(quiet, 'referers', { range: '1m' })).length, 0);
    });

    it('takes a custom range with from/to (Brief’s addition), to whole quarter hours, named custom', async () => {
      const owner = await ctx.t.account();
      const link = await makeLink(owner, 'top-custom');
      const at = Date.UTC(2026, 0, 10, 12, 0, 0);
      const event = (time: number, country: string): ClickEvent => ({ ...personVisit(link.id, time), country });
      // 11:59:59 and 12:20 are in [11:45, 12:30); 12:30 and 11:44:59 are not.
      const events = [event(at - 1000, 'FR'), event(at + 20 * 60_000, 'FR'), event(at + 30 * 60_000, 'DE'), event(at - 15 * 60_000 - 1000, 'DE')];
      await ctx.t.database.analytics.add({ writer: `custom-test-${dialect}`, seq: 1, events });
      const res = await top(owner, 'countries', { from: '2026-01-10T11:50:00Z', to: '2026-01-10T13:20:00+01:00' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        datetimeRange: ['2026-01-10T11:45:00.000Z', '2026-01-10T12:30:00.000Z'],
        range: 'custom',
        data: [{ label: 'FR', click: 2 }],
      });
      const clicks = await ctx.t.app.inject({
        url: `/v3/shorten/analytics/clicks?${qs({ from: '2026-01-10T00:00:00Z', to: '2026-01-11T00:00:00Z', granularity: 'day', link: `${BASE_HOST}/${link.slug}` })}`,
        headers: owner.headers,
      });
      assert.equal(clicks.statusCode, 200, clicks.body);
      assert.deepEqual(clicks.json().data, [{ date: '2026-01-10', click: 4 }]);
      const bad: Array<[Record<string, string>, string]> = [
        [{ from: 'yesterday' }, 'from'],
        [{ from: '2026-01-10' }, 'from'],
        [{ to: '2026-01-10T00:00:00Z' }, 'from'],
        [{ from: '2026-01-10T00:00:00Z', to: '2026-01-09T00:00:00Z' }, 'to'],
        [{ from: '2024-01-01T00:00:00Z', to: '2026-01-09T00:00:00Z' }, 'to'],
      ];
      for (const [query, field] of bad) {
        const answer = await top(owner, 'countries', query);
        assert.equal(answer.statusCode, 422, JSON.stringify(query));
        assert.equal(answer.json().code, 'E_VALIDATION_ERROR');
        assert.match(answer.json().message, new RegExp(`\\b${field}\\b`));
      }
      const hourly = await ctx.t.app.inject({
        url: `/v3/shorten/analytics/clicks?${qs({ from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z', granularity: 'hour' })}`,
        headers: owner.headers,
      });
      assert.equal(hourly.statusCode, 422, hourly.body);
    });

    it('lists cities when GEOIP_CITY_DB names an MMDB file, in either common record shape', async () => {
      const owner = await ctx.t.account();
      const link = await makeLink(owner, 'top-cities');
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'brief-city-')), 'city.mmdb');
      fs.writeFileSync(file, mmdbFile({ '81.2.69.0/24': { city: { names: { en: 'London' } } }, '2.125.160.0/20': { city: 'Lyon' } }));
      await awayFromBoundary();
      const visitor = await buildTestApp(ctx.t.database, { CLICK_FLUSH_MS: '600000', TRUST_PROXY: '1', GEOIP_CITY_DB: file });
      for (const address of ['81.2.69.142', '81.2.69.7', '2.125.160.216', US_ADDRESS]) {
        const res = await visitor.app.inject({
          url: `/${link.slug}`,
          headers: { host: BASE_HOST, 'user-agent': AGENTS.chrome131, 'x-forwarded-for': address },
        });
        assert.equal(res.statusCode, 301);
      }
      await visitor.close(); // writes the events
      assert.deepEqual(await dataOf(owner, 'cities', { link: `${BASE_HOST}/${link.slug}` }), [
        { label: 'London', click: 2 },
        { label: 'Lyon', click: 1 },
      ]);
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    });

    it('ranks short links among many: the last tie of the top by label, read past the first few ids', async () => {
      const owner = await ctx.t.account();
      const now = await awayFromBoundary();
      // 40 links of one click each, made in reverse label order: the smallest label is the last link made
      // (the highest id), so a top list read from the first ids alone would miss it.
      const links = [];
      for (let i = 39; i >= 0; i--) links.push(await makeLink(owner, `tie-${String(i).padStart(2, '0')}`));
      const busy = links[5]!;
      const events = links.map((link) => personVisit(link.id, now - 1000));
      events.push(personVisit(busy.id, now - 1000), personVisit(busy.id, now - 1000));
      await ctx.t.database.analytics.add({ writer: `top-test-${dialect}`, seq: ++seq, events });
      const smallest = links.at(-1)!;
      assert.deepEqual(await dataOf(owner, 'short-links', { limit: '2' }), [
        { label: busy.shortUrl, click: 3 },
        { label: smallest.shortUrl, click: 1 },
      ]);
      assert.deepEqual(await dataOf(owner, 'short-links', { limit: '100' }), [
        { label: busy.shortUrl, click: 3 },
        ...links
          .filter((link) => link !== busy)
          .reverse()
          .map((link) => ({ label: link.shortUrl, click: 1 })),
      ]);
    });

    it('answers JSON errors: 401, 404 for another workspace or link or an unknown dimension, 422 for a bad value', async () => {
      const owner = await ctx.t.account();
      const other = await ctx.t.account();
      const theirs = await makeLink(other, 'top-theirs');
      const expect = async (res: Awaited<ReturnType<typeof top>>, status: number, code: string, message?: string) => {
        assert.equal(res.statusCode, status, res.body);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        assert.equal(res.json().code, code);
        if (message) assert.equal(res.json().message, message);
      };
      for (const dimension of DIMENSIONS) {
        await expect(await top(null, dimension), 401, 'E_UNAUTHORIZED_ACCESS', 'This call needs a bearer token');
        await expect(await top(owner, dimension, { workspaceId: workspaceUuid(other.id) }), 404, 'E_NOT_FOUND', 'Workspace not found');
        await expect(await top(owner, dimension, { range: '2d' }), 422, 'E_VALIDATION_ERROR', 'The selected range is invalid');
        await expect(
          await top(owner, dimension, { timezone: 'Mars/Olympus_Mons' }),
          422,
          'E_VALIDATION_ERROR',
          'The timezone field must be an IANA time zone name, such as Europe/Paris',
        );
      }
      assert.equal((await top(owner, 'countries', { workspaceId: workspaceUuid(owner.id) })).statusCode, 200);
      await expect(await top(owner, 'browsers', { link: `${BASE_HOST}/${theirs.slug}` }), 404, 'E_NOT_FOUND', 'Link not found');
      await expect(await top(owner, 'cities', { link: `${BASE_HOST}/${theirs.slug}` }), 404, 'E_NOT_FOUND', 'Link not found');
      await expect(await top(owner, 'browsers', { link: 'no-slash' }), 422, 'E_VALIDATION_ERROR', 'The link field must be domain/slug');
      for (const limit of ['0', '101', 'x']) {
        await expect(await top(owner, 'referers', { limit }), 422, 'E_VALIDATION_ERROR');
      }
      await expect(await top(owner, 'referers', { limit: '101' }), 422, 'E_VALIDATION_ERROR', 'The limit field must be between 1 and 100');
      await expect(await top(owner, 'planets'), 404, 'E_ROUTE_NOT_FOUND');
    });
  });
}
