// Migration 0024 on every dialect (decision 0040): a link made before it has no tags, can be given some after it, and
// a workspace holds one tag per name whatever its case (the unique index, not a check in code).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { databaseBefore, dialects } from '../support/database.js';

const BEFORE = '0023-click-event-rules';

for (const dialect of dialects) {
  describe(`migration 0024: link tags (${dialect})`, () => {
    it('leaves the links made before it untagged, tags them after it, and keeps one tag per name and workspace', async () => {
      const { database, old, cleanup } = await databaseBefore(dialect, BEFORE, 'tagcode');
      try {
        const applied = await migrateToLatest(database);
        assert.equal(applied[0], '0024-link-tags');
        assert.deepEqual(await database.tags.tagsOf([old.linkId]), new Map());
        assert.deepEqual(await database.tags.list(old.accountId), []);
        await database.tags.setTags(old.accountId, [{ linkId: old.linkId, tags: ['Old', 'links'] }]);
        assert.deepEqual(await database.tags.tagsOf([old.linkId]), new Map([[old.linkId, ['links', 'Old']]]));
        await assert.rejects(
          sql`insert into tags (account_id, name, name_key, created_at) values (${old.accountId}, 'OLD', 'old', 1)`.execute(database.db),
        );
        const [count] = (await sql<{ n: number }>`select count(*) as n from tags`.execute(database.db)).rows;
        assert.equal(Number(count!.n), 2);
      } finally {
        await cleanup();
      }
    });
  });
}
