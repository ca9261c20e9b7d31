// `brief export` → `brief import --format brief` into an empty database gives the same links, their redirect
// rules, the visits counted against a visit limit, their tags and their cards for preview fetchers included (JSON lines and CSV; SQLite, and PostgreSQL when
// TEST_DATABASE_URL is set); a second run skips every row; a dry run writes nothing (decision 0025).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/storage/database.js';
import { runCli } from '../scale-support/server-process.js';
import { dialects, newLink, openTestDatabase, type TestDatabase } from '../support/database.js';

const EXPIRES = Date.UTC(2031, 5, 6, 7, 8, 9);

async function make(database: Database, accountId: number, url: string, extra: Parameters<typeof newLink>[1] = {}) {
  const outcome = await database.links.create(newLink(url, { accountId, ...extra }));
  if (!('created' in outcome)) throw new Error(`${url} was not made`);
  return outcome.created;
}

/** An export with `created` kept: every field a link carries over. */
function lines(jsonl: string): Array<Record<string, unknown>> {
  return jsonl
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
}

for (const dialect of dialects) {
  describe(`brief export → brief import (${dialect})`, () => {
    let source: TestDatabase;
    let dir: string;
    const targets: TestDatabase[] = [];
    let exported: string;

    const cli = async (database: TestDatabase, ...args: string[]) => {
      const result = await runCli(args, { DATABASE_URL: database.url, BASE_URL: 'http://short.test' });
      assert.equal(result.code, 0, `brief ${args.join(' ')}: ${result.stderr}`);
      return result;
    };
    const emptyDatabase = async () => {
      const target = await openTestDatabase(dialect);
      targets.push(target);
      await cli(target, 'domain', 'add', 'go.test', '--public');
      return target;
    };

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-round-trip-'));
      source = await openTestDatabase(dialect);
      await cli(source, 'domain', 'add', 'go.test', '--public');
      const alice = (await source.database.accounts.create('alice'))!;
      const bob = (await source.database.accounts.create('bob'))!;
      await make(source.database, alice.id, 'https://example.com/plain');
      const fancy = await make(source.database, alice.id, 'https://example.com/fancy?a=1,2', {
        slug: 'fancy',
        title: 'A, "titled" link',
        comment: 'says "hi", then\nleaves',
        expiresAt: EXPIRES,
        forwardQuery: false,
        // A visit limit (decision 0039), carried over as it is.
        maxVisits: 25,
        // A card for preview fetchers (decision 0041), its title one a spreadsheet would read as a formula.
        preview: { title: '=Spring, "sale"', description: '-30% on\neverything', image: 'https://img.example/sale.png?a=1,2' },
        // Redirect rules (decision 0039), with text that needs escaping in JSON and in CSV.
        rules: [
          { url: 'https://example.com/robots?x=%221%22,2', conditions: [{ type: 'device', value: 'bot' }] },
          {
            url: 'https://example.com/news',
            conditions: [
              { type: 'query', key: 'utm_source', value: '=news, "today"' },
              { type: 'query-any', key: 'ref' },
            ],
          },
          {
            split: [
              { url: 'https://example.com/a', weight: 30 },
              { url: 'https://example.com/b', weight: 70 },
            ],
            conditions: [{ type: 'query-any', key: 'ab' }],
          },
        ],
      });
      await source.database.db.insertInto('link_clicks').values({ link_id: fancy.id, clicks: 7 }).execute();
      // Tags (decision 0040), one a spreadsheet would read as a formula and one with a quote.
      await source.database.tags.setTags(alice.id, [{ linkId: fancy.id, tags: ['Launch', '=news "today"', 'ünï'] }]);
      // 11 of its 25 visits used: an import must not give it 25 more.
      await source.database.db.updateTable('links').set({ limited_visits: 11 }).where('id', '=', fancy.id).execute();
      const bobs = await make(source.database, bob.id, 'https://example.com/bob', {
        domain: 'go.test',
        preview: { title: 'Bob’s card', description: null, image: null },
      });
      await source.database.tags.setTags(bob.id, [{ linkId: bobs.id, tags: ['launch'] }]);
      await source.database.db.updateTable('links').set({ status: 'blocked' }).where('id', '=', bobs.id).execute();
      await make(source.database, 1, 'https://example.com/anonymous', { slug: 'anon' });
      exported = (await cli(source, 'export')).stdout;
      assert.equal(lines(exported).length, 4);
      assert.deepEqual(
        lines(exported).map((link) => [link.maxVisits, link.limitedVisits]),
        [
          [null, null],
          [25, 11],
          [null, null],
          [null, null],
        ],
        'the visits counted against a limit, written beside it',
      );
      assert.deepEqual(
        lines(exported).map((link) => link.tags),
        [[], ['=news "today"', 'Launch', 'ünï'], ['launch'], []],
        "each link's tags, sorted ignoring case, each workspace's its own",
      );
      assert.deepEqual(
        lines(exported).map((link) => link.preview),
        [
          null,
          { title: '=Spring, "sale"', description: '-30% on\neverything', image: 'https://img.example/sale.png?a=1,2' },
          { title: 'Bob’s card', description: null, image: null },
          null,
        ],
        "each link's card as the v3 API shows it, null without one",
      );
    });
    after(async () => {
      await source?.cleanup();
      for (const target of targets) await target.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    for (const format of ['jsonl', 'csv'] as const) {
      it(`imports a ${format} export into an empty database as the same links (owners made), and skips them all when run again`, async () => {
        const file = path.join(dir, `export.${format}`);
        fs.writeFileSync(file, format === 'jsonl' ? exported : (await cli(source, 'export', '--format', 'csv')).stdout);
        const target = await emptyDatabase();
        const first = await cli(target, 'import', file, '--format', 'brief');
        assert.match(first.stdout, /4 rows .*imported 4, skipped 0 imported before, 0 could not be imported/);
        assert.equal(first.stderr, '');
        assert.deepEqual(lines((await cli(target, 'export')).stdout), lines(exported), 'every field of every link, in the same order');
        const codes = await target.database.db.selectFrom('links').select(['key', 'code', 'slug']).orderBy('id').execute();
        assert.equal(codes[0]!.code, codes[0]!.key, "a generated code stays the link's code");
        assert.equal(codes[0]!.slug, null);

        const again = await cli(target, 'import', file, '--format', 'brief');
        assert.match(again.stdout, /imported 0, skipped 4 imported before, 0 could not be imported/);
        assert.equal(lines((await cli(target, 'export')).stdout).length, 4);
      });
    }

    it('imports an export of generated codes only, each keeping its code', async () => {
      // Every row of the batch keeps its code, so the batch makes no code of its own (on PostgreSQL the clash
      // check once had an empty list of made codes, and its statement did not parse).
      const coded = lines(exported).filter((link) => link.isSlug === false);
      assert.equal(coded.length, 2);
      const file = path.join(dir, 'codes.jsonl');
      fs.writeFileSync(file, coded.map((link) => `${JSON.stringify(link)}\n`).join(''));
      const target = await emptyDatabase();
      const run = await cli(target, 'import', file, '--format', 'brief');
      assert.match(run.stdout, /imported 2, skipped 0 imported before, 0 could not be imported/);
      assert.deepEqual(lines((await cli(target, 'export')).stdout), coded);
    });

    it('refuses a row whose rules the API would refuse, saying which part, and imports the rest', async () => {
      const rule = (url: string, condition: Record<string, string>) => [{ url, conditions: [condition] }];
      const rows = [
        { url: 'https://example.com/a', key: 'ok-rules', rules: rule('https://example.com/news', { type: 'query-any', key: 'ref' }) },
        { url: 'https://example.com/b', key: 'bad-condition', rules: rule('https://example.com/news', { type: 'query', key: 'ref' }) },
        { url: 'https://example.com/c', key: 'loop', rules: rule('http://go.test/x', { type: 'query-any', key: 'ref' }) },
        { url: 'https://example.com/d', key: 'not-a-list', rules: { url: 'https://example.com/' } },
      ];
      const file = path.join(dir, 'rules.jsonl');
      fs.writeFileSync(file, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
      const target = await emptyDatabase();
      const run = await cli(target, 'import', file, '--format', 'brief');
      assert.match(run.stdout, /imported 1, skipped 0 imported before, 3 could not be imported/);
      assert.match(run.stderr, /line 2: its rules\.0\.conditions\.0\.value is invalid/);
      assert.match(run.stderr, /line 3: its rules\.0\.url points to a short link domain/);
      assert.match(run.stderr, /line 4: its rules are not a list/);
      const [imported] = lines((await cli(target, 'export')).stdout);
      assert.deepEqual(imported?.rules, rows[0]!.rules);
    });

    it('refuses a row whose card the API would refuse, naming the part, in JSON lines and in CSV, and imports the rest', async () => {
      const card = (preview: unknown) => ({ url: 'https://example.com/card', preview });
      const rows = [
        { ...card({ title: 'Fine', image: 'https://img.example/ok.png' }), key: 'ok-card' },
        { ...card({ description: 'no title' }), key: 'untitled' },
        { ...card({ title: 'x'.repeat(513) }), key: 'long-title' },
        { ...card({ title: 'Long', description: 'x'.repeat(1025) }), key: 'long-description' },
        { ...card({ title: 'Plain http', image: 'http://img.example/a.png' }), key: 'http-image' },
        { ...card({ title: 'Not a URL', image: 'nope' }), key: 'bad-image' },
        { ...card({ title: 'Blocked', image: 'https://cdn.evil.test/a.png' }), key: 'blocked-image' },
        { ...card('a card'), key: 'not-an-object' },
        { ...card({ title: 7 }), key: 'number-title' },
        { ...card(null), key: 'no-card' },
      ];
      const jsonl = path.join(dir, 'cards.jsonl');
      fs.writeFileSync(jsonl, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
      // The CSV's three columns: a description or an image without a title is no card.
      const csv = path.join(dir, 'cards.csv');
      fs.writeFileSync(
        csv,
        [
          'url,key,previewTitle,previewDescription,previewImage',
          "https://example.com/c,csv-card,'=Title,,https://img.example/c.png",
          'https://example.com/d,csv-untitled,,a description,',
          'https://example.com/e,csv-none,,,',
        ].join('\r\n'),
      );
      const target = await emptyDatabase();
      await cli(target, 'blocklist', 'add', 'evil.test');
      const run = await cli(target, 'import', jsonl, '--format', 'brief');
      assert.match(run.stdout, /imported 2, skipped 0 imported before, 8 could not be imported/);
      assert.match(run.stderr, /^line 2: its preview\.title must be defined$/m);
      assert.match(run.stderr, /^line 3: its preview\.title .*512/m);
      assert.match(run.stderr, /^line 4: its preview\.description .*1024/m);
      assert.match(run.stderr, /^line 5: its preview\.image must be an https URL$/m);
      assert.match(run.stderr, /^line 6: its preview\.image /m);
      assert.match(run.stderr, /^line 7: its preview\.image host cdn\.evil\.test is blocked$/m);
      assert.match(run.stderr, /^line 8: its preview is neither an object nor null$/m);
      assert.match(run.stderr, /^line 9: its preview\.title is not text$/m);
      const csvRun = await cli(target, 'import', csv, '--format', 'brief');
      assert.match(csvRun.stdout, /imported 2, skipped 0 imported before, 1 could not be imported/);
      assert.match(csvRun.stderr, /^line 3: its preview\.title must be defined$/m);
      const cards = Object.fromEntries(lines((await cli(target, 'export')).stdout).map((link) => [link.key, link.preview]));
      assert.deepEqual(cards, {
        'ok-card': { title: 'Fine', description: null, image: 'https://img.example/ok.png' },
        'no-card': null,
        'csv-card': { title: '=Title', description: null, image: 'https://img.example/c.png' },
        'csv-none': null,
      });
    });

    it('starts a limited link with the visits its row counted, none without a limit, and refuses a bad count naming it', async () => {
      const rows = [
        { url: 'https://example.com/a', key: 'used', maxVisits: 5, limitedVisits: 2 },
        { url: 'https://example.com/b', key: 'spent', maxVisits: 5, limitedVisits: 7 },
        { url: 'https://example.com/c', key: 'unlimited', maxVisits: null, limitedVisits: 3 },
        { url: 'https://example.com/d', key: 'negative', maxVisits: 5, limitedVisits: -1 },
        { url: 'https://example.com/e', key: 'words', maxVisits: 5, limitedVisits: 'many' },
        { url: 'https://example.com/f', key: 'huge', maxVisits: 5, limitedVisits: 2_147_483_648 },
      ];
      const file = path.join(dir, 'limits.jsonl');
      fs.writeFileSync(file, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
      const target = await emptyDatabase();
      const run = await cli(target, 'import', file, '--format', 'brief');
      assert.match(run.stdout, /imported 3, skipped 0 imported before, 3 could not be imported/);
      assert.match(run.stderr, /line 4: its limitedVisits "-1" is not a whole number/);
      assert.match(run.stderr, /line 5: its limitedVisits "many" is not a whole number/);
      assert.match(run.stderr, /line 6: its limitedVisits 2147483648 is not a whole number from 0 to 2147483647/);
      const stored = await target.database.db.selectFrom('links').select(['key', 'max_visits', 'limited_visits']).orderBy('id').execute();
      assert.deepEqual(
        stored.map((row) => ({ ...row, limited_visits: Number(row.limited_visits) })),
        [
          { key: 'used', max_visits: 5, limited_visits: 2 },
          { key: 'spent', max_visits: 5, limited_visits: 7 },
          { key: 'unlimited', max_visits: null, limited_visits: 0 },
        ],
      );
    });

    it('puts every link in one account with --account, and a dry run reports the same counts but writes nothing', async () => {
      const file = path.join(dir, 'export.jsonl');
      fs.writeFileSync(file, exported);
      const target = await emptyDatabase();
      await cli(target, 'account', 'create', 'carol');
      const dry = await cli(target, 'import', file, '--format', 'brief', '--account', 'carol', '--dry-run');
      assert.match(dry.stdout, /^dry run, nothing written: 4 rows .*would import 4, skipped 0/);
      const count = async () =>
        Number(
          (
            await target.database.db
              .selectFrom('links')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      assert.equal(await count(), 0);
      assert.equal(
        Number(
          (
            await target.database.db
              .selectFrom('link_imports')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
        0,
      );
      await cli(target, 'import', file, '--format', 'brief', '--account', 'carol');
      const owners = lines((await cli(target, 'export')).stdout).map((link) => link.owner);
      assert.deepEqual(owners, ['carol', 'carol', 'carol', 'carol']);
    });
  });
}
