// Storage on every dialect: migrations, durability settings, group commit, the invariants' indexes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';

for (const dialect of dialects) {
  describe(`storage (${dialect})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(dialect);
    });
    after(async () => {
      await t.cleanup();
    });

    const link = (code: string, extra: Record<string, unknown> = {}) => ({
      code,
      domain: 'short.test',
      key: code,
      slug: null,
      url: `https://example.com/${code}`,
      url_hash: createHash('sha256').update(`https://example.com/${code}`).digest(),
      title: null,
      account_id: 1,
      status: 'public' as const,
      created_at: Date.now(),
      deleted_at: null,
      ...extra,
    });

    it('migrates once and then has nothing left to do; the anonymous account exists', async () => {
      assert.deepEqual(await migrateToLatest(t.database), []);
      const anonymous = await t.database.db.selectFrom('accounts').select('id').where('name', '=', 'anonymous').executeTakeFirst();
      assert.ok(anonymous);
    });

    if (dialect === 'sqlite') {
      it('runs SQLite in WAL mode with synchronous=FULL', async () => {
        const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(t.database.db);
        assert.equal(mode.rows[0]?.journal_mode, 'wal');
        const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(t.database.db);
        assert.equal(sync.rows[0]?.synchronous, 2);
      });
    }

    it('commits concurrent writes, and a failing write fails alone', async () => {
      const results = await Promise.allSettled([
        t.database.write((db) => db.insertInto('links').values(link('gc-one')).execute()),
        t.database.write((db) =>
          db
            .insertInto('links')
            .values(link('gc-one', { domain: 'pub.test' }))
            .execute(),
        ),
        t.database.write((db) => db.insertInto('links').values(link('gc-two')).execute()),
      ]);
      // The two writes of gc-one race on PostgreSQL, where writes run concurrently: either may be the one refused.
      assert.deepEqual(
        results
          .slice(0, 2)
          .map((r) => r.status)
          .sort(),
        ['fulfilled', 'rejected'],
      );
      assert.equal(results[2]?.status, 'fulfilled');
      const codes = await t.database.db.selectFrom('links').select('code').where('code', 'in', ['gc-one', 'gc-two']).orderBy('code').execute();
      assert.deepEqual(
        codes.map((r) => r.code),
        ['gc-one', 'gc-two'],
      );
    });

    it('undoes what a write did before it threw, and only that', async () => {
      const results = await Promise.allSettled([
        t.database.write(async (db) => {
          await db.insertInto('links').values(link('undone')).execute();
          throw new Error('changed its mind');
        }),
        t.database.write((db) => db.insertInto('links').values(link('kept')).execute()),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['rejected', 'fulfilled'],
      );
      const codes = await t.database.db.selectFrom('links').select('code').where('code', 'in', ['undone', 'kept']).execute();
      assert.deepEqual(
        codes.map((r) => r.code),
        ['kept'],
      );
    });

    it('refuses a second link with a code, even if the first is deleted', async () => {
      await t.database.db
        .insertInto('links')
        .values(link('once', { deleted_at: Date.now() }))
        .execute();
      await assert.rejects(
        t.database.db
          .insertInto('links')
          .values(link('once', { key: 'elsewhere', domain: 'pub.test' }))
          .execute(),
      );
    });

    it('refuses a second link on one domain and key', async () => {
      await t.database.db
        .insertInto('links')
        .values(link('dk-a', { key: 'same-key', slug: 'same-key' }))
        .execute();
      await assert.rejects(
        t.database.db
          .insertInto('links')
          .values(link('dk-b', { key: 'same-key', slug: 'same-key' }))
          .execute(),
      );
      await t.database.db
        .insertInto('links')
        .values(link('dk-c', { key: 'same-key', slug: 'same-key', domain: 'pub.test' }))
        .execute();
    });

    it('allows one live slug-less link per account, domain and URL', async () => {
      const hash = createHash('sha256').update('https://example.com/dedupe').digest();
      const same = { url: 'https://example.com/dedupe', url_hash: hash };
      await t.database.db.insertInto('links').values(link('dd-a', same)).execute();
      await assert.rejects(t.database.db.insertInto('links').values(link('dd-b', same)).execute());
      // A slugged link, another domain, or after deletion: allowed.
      await t.database.db
        .insertInto('links')
        .values(link('dd-c', { ...same, slug: 'dd-c' }))
        .execute();
      await t.database.db
        .insertInto('links')
        .values(link('dd-d', { ...same, domain: 'pub.test' }))
        .execute();
      await t.database.db.updateTable('links').set({ deleted_at: Date.now() }).where('code', '=', 'dd-a').execute();
      await t.database.db.insertInto('links').values(link('dd-e', same)).execute();
    });
  });
}
