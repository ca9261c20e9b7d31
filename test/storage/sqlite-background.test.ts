// The SQLite background thread runs the typed click write (storage/sql/click-writes.ts) on a
// connection of its own, so the server's event loop does not.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { startSqliteBackground } from '../../src/storage/sqlite/background.js';
import { openSqliteConnection, type SqliteConnection } from '../../src/storage/sqlite/connection.js';
import { SqliteImportStore } from '../../src/storage/sqlite/import-store.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { importedLink } from '../support/imported-links.js';

describe('SQLite background thread', () => {
  let t: TestDatabase;
  let connection: SqliteConnection;
  before(async () => {
    t = await openTestDatabase('sqlite');
    connection = openSqliteConnection(t.url.slice('sqlite:'.length));
  });
  after(async () => {
    await connection.close();
    await t.cleanup();
  });

  it('runs for a file, and applies click batches once per writer and number', async () => {
    const background = connection.background;
    assert.ok(background, 'a SQLite file has a background thread');
    await background.addClicks({
      writer: 'bg',
      seq: 1,
      clicks: [
        [501, 2],
        [502, 1],
      ],
    });
    await background.addClicks({
      writer: 'bg',
      seq: 1,
      clicks: [
        [501, 2],
        [502, 1],
      ],
    });
    await background.addClicks({ writer: 'bg', seq: 2, clicks: [[501, 3]] });
    assert.equal(background.running, true, 'the thread is alive: the clicks were not applied by a fall-back');
    const rows = await t.database.db
      .selectFrom('link_clicks')
      .select(['link_id', 'clicks'])
      .where('link_id', 'in', [501, 502])
      .orderBy('link_id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [Number(r.link_id), Number(r.clicks)]),
      [
        [501, 5],
        [502, 1],
      ],
    );
  });

  it('starts no batch while a write of the server’s connection is under way, and starts it after', async () => {
    const background = connection.background!;
    background.priority.enter();
    let done = false;
    const applied = background.addClicks({ writer: 'bg-priority', seq: 1, clicks: [[601, 1]] }).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(done, false, 'the batch waits for the server’s write');
    background.priority.leave();
    await applied;
    const row = await t.database.db.selectFrom('link_clicks').select('clicks').where('link_id', '=', 601).executeTakeFirst();
    assert.equal(Number(row?.clicks), 1);
  });

  it('starts the WAL over under a steady stream of commits, so the file stays bounded', async () => {
    // A passive checkpoint never catches up with commits that keep coming, and SQLite only writes
    // the WAL from its start again once one has: without the thread's RESTART the file grows with
    // everything written (~80 MB a second under bulk creates in the benchmark; ~65 MB here).
    // The writer cuts the file back when it starts the WAL over (journal_size_limit, as the server's
    // connection does), so each restart shows as the file getting smaller. How many commits pass
    // before the thread gets its turn depends on the machine's load (up to its MAX_THREAD_WAIT_MS),
    // so the test looks at the typical size late in the run (a median), not at the largest.
    const walSizes = async (walRestartFrames: number) => {
      const own = await openTestDatabase('sqlite');
      const file = own.url.slice('sqlite:'.length);
      const sqlite = new SQLite(file);
      sqlite.pragma('journal_size_limit = 0');
      const background = startSqliteBackground(sqlite, file, { checkpointMs: 5, walRestartFrames });
      await background.addClicks({ writer: 'wal', seq: 1, clicks: [[1, 1]] }); // the thread is up
      sqlite.exec('create table t (k blob primary key, v blob)');
      const insert = sqlite.prepare('insert into t values (?, ?)');
      const commit = sqlite.transaction(() => {
        for (let i = 0; i < 400; i++) insert.run(randomBytes(16), randomBytes(100));
      });
      const sizes: number[] = [];
      for (let i = 0; i < 300; i++) {
        // As the group commit does: in the server's turn, then a turn of the event loop.
        await background.priority.enter();
        commit();
        background.priority.leave();
        sizes.push(fs.statSync(`${file}-wal`).size);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await background.stop();
      sqlite.close();
      await own.cleanup();
      return sizes;
    };
    const sizes = await walSizes(256);
    // Without the RESTART: ~35 MB over the last 100 commits (a passive checkpoint catches up a few
    // times early on, while the commits are small); with it, ~1.5 MB on a quiet machine.
    const late = sizes.slice(-100).sort((a, b) => a - b)[50] ?? Number.POSITIVE_INFINITY;
    const restarts = sizes.filter((size, i) => i > 0 && size < (sizes[i - 1] ?? 0)).length;
    const seen = `${(late / 1e6).toFixed(1)} MB over the last 100 commits, ${(Math.max(...sizes) / 1e6).toFixed(1)} MB at most, ${restarts} restarts`;
    assert.ok(late < 16 * 1024 * 1024, `the WAL grew with what was written: ${seen}`);
  });

  it('writes an import batch in a transaction of its own, outcomes in order; a dry run leaves nothing', async () => {
    const background = connection.background!;
    const account = await t.database.db
      .insertInto('accounts')
      .values({ name: 'bg-import', created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const link = (key: string | null, originKey: string) => ({
      originKey,
      accountId: Number(account.id),
      domain: 'short.test',
      key,
      keyIsCode: false,
      url: `https://example.com/${originKey}`,
      urlHash: randomBytes(32),
      title: null,
      comment: null,
      createdAt: Date.now(),
      expiresAt: null,
      status: 'public' as const,
      clicks: 4,
      forwardQuery: true,
      rules: [],
      maxVisits: null,
      limitedVisits: 0,
      tags: originKey === 'a' ? ['Thread', 'bg'] : [],
      preview: originKey === 'a' ? { title: 'Thread card', description: null, image: 'https://img.example/bg.png' } : null,
    });
    const batch = (dryRun: boolean) => ({
      source: 'bg-test',
      codeLengths: { 'short.test': 7 },
      dryRun,
      links: [link('bg-one', 'a'), link(null, 'b'), link('bg-one', 'c')],
    });
    const dry = await background.importLinks(batch(true));
    assert.equal(dry.length, 3);
    assert.equal((await t.database.db.selectFrom('link_imports').select('link_id').where('source', '=', 'bg-test').execute()).length, 0);
    const outcomes = await background.importLinks(batch(false));
    assert.deepEqual(dry, outcomes, 'the dry run said what the real one did');
    const [first, second, third] = outcomes as Array<{ imported?: { id: number; key: string } }>;
    assert.equal(first!.imported!.key, 'bg-one');
    assert.match(second!.imported!.key, /^[0-9A-Za-z]{7}$/);
    assert.deepEqual(third, { keyTaken: true });
    assert.equal(background.running, true);
    const stored = await t.database.db
      .selectFrom('links')
      .innerJoin('link_clicks', 'link_clicks.link_id', 'links.id')
      .select(['links.key', 'links.url', 'link_clicks.clicks'])
      .where('links.id', 'in', [first!.imported!.id, second!.imported!.id])
      .orderBy('links.id')
      .execute();
    assert.deepEqual(
      stored.map((row) => [row.key, row.url, Number(row.clicks)]),
      [
        ['bg-one', 'https://example.com/a', 4],
        [second!.imported!.key, 'https://example.com/b', 4],
      ],
    );
    assert.deepEqual(await t.database.tags.tagsOf([first!.imported!.id, second!.imported!.id]), new Map([[first!.imported!.id, ['bg', 'Thread']]]));
    assert.deepEqual(
      await t.database.db
        .selectFrom('links')
        .select(['preview_title', 'preview_description', 'preview_image'])
        .where('id', 'in', [first!.imported!.id, second!.imported!.id])
        .orderBy('id')
        .execute(),
      [
        { preview_title: 'Thread card', preview_description: null, preview_image: 'https://img.example/bg.png' },
        { preview_title: null, preview_description: null, preview_image: null },
      ],
      'the card written on the thread, and none where the row had none',
    );
    assert.deepEqual(
      await background.importLinks(batch(false)),
      [{ skipped: true }, { skipped: true }, { keyTaken: true }],
      'a second run skips them',
    );
  });

  it('once the thread has stopped, an import batch is written on the connection itself', async () => {
    const account = await t.database.db
      .insertInto('accounts')
      .values({ name: 'fallback-import', created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await connection.background!.stop();
    assert.equal(connection.background!.running, false);
    const outcomes = await new SqliteImportStore(connection).write(
      'fallback-test',
      [
        importedLink({
          originKey: 'only',
          accountId: Number(account.id),
          key: 'fallback-one',
          url: 'https://example.com/fallback',
          title: 'Fallback',
        }),
      ],
      () => 7,
      false,
      true, // alone on the file: the thread's way, were it running
    );
    assert.equal((outcomes[0] as { imported: { key: string } }).imported.key, 'fallback-one');
    const row = await t.database.db.selectFrom('links').select('title').where('key', '=', 'fallback-one').executeTakeFirst();
    assert.equal(row?.title, 'Fallback');
  });

  it('starts on a new file before the migrations have made its tables, and works once they have', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-background-new-'));
    const file = path.join(dir, 'brief.db');
    const fresh = openSqliteConnection(file);
    try {
      const background = fresh.background;
      assert.ok(background);
      // A reply means the thread has run its start-up, here on a file without tables (the catch-up itself fails).
      await assert.rejects(background.rollUpLinks());
      assert.equal(background.running, true, 'the thread outlives a start on a file without tables');
      const migrating = openDatabase({ kind: 'sqlite', path: file });
      await migrateToLatest(migrating);
      await migrating.close();
      await background.addEvents({ writer: 'fresh-events', seq: 1, events: [] });
      await background.addClicks({ writer: 'fresh', seq: 1, clicks: [[601, 2]] });
      assert.equal(background.running, true);
      const row = await fresh.db.selectFrom('link_clicks').select('clicks').where('link_id', '=', 601).executeTakeFirst();
      assert.equal(Number(row?.clicks), 2);
    } finally {
      await fresh.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has none for an in-memory database', async () => {
    const memory = openSqliteConnection(':memory:');
    assert.equal(memory.background, undefined);
    assert.equal(memory.reader, undefined);
    await memory.close();
  });
});
