// `brief export` as a real process (issue 28, item 5; decision 0023): every live link of every account,
// or of one with --account, as JSON lines or CSV (RFC 4180 quoting), never a password hash; the
// keyset pages give the same links whatever their size. On PostgreSQL too when TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { csvField } from '../../src/cli/export-commands.js';
import type { Database } from '../../src/storage/database.js';
import { exportedLinks } from '../../src/storage/sql/link-export.js';
import { cliCommands } from '../scale-support/server-process.js';
import { parseCsv } from '../support/csv.js';
import { dialects, newLink, openTestDatabase, type TestDatabase } from '../support/database.js';

const FIELDS =
  'domain,key,isSlug,url,title,comment,owner,created,status,clicks,expires,hasPassword,forwardQuery,rules,maxVisits,limitedVisits,tags,preview';
/** The CSV's columns: the card as three (decision 0041). */
const CSV_FIELDS = FIELDS.replace(/,preview$/, ',previewTitle,previewDescription,previewImage');
const TRICKY = 'says "hi", then\nleaves';
const EXPIRES = Date.UTC(2030, 0, 2, 3, 4, 5);

async function make(database: Database, accountId: number, url: string, extra: Parameters<typeof newLink>[1] = {}) {
  const outcome = await database.links.create(newLink(url, { accountId, ...extra }));
  if (!('created' in outcome)) throw new Error(`${url} was not made`);
  return outcome.created;
}

/** The export's CSV records; it ends with CRLF. */
function csvRows(text: string): string[][] {
  const { rows, unfinished } = parseCsv(text);
  assert.equal(unfinished, '', 'the file ends with CRLF');
  return rows;
}

for (const dialect of dialects) {
  describe(`brief export (${dialect})`, () => {
    let test: TestDatabase;
    let env: Record<string, string>;
    const keys: Record<string, string> = {};

    const { cli, cliFails } = cliCommands(() => env);

    before(async () => {
      test = await openTestDatabase(dialect);
      env = { DATABASE_URL: test.url, BASE_URL: 'http://short.test' };
      const alice = (await test.database.accounts.create('alice'))!;
      const bob = (await test.database.accounts.create('bob'))!;
      keys.plain = (await make(test.database, alice.id, 'https://example.com/plain')).key;
      const fancy = await make(test.database, alice.id, 'https://example.com/fancy?a=1,2', {
        slug: 'fancy',
        title: 'A, "titled" link',
        comment: TRICKY,
        passwordHash: 'scrypt$secret-hash-never-exported',
        expiresAt: EXPIRES,
        forwardQuery: false,
        preview: { title: '@Card, "one"', description: null, image: 'https://img.example/card.png' },
      });
      keys.fancy = fancy.key;
      await test.database.tags.setTags(alice.id, [{ linkId: fancy.id, tags: ['news', '=sum'] }]);
      const gone = await make(test.database, alice.id, 'https://example.com/deleted');
      await test.database.db.updateTable('links').set({ deleted_at: Date.now() }).where('id', '=', gone.id).execute();
      const bobs = await make(test.database, bob.id, 'https://example.com/bob');
      keys.bob = bobs.key;
      await test.database.db.updateTable('links').set({ status: 'blocked' }).where('id', '=', bobs.id).execute();
      await test.database.db.insertInto('link_clicks').values({ link_id: fancy.id, clicks: 7 }).execute();
    });
    after(async () => test?.cleanup());

    it('writes every live link as JSON lines, with the owner, clicks and no password hash', async () => {
      const out = await cli('export');
      assert.doesNotMatch(out, /secret-hash|scrypt/);
      const lines = out
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(
        lines.map((l) => l.key),
        [keys.plain, 'fancy', keys.bob],
        'oldest first, the deleted link left out',
      );
      const [plain, fancy, bob] = lines;
      assert.deepEqual(Object.keys(plain).join(','), FIELDS);
      assert.deepEqual(fancy, {
        domain: 'short.test',
        key: 'fancy',
        isSlug: true,
        url: 'https://example.com/fancy?a=1,2',
        title: 'A, "titled" link',
        comment: TRICKY,
        owner: 'alice',
        created: fancy.created,
        status: 'public',
        clicks: 7,
        expires: '2030-01-02T03:04:05.000Z',
        hasPassword: true,
        forwardQuery: false,
        rules: [],
        maxVisits: null,
        limitedVisits: null,
        tags: ['=sum', 'news'],
        preview: { title: '@Card, "one"', description: null, image: 'https://img.example/card.png' },
      });
      assert.equal(plain.preview, null, 'no card: null');
      assert.match(fancy.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(plain.isSlug, false);
      assert.equal(plain.hasPassword, false);
      assert.equal(plain.clicks, 0);
      assert.equal(plain.expires, null);
      assert.equal(bob.owner, 'bob');
      assert.equal(bob.status, 'blocked');
    });

    it('writes CSV with a header and RFC 4180 quoting, and the same links', async () => {
      const out = await cli('export', '--format', 'csv');
      const rows = csvRows(out);
      assert.equal(rows[0]!.join(','), CSV_FIELDS);
      assert.equal(rows.length, 4);
      const fancy = Object.fromEntries(rows[0]!.map((name, i) => [name, rows[2]![i]]));
      assert.equal(fancy.key, 'fancy');
      assert.equal(fancy.title, 'A, "titled" link');
      assert.equal(fancy.comment, TRICKY);
      assert.equal(fancy.url, 'https://example.com/fancy?a=1,2');
      assert.equal(fancy.hasPassword, 'true');
      assert.equal(fancy.clicks, '7');
      assert.equal(fancy.tags, '["=sum","news"]', 'the list as JSON text (it starts with [: no formula)');
      assert.deepEqual(
        [fancy.previewTitle, fancy.previewDescription, fancy.previewImage],
        [`'@Card, "one"`, '', 'https://img.example/card.png'],
        'the card as three plain cells, spreadsheet-safe, an empty one for a part not set',
      );
      const plain = Object.fromEntries(rows[0]!.map((name, i) => [name, rows[1]![i]]));
      assert.equal(plain.title, '', 'no title: an empty field');
      assert.equal(plain.expires, '');
      assert.equal(plain.rules, '', 'no rules: an empty field');
      assert.equal(plain.maxVisits, '', 'no visit limit: an empty field');
      assert.equal(plain.limitedVisits, '', 'no visit limit: no visits counted against one');
      assert.equal(plain.tags, '', 'no tags: an empty field');
      assert.deepEqual([plain.previewTitle, plain.previewDescription, plain.previewImage], ['', '', ''], 'no card: three empty fields');
      assert.equal(csvField(' edge '), '" edge "');
      assert.equal(csvField('plain'), 'plain');
    });

    it("--account gives one account's links; an unknown account or format is a clear error", async () => {
      const bob = (await cli('export', '--account', 'bob')).trimEnd().split('\n');
      assert.deepEqual(
        bob.map((line) => JSON.parse(line).key),
        [keys.bob],
      );
      const alice = csvRows(await cli('export', '--account', 'alice', '--format', 'csv'));
      assert.deepEqual(
        alice.slice(1).map((row) => row[1]),
        [keys.plain, 'fancy'],
      );
      await cliFails(/^brief: No account named "carol"/, 'export', '--account', 'carol');
      await cliFails(/argument 'xml' is invalid\. Allowed choices are jsonl, csv/, 'export', '--format', 'xml');
    });

    it('reads in keyset pages: pages of one or two links give the same links as one page', async () => {
      const all = [];
      for await (const link of exportedLinks(test.database, null)) all.push(link);
      for (const size of [1, 2]) {
        const paged = [];
        for await (const link of exportedLinks(test.database, null, size)) paged.push(link);
        assert.deepEqual(paged, all);
      }
      assert.equal(all.length, 3);
    });
  });
}
