// Click analytics, recording: real redirects through the app, then the stored click_events rows,
// exactly; what is never recorded (HEAD, opted-out dimensions, addresses).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { BASE_HOST, buildTestApp, qs, TEST_ENV } from '../support/app.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';

export const AGENTS = {
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  twitter: 'Twitterbot/1.0',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
};

/** A public address the bundled database places in the United States (checked in test/analytics/enrich.test.ts). */
const US_ADDRESS = '8.8.8.8';

let counter = 0;

const COLUMNS = [
  'link_id',
  'account_id',
  'bot',
  'browser',
  'browser_version',
  'os',
  'device_type',
  'device_vendor',
  'language',
  'referrer_host',
  'country',
  'city',
] as const;

for (const dialect of dialects) {
  describe(`click analytics: recording (${dialect})`, () => {
    let db: TestDatabase;
    before(async () => {
      db = await openTestDatabase(dialect);
    });
    after(async () => {
      await db?.cleanup();
    });

    /**
     * An app with the environment, a link of a fresh account, the visits made with it, then the app
     * closed (which writes every event) and the link's events, oldest first.
     */
    async function visitsOf(env: Record<string, string>, visits: Array<{ headers?: Record<string, string>; method?: 'GET' | 'HEAD' }>) {
      const t = await buildTestApp(db.database, { CLICK_FLUSH_MS: '600000', ...env });
      const account = await t.account('stats');
      const made = await t.app.inject({ url: `/v2/shorten?${qs({ url: `https://example.com/stats/${++counter}` })}`, headers: account.headers });
      assert.equal(made.statusCode, 200, made.body);
      const link = made.json();
      for (const visit of visits) {
        const res = await t.app.inject({ method: visit.method ?? 'GET', url: `/${link.code}`, headers: { host: BASE_HOST, ...visit.headers } });
        assert.equal(res.statusCode, 301);
      }
      await t.close();
      const row = await db.database.db.selectFrom('links').select('id').where('code', '=', link.code).executeTakeFirstOrThrow();
      const rows = await db.database.db
        .selectFrom('click_events')
        .select(['time', 'clicks', ...COLUMNS])
        .where('link_id', '=', Number(row.id))
        .orderBy('id')
        .execute();
      // One row per visit: visits alike within a second are stored as one row with their count.
      const visitRows = rows.flatMap(({ clicks, ...r }) =>
        Array.from({ length: clicks }, () => ({ ...r, link_id: Number(r.link_id), time: Number(r.time) })),
      );
      return { linkId: Number(row.id), accountId: account.id, rows: visitRows };
    }

    const nothing = { bot: null, browser: null, browser_version: null, os: null, device_type: null, device_vendor: null };
    const noVisitor = { language: null, referrer_host: null, country: null, city: null };

    it('records each GET with the browser, system, device, language, referrer host and country, and names bots', async () => {
      const started = Date.now();
      const { linkId, accountId, rows } = await visitsOf({ TRUST_PROXY: '127.0.0.1' }, [
        {
          headers: {
            'user-agent': AGENTS.chrome,
            referer: 'https://News.Example.org:8443/some/page?q=1',
            'accept-language': 'en-GB,en;q=0.9',
            'x-forwarded-for': US_ADDRESS,
          },
        },
        { headers: { 'user-agent': AGENTS.iphone, 'accept-language': 'FR-ca', 'x-forwarded-for': `${US_ADDRESS}, 10.0.0.7` } },
        { headers: { 'user-agent': AGENTS.googlebot } },
        { headers: { 'user-agent': AGENTS.slack } },
        { headers: { 'user-agent': AGENTS.twitter } },
        { headers: { 'user-agent': AGENTS.facebook } },
      ]);
      const own = { link_id: linkId, account_id: accountId, city: null };
      const { time: _time, ...first } = rows[0]!;
      assert.equal(rows.length, 6);
      assert.deepEqual(first, {
        ...own,
        bot: null,
        browser: 'Chrome',
        browser_version: '131',
        os: 'Windows',
        device_type: 'desktop',
        device_vendor: null,
        language: 'en-gb',
        referrer_host: 'news.example.org',
        country: 'US',
      });
      // The forwarded chain's last hop, 10.0.0.7, is not a trusted proxy: it is the client, and a private address has no country.
      assert.deepEqual(withoutTime(rows[1]), {
        ...own,
        bot: null,
        browser: 'Mobile Safari',
        browser_version: '17',
        os: 'iOS',
        device_type: 'mobile',
        device_vendor: 'Apple',
        language: 'fr-ca',
        referrer_host: null,
        country: null,
      });
      assert.deepEqual(
        rows.slice(2).map((r) => r.bot),
        ['Googlebot', 'Slackbot-LinkExpanding', 'Twitterbot', 'facebookexternalhit'],
      );
      // To the second: visits alike within a second are one row.
      for (const row of rows)
        assert.ok(row.time >= started - (started % 1000) && row.time <= Date.now() && row.time % 1000 === 0, 'the time of the visit');
    });

    it('records nothing for HEAD, and counts an opted-out visit (DNT or Sec-GPC) with no dimension at all', async () => {
      const full = { 'user-agent': AGENTS.chrome, referer: 'https://example.org/', 'accept-language': 'de', 'x-forwarded-for': US_ADDRESS };
      const { linkId, accountId, rows } = await visitsOf({ TRUST_PROXY: '1' }, [
        { method: 'HEAD', headers: full },
        { headers: { ...full, dnt: '1' } },
        { headers: { ...full, 'sec-gpc': '1' } },
        { headers: { ...full, dnt: '0' } },
      ]);
      assert.equal(rows.length, 3);
      const bare = { link_id: linkId, account_id: accountId, ...nothing, ...noVisitor };
      assert.deepEqual(withoutTime(rows[0]), bare);
      assert.deepEqual(withoutTime(rows[1]), bare);
      assert.equal(rows[2]!.browser, 'Chrome');
      assert.equal(rows[2]!.country, 'US');
    });

    it('believes X-Forwarded-For only as TRUST_PROXY says', async () => {
      const forwarded = { headers: { 'user-agent': AGENTS.chrome, 'x-forwarded-for': US_ADDRESS } };
      assert.equal((await visitsOf({}, [forwarded])).rows[0]!.country, null, 'off by default: the connection (127.0.0.1) is the client');
      assert.equal((await visitsOf({ TRUST_PROXY: '10.0.0.0/8' }, [forwarded])).rows[0]!.country, null, 'the connection is not a trusted proxy');
      assert.equal((await visitsOf({ TRUST_PROXY: 'loopback' }, [forwarded])).rows[0]!.country, 'US');
      assert.equal((await visitsOf({ TRUST_PROXY: '1' }, [forwarded])).rows[0]!.country, 'US');
    });

    it('records every dimension with no ANALYTICS setting (full is the default)', async () => {
      // An empty value is an unset one (config.ts), which overrides the test environment's `full`.
      const visits = await visitsOf({ ANALYTICS: '' }, [{ headers: { 'user-agent': AGENTS.chrome, 'accept-language': 'fr-FR' } }]);
      assert.equal(visits.rows.length, 1);
      assert.equal(visits.rows[0]!.browser, 'Chrome');
      assert.equal(visits.rows[0]!.language, 'fr-fr');
    });

    it('ANALYTICS=minimal keeps the time, the link and the bot name only; ANALYTICS=off records nothing', async () => {
      const visits: Array<{ headers: Record<string, string> }> = [
        { headers: { 'user-agent': AGENTS.chrome, 'x-forwarded-for': US_ADDRESS } },
        { headers: { 'user-agent': AGENTS.googlebot } },
      ];
      const minimal = await visitsOf({ ANALYTICS: 'minimal', TRUST_PROXY: '1' }, visits);
      const bare = { link_id: minimal.linkId, account_id: minimal.accountId, ...nothing, ...noVisitor };
      assert.deepEqual(minimal.rows.map(withoutTime), [bare, { ...bare, bot: 'Googlebot' }]);
      assert.deepEqual((await visitsOf({ ANALYTICS: 'off' }, visits)).rows, []);
    });

    it('records the right password of a protected link as a visit, not its form or a wrong password', async () => {
      const t = await buildTestApp(db.database, { CLICK_FLUSH_MS: '600000' });
      const account = await t.account('locked');
      const made = await t.app.inject({
        method: 'POST',
        url: '/v3/shorten/bulk',
        payload: [{ url: 'https://example.com/locked', password: 'open sesame' }],
        headers: account.headers,
      });
      const [link] = made.json();
      const post = (password: string) =>
        t.app.inject({
          method: 'POST',
          url: `/${link.slug}`,
          headers: { host: BASE_HOST, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': AGENTS.iphone },
          payload: new URLSearchParams({ password }).toString(),
        });
      assert.equal((await t.app.inject({ url: `/${link.slug}`, headers: { host: BASE_HOST } })).statusCode, 200, 'the form');
      assert.equal((await post('wrong one')).statusCode, 403);
      assert.equal((await post('open sesame')).statusCode, 303);
      await t.close();
      const rows = await db.database.db
        .selectFrom('click_events')
        .innerJoin('links', 'links.id', 'click_events.link_id')
        .select(['click_events.browser', 'click_events.account_id'])
        .where('links.key', '=', link.slug)
        .execute();
      assert.deepEqual(rows, [{ browser: 'Mobile Safari', account_id: account.id }]);
    });

    it('logs no address at info level', async () => {
      const lines: string[] = [];
      const app = buildApp(loadConfig({ ...TEST_ENV, LOG_LEVEL: 'info', TRUST_PROXY: '1' }), {
        database: db.database,
        logDestination: { write: (line: string) => void lines.push(line) },
      });
      await app.ready();
      const remoteAddress = '198.51.100.9';
      const forwarded = '203.0.113.9';
      const made = await app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/logged' })}`, remoteAddress });
      assert.equal(made.statusCode, 200, made.body);
      const res = await app.inject({
        url: `/${made.json().code}`,
        remoteAddress,
        headers: { host: BASE_HOST, 'x-forwarded-for': forwarded, 'user-agent': AGENTS.chrome },
      });
      assert.equal(res.statusCode, 301);
      await app.close();
      assert.ok(
        lines.some((line) => line.includes('incoming request')),
        'requests are logged',
      );
      assert.ok(
        lines.some((line) => line.includes(`"url":"/${made.json().code}"`)),
        'the redirect is logged',
      );
      for (const line of lines) {
        assert.ok(!line.includes(remoteAddress) && !line.includes(forwarded), `an address in the log: ${line}`);
      }
    });

    if (dialect === 'sqlite') {
      it('never writes the visitor’s address: not in the database file, not in its journal', async () => {
        const address = '203.0.113.77';
        const { rows } = await visitsOf({ TRUST_PROXY: '1' }, [
          { headers: { 'user-agent': AGENTS.chrome, 'x-forwarded-for': address, referer: `http://${address}/from` } },
        ]);
        assert.equal(rows.length, 1);
        assert.equal(rows[0]!.referrer_host, null, 'a referrer that is an address is not recorded either');
        const file = db.url.slice('sqlite:'.length);
        for (const name of fs.readdirSync(path.dirname(file))) {
          const bytes = fs.readFileSync(path.join(path.dirname(file), name));
          assert.equal(bytes.indexOf(address), -1, `${name} holds the address`);
          assert.equal(bytes.indexOf(Buffer.from(address, 'utf16le')), -1, `${name} holds the address`);
        }
      });
    }
  });
}

function withoutTime(row: Record<string, unknown> | undefined) {
  const { time: _time, ...rest } = row ?? {};
  return rest;
}
