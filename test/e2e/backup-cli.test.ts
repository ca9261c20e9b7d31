// `brief backup` and `brief restore` as real processes beside a running server (issue 28, item 4;
// decision 0023): a backup taken while links are being made holds every link acknowledged before it
// started; a restore checks its file, refuses while the server holds the database, and once the
// server is stopped puts the backup back, and its links redirect.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { request, runCli, ServerProcess } from '../scale-support/server-process.js';

const SHORT_HOST = 'short.test';

describe('backup and restore from the CLI', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-backup-cli-'));
  const live = path.join(dir, 'data', 'brief.db');
  const env = { DATABASE_URL: `sqlite:${live}`, BASE_URL: `http://${SHORT_HOST}` };
  const backupFile = path.join(dir, 'backups', 'brief-1.db');
  let server: ServerProcess | undefined;
  let auth: Record<string, string>;
  /** Links acknowledged before the backup started: the restored database must redirect each. */
  let before_: string[] = [];
  /** A link made after the backup: the restore takes it away. */
  let madeAfter: string;

  const cli = async (...args: string[]) => {
    const result = await runCli(args, env);
    assert.equal(result.code, 0, `brief ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  const cliFails = async (pattern: RegExp, args: string[], extraEnv: Record<string, string> = {}) => {
    const result = await runCli(args, { ...env, ...extraEnv });
    assert.equal(result.code, 1, `brief ${args.join(' ')} should fail: ${result.stdout}`);
    assert.match(result.stderr.trim(), pattern);
    assert.equal(result.stderr.trim().split('\n').length, 1, 'one line');
  };
  const shorten = async (url: string): Promise<string> => {
    const res = await request(server!.port, 'GET', `/v3/shorten?url=${encodeURIComponent(url)}`, auth);
    assert.equal(res.status, 200, res.body);
    return res.json().slug;
  };
  const visit = (key: string) => request(server!.port, 'GET', `/${key}`, { host: SHORT_HOST });
  const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);
  const liveFileBytes = () => fs.readFileSync(live);

  before(async () => {
    server = await ServerProcess.start(env);
    await cli('account', 'create', 'alice');
    const token = (await cli('token', 'create', 'alice')).trim().split('\n').at(-1)!;
    auth = { authorization: `Bearer ${token}` };
    // Some bulk first, so the backup has pages to copy while the writes go on.
    for (let batch = 0; batch < 10; batch++) {
      const items = Array.from({ length: 200 }, (_, i) => ({ url: `https://example.com/bulk/${batch}/${i}?${'q'.repeat(200)}` }));
      const res = await request(server.port, 'POST', '/v3/shorten/bulk', { ...auth, 'content-type': 'application/json' }, JSON.stringify(items));
      assert.equal(res.status, 200, res.body);
      before_.push(...res.json().map((item: { slug: string }) => item.slug));
    }
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('takes a backup during a write load that holds every link acknowledged before it started', async () => {
    let writing = true;
    let n = 0;
    const acknowledged: string[] = [];
    const writers = Array.from({ length: 4 }, async () => {
      while (writing) acknowledged.push(await shorten(`https://example.com/load/${n++}`));
    });
    while (acknowledged.length < 50) await new Promise((resolve) => setTimeout(resolve, 10));
    const beforeBackup = [...before_, ...acknowledged];
    const out = await cli('backup', backupFile);
    const duringBackup = acknowledged.length - (beforeBackup.length - before_.length);
    writing = false;
    await Promise.all(writers);
    before_ = beforeBackup;

    assert.match(out, /^backed up .*brief\.db to .*brief-1\.db: \d+ live links, [\d.]+ MB, in \d+ ms\n$/);
    assert.ok(duringBackup > 0, 'links were made while the backup ran');
    assert.equal(mode(backupFile), '600');
    assert.deepEqual(fs.readdirSync(path.dirname(backupFile)), ['brief-1.db'], 'one file: no -wal beside it, no .partial left');
    const copy = new SQLite(backupFile, { readonly: true, fileMustExist: true });
    try {
      assert.equal(copy.pragma('quick_check', { simple: true }), 'ok');
      assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete');
      const keys = new Set((copy.prepare('select key from links where deleted_at is null').all() as Array<{ key: string }>).map((r) => r.key));
      const missing = beforeBackup.filter((key) => !keys.has(key));
      assert.deepEqual(missing, [], 'every link acknowledged before the backup started is in it');
      assert.ok(keys.size >= beforeBackup.length);
    } finally {
      copy.close();
    }
    // One more, after the backup: the restore below takes it away.
    madeAfter = await shorten('https://example.com/after-the-backup');
  });

  it('refuses to overwrite a file, and to back up onto the database itself', async () => {
    await cliFails(/brief-1\.db exists: give the backup a new name/, ['backup', backupFile]);
    await cliFails(/is the database itself/, ['backup', live]);
  });

  it('refuses a restore while the server has the database open, and changes nothing', async () => {
    const bytes = liveFileBytes();
    await cliFails(/has .*brief\.db open: stop it first, then run brief restore again$/, ['restore', backupFile]);
    assert.ok(liveFileBytes().equals(bytes));
    assert.equal((await visit(madeAfter)).status, 301);
  });

  it('refuses a file that is not a Brief database: plain text, a truncated backup, another SQLite database', async () => {
    const text = path.join(dir, 'notes.txt');
    fs.writeFileSync(text, 'not a database\n');
    await cliFails(/notes\.txt is not a SQLite database \(nothing was changed\)$/, ['restore', text]);
    const truncated = path.join(dir, 'truncated.db');
    fs.writeFileSync(truncated, fs.readFileSync(backupFile).subarray(0, 8192));
    await cliFails(/truncated\.db is damaged or truncated .*; nothing was changed$/, ['restore', truncated]);
    const other = path.join(dir, 'other.db');
    const db = new SQLite(other);
    db.exec('create table notes (body text)');
    db.close();
    await cliFails(/other\.db is a SQLite database but not a Brief database/, ['restore', other]);
    await cliFails(/there is no file/, ['restore', path.join(dir, 'missing.db')]);
    const newer = path.join(dir, 'newer.db');
    fs.copyFileSync(backupFile, newer);
    const future = new SQLite(newer);
    future.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('9999-from-the-future', new Date().toISOString());
    future.close();
    await cliFails(/newer\.db comes from a newer Brief \(migration 9999-from-the-future is unknown to this version\)/, ['restore', newer]);
  });

  it('restores with the server stopped: the backup’s links redirect, a later link is gone, the file is private', async () => {
    assert.equal(await server!.stop(), 0);
    server = undefined;
    const out = await cli('restore', backupFile);
    assert.match(out, /^restored .*brief-1\.db into .*brief\.db: \d+ live links, \d+ migrations applied\n/);
    assert.equal(mode(live), '600');
    for (const suffix of ['-wal', '-shm', '-journal', '.restoring']) assert.equal(fs.existsSync(live + suffix), false, suffix);

    server = await ServerProcess.start(env);
    for (const key of [before_[0]!, before_[1999]!, before_.at(-1)!]) {
      const res = await visit(key);
      assert.equal(res.status, 301, `${key}: ${res.body}`);
    }
    assert.equal((await visit(madeAfter)).status, 404);
    // The account and its token came back with the links.
    assert.equal((await request(server.port, 'GET', '/v3/shorten/list', auth)).status, 200);
  });

  it('restores over a damaged database once it is moved away (it cannot tell whether a server has a damaged file open)', async () => {
    assert.equal(await server!.stop(), 0);
    server = undefined;
    fs.writeFileSync(live, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4000, 7)]));
    await cliFails(/cannot be checked .*stop the server, move the file away, then run brief restore again$/, ['restore', backupFile]);
    fs.renameSync(live, `${live}.damaged`);
    await cli('restore', backupFile);
    assert.equal(mode(live), '600');
    server = await ServerProcess.start(env);
    assert.equal((await visit(before_[0]!)).status, 301);
  });

  it('on PostgreSQL says pg_dump / pg_restore is the tool, without connecting', async () => {
    const postgres = { DATABASE_URL: 'postgres://brief@127.0.0.1:1/nowhere' };
    await cliFails(/^brief: brief backup is for SQLite; DATABASE_URL is PostgreSQL: use pg_dump/, ['backup', path.join(dir, 'pg.db')], postgres);
    await cliFails(/^brief: brief restore is for SQLite; DATABASE_URL is PostgreSQL: use pg_restore/, ['restore', backupFile], postgres);
    assert.equal(fs.existsSync(path.join(dir, 'pg.db')), false);
  });
});
