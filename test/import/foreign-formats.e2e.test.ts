// `brief import --format yourls|shlink|kutt|bitly|csv` as a real process (decision 0025):
// a sample file of each shape, made here as the shortener writes it, imported with every field's
// mapping checked (SQLite, and PostgreSQL when TEST_DATABASE_URL is set); rows that cannot go in are
// reported with their line or item and the rest go in.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/storage/database.js';
import { runCli } from '../scale-support/server-process.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';

let test: TestDatabase;
let env: Record<string, string>;
let dir: string;

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function brief(...args: string[]) {
  const result = await runCli(args, env);
  assert.equal(result.code, 0, `brief ${args.join(' ')}: ${result.stderr}`);
  return result;
}

/** The link on a domain and key, with its click count. */
async function link(database: Database, domain: string, key: string) {
  const row = await database.db
    .selectFrom('links')
    .innerJoin('accounts', 'accounts.id', 'links.account_id')
    .leftJoin('link_clicks', 'link_clicks.link_id', 'links.id')
    .select([
      'links.url',
      'links.slug',
      'links.title',
      'links.comment',
      'links.created_at',
      'links.expires_at',
      'links.status',
      'links.forward_query',
      'links.password_hash',
      'accounts.name as owner',
      'link_clicks.clicks',
    ])
    .where('links.domain', '=', domain)
    .where('links.key', '=', key)
    .executeTakeFirst();
  assert.ok(row, `${domain}/${key} was imported`);
  return { ...row, clicks: Number(row.clicks ?? 0), forward_query: Boolean(row.forward_query) };
}

/** The tags of the link on a domain and key. */
async function tagsAt(database: Database, domain: string, key: string) {
  const row = await database.db.selectFrom('links').select('id').where('domain', '=', domain).where('key', '=', key).executeTakeFirstOrThrow();
  return (await database.tags.tagsOf([Number(row.id)])).get(Number(row.id)) ?? [];
}

for (const dialect of dialects) {
  describe(`brief import of other shorteners' files (${dialect})`, () => {
    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-import-'));
      test = await openTestDatabase(dialect);
      env = { DATABASE_URL: test.url, BASE_URL: 'http://short.test' };
      await brief('domain', 'add', 'go.test', '--public');
      await brief('account', 'create', 'mover');
    });
    after(async () => {
      await test?.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    describe('brief import --format yourls', () => {
      it('reads a CSV of the yourls_url table: keyword, url, title, timestamp (UTC), clicks; never the ip', async () => {
        const file = write(
          'yourls.csv',
          [
            'keyword,url,title,timestamp,ip,clicks',
            'ozh,https://ozh.org/,"Ozh\'s site, ""home""",2019-05-06 07:08:09,203.0.113.9,42',
            'nourl,not a url,Broken,2019-05-06 07:08:09,203.0.113.9,0',
            'zero,https://example.com/zero,,0000-00-00 00:00:00,203.0.113.9,0',
          ].join('\n'),
        );
        const { stdout, stderr } = await brief('import', file, '--format', 'yourls', '--account', 'mover');
        assert.match(stdout, /3 rows .*imported 2, skipped 0 imported before, 1 could not be imported/);
        assert.match(stderr, /^line 3: its url must be a valid URL \(not a url\)$/m);
        const ozh = await link(test.database, 'short.test', 'ozh');
        assert.deepEqual(ozh, {
          url: 'https://ozh.org/',
          slug: 'ozh',
          title: 'Ozh\'s site, "home"',
          comment: null,
          created_at: Date.UTC(2019, 4, 6, 7, 8, 9),
          expires_at: null,
          status: 'public',
          forward_query: true,
          password_hash: null,
          owner: 'mover',
          clicks: 42,
        });
        assert.equal((await link(test.database, 'short.test', 'zero')).clicks, 0);
        const stored = JSON.stringify(await test.database.db.selectFrom('links').selectAll().execute());
        assert.doesNotMatch(stored, /203\.0\.113\.9/, 'the ip column is never imported');
      });

      it('reads an SQL dump of the table (mysqldump: escapes, several rows an INSERT, other tables ignored)', async () => {
        const file = write(
          'yourls.sql',
          [
            '-- MySQL dump 10.13',
            'CREATE TABLE `yourls_url` (`keyword` varchar(100) NOT NULL, `url` text NOT NULL, `title` text, `timestamp` timestamp, `ip` varchar(41), `clicks` int(10));',
            "INSERT INTO `yourls_options` VALUES (1,'version','1.9');",
            'INSERT INTO `yourls_url` VALUES',
            "('dump1','https://example.com/it\\'s','It\\'s \\\"quoted\\\"','2020-01-02 03:04:05','198.51.100.7',5),",
            "('dump2','https://example.com/two',NULL,'2020-01-02 03:04:06','198.51.100.7',0);",
            "INSERT INTO `yourls_url` (`keyword`, `url`, `title`, `timestamp`, `ip`, `clicks`) VALUES ('v3','https://example.com/reserved','r','2020-01-02 03:04:06','198.51.100.7',1);",
          ].join('\n'),
        );
        const { stdout, stderr } = await brief('import', file, '--format', 'yourls');
        assert.match(stdout, /imported 2, .* 1 could not be imported/);
        assert.match(stderr, /^line 7: its key "v3" cannot be a Brief key/m);
        const one = await link(test.database, 'short.test', 'dump1');
        assert.equal(one.url, "https://example.com/it's");
        assert.equal(one.title, 'It\'s "quoted"');
        assert.equal(one.created_at, Date.UTC(2020, 0, 2, 3, 4, 5));
        assert.equal(one.clicks, 5);
        assert.equal(one.owner, 'anonymous', 'without --account: the anonymous account');
        assert.equal((await link(test.database, 'short.test', 'dump2')).title, null);
        assert.doesNotMatch(JSON.stringify(await test.database.db.selectFrom('links').selectAll().execute()), /198\.51\.100\.7/);
      });
    });

    describe('brief import --format shlink', () => {
      it("reads the web client's CSV export: the short URL's host is the domain, its path the code; tags carried", async () => {
        const file = write(
          'shlink.csv',
          [
            'createdAt,shortUrl,longUrl,title,tags,visits',
            '2021-03-04T05:06:07+00:00,https://short.test/abc12,https://shlink.io/,Shlink,"one,two",17',
            // Today's web client joins tags with |; its older exports (the row above) with commas.
            '2021-03-04T05:06:08+00:00,https://go.test/gocode,https://shlink.io/go,,Go|go team,0',
            '2021-03-04T05:06:09+00:00,https://unknown.test/x,https://shlink.io/x,,,0',
          ].join('\r\n'),
        );
        const { stdout, stderr } = await brief('import', file, '--format', 'shlink');
        assert.match(stdout, /imported 2, .* 1 could not be imported/);
        assert.match(stderr, /^line 4: its domain unknown\.test is not a short domain here/m);
        const abc = await link(test.database, 'short.test', 'abc12');
        assert.equal(abc.url, 'https://shlink.io/');
        assert.equal(abc.title, 'Shlink');
        assert.equal(abc.created_at, Date.UTC(2021, 2, 4, 5, 6, 7));
        assert.equal(abc.clicks, 17);
        assert.deepEqual(await tagsAt(test.database, 'short.test', 'abc12'), ['one', 'two']);
        const go = await link(test.database, 'go.test', 'gocode');
        assert.equal(go.url, 'https://shlink.io/go');
        assert.deepEqual(await tagsAt(test.database, 'go.test', 'gocode'), ['Go', 'go team']);
      });

      it('reads the JSON pages of its short-URL list API: validUntil, maxVisits, forwardQuery, visitsSummary, null domain', async () => {
        const page = (data: unknown[], current: number) => ({
          shortUrls: { data, pagination: { currentPage: current, pagesCount: 2, itemsPerPage: 1 } },
        });
        const item = (shortCode: string, extra: Record<string, unknown>) => ({
          shortCode,
          shortUrl: `https://short.test/${shortCode}`,
          longUrl: `https://shlink.io/${shortCode}`,
          dateCreated: '2022-02-03T04:05:06+00:00',
          visitsSummary: { total: 9, nonBots: 8, bots: 1 },
          tags: ['t'],
          meta: { validSince: null, validUntil: null, maxVisits: null },
          domain: null,
          title: null,
          crawlable: false,
          forwardQuery: true,
          ...extra,
        });
        const file = write(
          'shlink.json',
          JSON.stringify([
            page([item('sj1', { title: 'First', forwardQuery: false, meta: { validUntil: '2031-01-01T00:00:00+00:00', maxVisits: 50 } })], 1),
            page([item('sj2', { domain: 'go.test' }), item('sj3', { longUrl: 'ftp://nope' })], 2),
          ]),
        );
        const { stdout, stderr } = await brief('import', file, '--format', 'shlink');
        assert.match(stdout, /imported 2, .* 1 could not be imported/);
        assert.match(stderr, /^item 3: its url must be a valid URL/m);
        const first = await link(test.database, 'short.test', 'sj1');
        assert.equal(first.url, 'https://shlink.io/sj1');
        assert.equal(first.title, 'First');
        assert.equal(first.created_at, Date.UTC(2022, 1, 3, 4, 5, 6));
        assert.equal(first.expires_at, Date.UTC(2031, 0, 1));
        assert.equal(first.forward_query, false);
        assert.equal(first.clicks, 9);
        assert.deepEqual(await tagsAt(test.database, 'short.test', 'sj1'), ['t']);
        assert.equal((await link(test.database, 'go.test', 'sj2')).forward_query, true);
        const limits = await test.database.db
          .selectFrom('links')
          .select(['key', 'max_visits'])
          .where('key', 'in', ['sj1', 'sj2'])
          .orderBy('key')
          .execute();
        assert.deepEqual(
          limits,
          [
            { key: 'sj1', max_visits: 50 },
            { key: 'sj2', max_visits: null },
          ],
          'maxVisits null: no limit',
        );
      });

      it('starts a limited link with the visits Shlink counted against it: nonBots, else total, else visitsCount; refuses a bad count', async () => {
        const item = (shortCode: string, extra: Record<string, unknown>) => ({
          shortCode,
          longUrl: `https://shlink.io/limited/${shortCode}`,
          dateCreated: '2022-02-03T04:05:06+00:00',
          meta: { validSince: null, validUntil: null, maxVisits: 5 },
          domain: null,
          ...extra,
        });
        const file = write(
          'shlink-limits.json',
          JSON.stringify({
            shortUrls: {
              data: [
                item('lim1', { visitsSummary: { total: 9, nonBots: 3, bots: 6 } }),
                item('lim2', { visitsSummary: { total: 9 } }),
                item('lim3', { visitsCount: 4 }),
                item('lim4', { visitsSummary: { total: 9, nonBots: 3, bots: 6 }, meta: { maxVisits: null } }),
                item('lim5', { visitsSummary: { total: 9, nonBots: -1 } }),
                item('lim6', { visitsSummary: { total: 'many' } }),
              ],
            },
          }),
        );
        const { stdout, stderr } = await brief('import', file, '--format', 'shlink');
        assert.match(stdout, /imported 4, .* 2 could not be imported/);
        assert.match(stderr, /^item 5: its visitsSummary\.nonBots "-1" is not a whole number/m);
        assert.match(stderr, /^item 6: its visitsSummary\.total "many" is not a whole number/m);
        const limits = await test.database.db
          .selectFrom('links')
          .select(['key', 'max_visits', 'limited_visits'])
          .where('key', 'in', ['lim1', 'lim2', 'lim3', 'lim4'])
          .orderBy('key')
          .execute();
        assert.deepEqual(
          limits.map((row) => ({ ...row, limited_visits: Number(row.limited_visits) })),
          [
            { key: 'lim1', max_visits: 5, limited_visits: 3 },
            { key: 'lim2', max_visits: 5, limited_visits: 9 },
            { key: 'lim3', max_visits: 5, limited_visits: 4 },
            { key: 'lim4', max_visits: null, limited_visits: 0 },
          ],
          'people only when Shlink tells them apart (Brief counts no bots); none counted without a limit',
        );
      });
    });

    describe('brief import --format kutt', () => {
      it('reads the JSON pages of its links API: target, address, description, expire_in, visit_count, banned; refuses a password', async () => {
        const file = write(
          'kutt.json',
          `${JSON.stringify({
            limit: 10,
            skip: 0,
            total: 3,
            data: [
              {
                id: '5b3a1c5e-0000-4000-8000-000000000001',
                address: 'kutt1',
                banned: false,
                created_at: '2022-01-02T03:04:05.000Z',
                updated_at: '2022-01-02T03:04:05.000Z',
                link: 'https://kutt.it/kutt1',
                password: false,
                target: 'https://kutt.it/about',
                description: 'a note',
                expire_in: '2032-01-01T00:00:00.000Z',
                visit_count: 3,
              },
              {
                address: 'kutt2',
                banned: true,
                created_at: '2022-01-02T03:04:06.000Z',
                link: 'https://go.test/kutt2',
                password: false,
                target: 'https://example.com/k2',
                visit_count: 0,
              },
              {
                address: 'kutt3',
                banned: false,
                created_at: '2022-01-02T03:04:07.000Z',
                link: 'https://kutt.it/kutt3',
                password: true,
                target: 'https://example.com/k3',
                visit_count: 0,
              },
            ],
          })}\n`,
        );
        const { stdout, stderr } = await brief('import', file, '--format', 'kutt');
        assert.match(stdout, /imported 2, .* 1 could not be imported/);
        assert.match(stderr, /^item 3: the link has a password, which no export carries/m);
        const one = await link(test.database, 'short.test', 'kutt1');
        assert.deepEqual(
          { url: one.url, comment: one.comment, created: one.created_at, expires: one.expires_at, clicks: one.clicks, status: one.status },
          {
            url: 'https://kutt.it/about',
            comment: 'a note',
            created: Date.UTC(2022, 0, 2, 3, 4, 5),
            expires: Date.UTC(2032, 0, 1),
            clicks: 3,
            status: 'public',
          },
          "kutt.it is Kutt's own domain: the link goes on the default domain",
        );
        assert.equal((await link(test.database, 'go.test', 'kutt2')).status, 'blocked', 'a banned link stays blocked');
      });
    });

    describe('brief import --format bitly', () => {
      it('reads the JSON pages of the v4 bitlinks API: bit.ly back-halves go on the default domain, a branded one keeps its domain', async () => {
        const file = write(
          'bitly.json',
          JSON.stringify({
            links: [
              {
                created_at: '2020-07-08T09:10:11+0000',
                id: 'bit.ly/3abcDEF',
                link: 'https://bit.ly/3abcDEF',
                custom_bitlinks: [],
                long_url: 'https://bitly.com/',
                title: 'Bitly',
                archived: false,
                tags: ['x'],
              },
              {
                created_at: '2020-07-08T09:10:12+0000',
                id: 'go.test/brand',
                link: 'https://go.test/brand',
                long_url: 'https://example.com/brand',
                title: null,
              },
            ],
            pagination: { prev: '', next: '', size: 50, page: 1, total: 2 },
          }),
        );
        await brief('import', file, '--format', 'bitly');
        const one = await link(test.database, 'short.test', '3abcDEF');
        assert.equal(one.url, 'https://bitly.com/');
        assert.equal(one.title, 'Bitly');
        assert.equal(one.created_at, Date.UTC(2020, 6, 8, 9, 10, 11));
        assert.deepEqual(await tagsAt(test.database, 'short.test', '3abcDEF'), ['x']);
        const brand = await link(test.database, 'go.test', 'brand');
        assert.equal(brand.url, 'https://example.com/brand');
        assert.deepEqual(await tagsAt(test.database, 'go.test', 'brand'), []);
      });

      it("reads the dashboard's CSV export: a custom back-half wins over the generated one", async () => {
        const file = write(
          'bitly.csv',
          [
            'Title,Bitlink,Custom link,Long URL,Date created,Tags,Clicks',
            'Docs,bit.ly/3xyzUVW,bit.ly/our-docs,https://example.com/docs,2021-01-02 03:04:05,a,12',
            'Plain,https://bit.ly/3plain1,,https://example.com/plain,2021-01-02 03:04:06,,0',
            `Badtag,bit.ly/3badtag,,https://example.com/badtag,2021-01-02 03:04:07,"ok,${'x'.repeat(51)}",0`,
          ].join('\n'),
        );
        const { stderr } = await brief('import', file, '--format', 'bitly');
        assert.match(stderr, /^line 4: its tags must hold tag names of 1 to 50 characters/m);
        const docs = await link(test.database, 'short.test', 'our-docs');
        assert.deepEqual(
          { url: docs.url, title: docs.title, created: docs.created_at, clicks: docs.clicks },
          { url: 'https://example.com/docs', title: 'Docs', created: Date.UTC(2021, 0, 2, 3, 4, 5), clicks: 12 },
        );
        assert.deepEqual(await tagsAt(test.database, 'short.test', 'our-docs'), ['a']);
        assert.equal((await link(test.database, 'short.test', '3plain1')).url, 'https://example.com/plain');
      });
    });

    describe('brief import --format csv', () => {
      it('reads url, slug, domain, title, created, matching header names ignoring case and spaces; a key taken is reported', async () => {
        const file = write(
          'links.csv',
          [
            'URL, Slug ,Domain,TITLE,Created',
            'https://example.com/min,minimal,go.test,Min,2023-04-05T06:07:08Z',
            'https://example.com/nokey,,,,',
            'https://example.com/taken,ozh,,,',
          ].join('\n'),
        );
        const { stdout, stderr } = await brief('import', file, '--format', 'csv');
        assert.match(stdout, /imported 2, .* 1 could not be imported/);
        assert.match(stderr, /^line 4: the key ozh on short\.test is taken by another link$/m);
        const min = await link(test.database, 'go.test', 'minimal');
        assert.deepEqual(
          { url: min.url, title: min.title, created: min.created_at },
          { url: 'https://example.com/min', title: 'Min', created: Date.UTC(2023, 3, 5, 6, 7, 8) },
        );
        const made = await test.database.db.selectFrom('links').select(['key', 'slug']).where('url', '=', 'https://example.com/nokey').execute();
        assert.equal(made.length, 1);
        assert.equal(made[0]!.slug, null, 'a row without a key gets a new code');
        // Run again: the keyless row is known by its URL and skipped; the others too.
        const again = await brief('import', file, '--format', 'csv');
        assert.match(again.stdout, /imported 0, skipped 2 imported before, 1 could not be imported/);
      });
    });
  });
}
