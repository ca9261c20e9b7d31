// `brief export --format csv` of hostile values (issue 37, item 7; decision 0032): no cell opens as a formula,
// and `brief import --format brief` of that file gives back every value exactly, so export → import → export
// is the same file. SQLite, and PostgreSQL when TEST_DATABASE_URL is set. The cell rule and its property
// over arbitrary strings are in csv-cells.test.ts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../scale-support/server-process.js';
import { parseCsv } from '../support/csv.js';
import { dialects, newLink, openTestDatabase, type TestDatabase } from '../support/database.js';

/** Values as an anonymous bulk call may plant them: formula starts, quotes that are data, a tab, a CR. */
const HOSTILE = [
  "'",
  "''",
  "'hello",
  "'=1+2",
  '-1',
  '=1+2',
  '+1',
  '@SUM(A1:A9)',
  '\tindented',
  '\rcarriage',
  '=HYPERLINK("http://evil.example/?a=1,2","click")',
  '-',
  ' =1',
  'plain',
];

const jsonLines = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

for (const dialect of dialects) {
  describe(`spreadsheet-safe CSV, export → import → export (${dialect})`, () => {
    let source: TestDatabase;
    let target: TestDatabase;
    let dir: string;

    const cli = async (database: TestDatabase, ...args: string[]) => {
      const result = await runCli(args, { DATABASE_URL: database.url, BASE_URL: 'http://short.test' });
      assert.equal(result.code, 0, `brief ${args.join(' ')}: ${result.stderr}`);
      return result;
    };

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-spreadsheet-'));
      [source, target] = await Promise.all([openTestDatabase(dialect), openTestDatabase(dialect)]);
      const alice = (await source.database.accounts.create('alice'))!;
      for (const [i, title] of HOSTILE.entries()) {
        const outcome = await source.database.links.create(
          newLink(`https://example.com/${i}?q=-${i}`, {
            accountId: alice.id,
            // Keys may start with "-": they go through the same rule.
            slug: i === 0 ? '-1' : i === 1 ? '-x' : null,
            title,
            comment: HOSTILE[(i + 1) % HOSTILE.length]!,
            // A card's cells (decision 0041) go through the same rule.
            preview: { title: HOSTILE[(i + 2) % HOSTILE.length]!, description: HOSTILE[(i + 3) % HOSTILE.length]!, image: null },
          }),
        );
        assert.ok('created' in outcome);
      }
    });
    after(async () => {
      await source?.cleanup();
      await target?.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('writes no cell a spreadsheet opens as a formula, and an import gives back every value exactly', async () => {
      const csv = (await cli(source, 'export', '--format', 'csv')).stdout;
      const records = parseCsv(csv).rows;
      assert.equal(records.length, HOSTILE.length + 1);
      for (const cell of records.flat()) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, `the cell ${JSON.stringify(cell)} could start a formula`);
      const header = records[0]!;
      const titles = records.slice(1).map((record) => record[header.indexOf('title')]);
      assert.deepEqual(titles.slice(0, 5), ["''", "'''", "''hello", "''=1+2", "'-1"]);
      assert.equal(records[1]![header.indexOf('key')], "'-1");

      const file = path.join(dir, 'export.csv');
      fs.writeFileSync(file, csv);
      const imported = await cli(target, 'import', file, '--format', 'brief');
      assert.match(imported.stdout, new RegExp(`imported ${HOSTILE.length}, skipped 0 imported before, 0 could not be imported`));
      assert.equal(imported.stderr, '');

      const before = jsonLines((await cli(source, 'export')).stdout);
      const afterImport = jsonLines((await cli(target, 'export')).stdout);
      assert.deepEqual(afterImport, before, 'every value of every link, as it was');
      assert.deepEqual(
        afterImport.map((link) => link.title),
        HOSTILE,
      );
      assert.deepEqual(
        afterImport.map((link) => (link.preview as { title: string }).title),
        HOSTILE.map((_, i) => HOSTILE[(i + 2) % HOSTILE.length]),
      );
      assert.equal(afterImport[0]!.key, '-1');
      assert.equal((await cli(target, 'export', '--format', 'csv')).stdout, csv, 'the second export is the same file');
    });
  });
}
