// Start-up migration on PostgreSQL: instances that start together must not both migrate.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PostgresAdapter } from 'kysely';
import { openDatabase } from '../../src/storage/database.js';
import { knownMigrations, migrateToLatest } from '../../src/storage/migrate.js';
import { adminQuery, createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../scale-support/test-services.js';

// Derived from the code's list, so a new migration needs no edit here.
const ALL_MIGRATIONS = knownMigrations();

if (TEST_DATABASE_URL) {
  const serverUrl = TEST_DATABASE_URL;

  describe('PostgreSQL migrations', () => {
    let testDb: TestDatabase;

    before(async () => {
      testDb = await createTestDatabase(serverUrl);
    });
    after(async () => {
      await testDb?.drop();
    });

    it('runs each migration once when several instances migrate at the same moment', async () => {
      const instances = Array.from({ length: 6 }, () => openDatabase({ kind: 'postgres', url: testDb.url }, { poolMax: 2 }));
      try {
        const applied = await Promise.all(instances.map((db) => migrateToLatest(db)));
        // Exactly one instance applied the migrations; the others waited on the advisory lock
        // and then found nothing left to do.
        assert.deepEqual(
          applied.filter((names) => names.length > 0),
          [ALL_MIGRATIONS],
        );
        const rows = await adminQuery<{ n: number }>(testDb.url, `select count(*)::int as n from accounts where name = 'anonymous'`);
        assert.equal(rows[0]!.n, 1);
        const recorded = await adminQuery<{ name: string }>(testDb.url, 'select name from kysely_migration order by name');
        assert.deepEqual(
          recorded.map((r) => r.name),
          ALL_MIGRATIONS,
        );
        // Again, later: nothing to do.
        assert.deepEqual(await migrateToLatest(instances[0]!), []);
      } finally {
        await Promise.all(instances.map((db) => db.close()));
      }
    });

    it('makes a second migrator wait while the migration lock is held', async () => {
      // Take the migrator's own lock (the adapter's advisory lock), as a migrating instance
      // would, and show that another migration waits for it instead of running alongside.
      const holder = openDatabase({ kind: 'postgres', url: testDb.url }, { poolMax: 1 });
      const waiter = openDatabase({ kind: 'postgres', url: testDb.url }, { poolMax: 1 });
      const lockOptions = { lockTable: 'kysely_migration_lock', lockRowId: 'migration_lock', lockTableSchema: undefined };
      try {
        await holder.db.connection().execute(async (conn) => {
          await new PostgresAdapter().acquireMigrationLock(conn, lockOptions);
          let finished = false;
          const migrating = migrateToLatest(waiter).then(() => (finished = true));
          await new Promise((resolve) => setTimeout(resolve, 300));
          assert.equal(finished, false, 'a migration ran while another instance held the migration lock');
          await new PostgresAdapter().releaseMigrationLock(conn, lockOptions);
          await migrating;
          assert.equal(finished, true);
        });
      } finally {
        await Promise.all([holder.close(), waiter.close()]);
      }
    });
  });
}
