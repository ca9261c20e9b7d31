// `brief import` on input it cannot read: an unreadable file, a truncated
// one (CSV, JSON, SQL dump), a wrong --format, a CSV without a url column: one clear line on stderr, exit 1,
// and nothing half-imported that a re-run of the whole file cannot finish.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../scale-support/server-process.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

describe('brief import on bad input', () => {
  let test: TestDatabase;
  let env: Record<string, string>;
  let dir: string;
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const fails = async (pattern: RegExp, ...args: string[]) => {
    const result = await runCli(args, env);
    assert.equal(result.code, 1, `brief ${args.join(' ')} should fail: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr.trim(), pattern);
    return result;
  };
  const links = async () =>
    Number(
      (
        await test.database.db
          .selectFrom('links')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-import-bad-'));
    test = await openTestDatabase('sqlite');
    env = { DATABASE_URL: test.url, BASE_URL: 'http://short.test' };
  });
  after(async () => {
    await test?.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a file it cannot read: missing, or a folder', async () => {
    await fails(/^brief: cannot read .*missing\.csv: ENOENT$/, 'import', path.join(dir, 'missing.csv'), '--format', 'csv');
    await fails(/^brief: cannot read .*: not a file$/, 'import', dir, '--format', 'csv');
    assert.equal(await links(), 0);
  });

  it('refuses a --format it does not know, and a missing one', async () => {
    const file = write('ok.csv', 'url\nhttps://example.com/\n');
    await fails(/--format.*invalid|Allowed choices are brief, csv, yourls, shlink, kutt, bitly/, 'import', file, '--format', 'tinyurl');
    await fails(/required option '--format <format>' not specified/, 'import', file);
    assert.equal(await links(), 0);
  });

  it('refuses a CSV without a url column, naming the columns it looked for', async () => {
    const file = write('nourl.csv', 'link,slug\nhttps://example.com/,x\n');
    await fails(/^brief: .*nourl\.csv cannot be read as csv: the first line has no url column/, 'import', file, '--format', 'csv');
    const shlink = write('nourl-shlink.csv', 'shortUrl,title\nhttps://short.test/x,X\n');
    await fails(/cannot be read as shlink: the first line has no longurl column/, 'import', shlink, '--format', 'shlink');
    assert.equal(await links(), 0);
  });

  it('refuses truncated JSON before writing anything, and a truncated SQL dump after the rows before the cut', async () => {
    const json = write('cut.json', '{"shortUrls":{"data":[{"shortCode":"a","longUrl":"https://exa');
    await fails(/cannot be read as shlink: it is not valid JSON .*cut short\?/, 'import', json, '--format', 'shlink');
    const sql = write(
      'cut.sql',
      "INSERT INTO `yourls_url` VALUES ('k1','https://example.com/1','t','2020-01-01 00:00:00','1.2.3.4',0),('k2','https://exa",
    );
    assert.equal(await links(), 0);
    await fails(
      /cannot be read as yourls: the INSERT begun on line 1 ends inside a string: the dump looks cut short/,
      'import',
      sql,
      '--format',
      'yourls',
    );
    const keys = await test.database.db.selectFrom('links').select('key').execute();
    assert.deepEqual(
      keys.map((k) => k.key),
      ['k1'],
    );
  });

  it('stops at a CSV cut inside a quoted field, and a re-run of the whole file imports the rest and nothing twice', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `https://example.com/${i},key${i},"Title ${i}"`);
    const whole = ['url,slug,title', ...rows].join('\n');
    const cut = whole.slice(0, whole.lastIndexOf('"Title 29') + 5);
    const file = write('cut.csv', cut);
    const before = await links();
    const result = await fails(
      /cannot be read as csv: the file ends inside a quoted field begun on line 31: it looks cut short; the rows imported so far are skipped when it is run again/,
      'import',
      file,
      '--format',
      'csv',
    );
    assert.match(result.stdout, /29 rows .*imported 29/);
    assert.equal(await links(), before + 29);
    fs.writeFileSync(file, whole);
    const again = await runCli(['import', file, '--format', 'csv'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /30 rows .*imported 1, skipped 29 imported before/);
    assert.equal(await links(), before + 30);
  });

  it('reports a line cut short (fewer fields than the header) as a row and imports the rest', async () => {
    const file = write('short-line.csv', 'url,slug,title\nhttps://example.com/ok,fine,Fine\nhttps://example.com/cut');
    const result = await runCli(['import', file, '--format', 'csv'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^line 3: it has 1 fields where the header has 3 \(a line cut short\?\)$/m);
    assert.match(result.stdout, /imported 1, .* 1 could not be imported/);
  });

  it('reports a row whose date or count cannot be read, and reads a spelled-out date', async () => {
    const file = write(
      'fields.csv',
      [
        'Title,Bitlink,Long URL,Date created,Clicks',
        'A,bit.ly/dateA,https://example.com/a,soon,1',
        'B,bit.ly/countB,https://example.com/b,2021-01-02,many',
        'C,bit.ly/spelledC,https://example.com/c,"Jan 2, 2021",3',
      ].join('\n'),
    );
    const result = await runCli(['import', file, '--format', 'bitly'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^line 2: its created "soon" is not a date$/m);
    assert.match(result.stderr, /^line 3: its clicks "many" is not a whole number$/m);
    assert.match(result.stdout, /imported 1, .* 2 could not be imported/);
    const c = await test.database.db.selectFrom('links').select('created_at').where('key', '=', 'spelledC').executeTakeFirstOrThrow();
    assert.equal(new Date(c.created_at).getFullYear(), 2021);
  });

  it('refuses a blocked destination host, a URL to a short domain, and an unknown --account', async () => {
    const blocked = await runCli(['blocklist', 'add', 'evil.test'], env);
    assert.equal(blocked.code, 0, blocked.stderr);
    const file = write('hosts.csv', 'url,slug\nhttps://www.evil.test/x,evil\nhttps://short.test/abc,loop\n');
    const result = await runCli(['import', file, '--format', 'csv'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^line 2: its destination host www\.evil\.test is blocked$/m);
    assert.match(result.stderr, /^line 3: its URL points to a short link domain/m);
    await fails(/^brief: No account named "nobody"/, 'import', file, '--format', 'csv', '--account', 'nobody');
  });
});
