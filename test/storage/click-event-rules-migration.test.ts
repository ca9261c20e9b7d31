// Migration 0023 on every dialect (decision 0039, "What a visit took"): click events get a nullable `rule`, null for
// every event written before it; events written after it keep what their visit took.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, migrateUpTo } from '../../src/storage/migrate.js';
import { dialects, openTestDatabase } from '../support/database.js';
import { personVisit } from '../support/events.js';

const BEFORE = '0022-link-visit-limits';

for (const dialect of dialects) {
  describe(`migration 0023: click event rules (${dialect})`, () => {
    it('leaves the events written before it without a rule, and stores the rule of those written after', async () => {
      const { database, cleanup } = await openTestDatabase(dialect, { migrate: false });
      try {
        await migrateUpTo(database, BEFORE);
        await sql`insert into accounts (name, created_at) values ('rules', 1000)`.execute(database.db);
        const owner = await database.db.selectFrom('accounts').select('id').where('name', '=', 'rules').executeTakeFirstOrThrow();
        await sql`insert into links (code, domain, key, slug, url, url_hash, title, account_id, status, created_at)
          values ('rulecode', 'short.test', 'rulecode', null, 'https://example.com/old', ${Buffer.alloc(32)}, null, ${owner.id}, 'public', 1)`.execute(
          database.db,
        );
        const link = await database.db.selectFrom('links').select('id').where('key', '=', 'rulecode').executeTakeFirstOrThrow();
        await sql`insert into click_events (time, link_id, account_id, browser, clicks) values (1000, ${link.id}, ${owner.id}, 'Firefox', 2)`.execute(
          database.db,
        );
        const applied = await migrateToLatest(database);
        assert.equal(applied[0], '0023-click-event-rules');
        const old = await database.db.selectFrom('click_events').select(['rule', 'browser', 'clicks']).executeTakeFirstOrThrow();
        assert.deepEqual({ ...old, clicks: Number(old.clicks) }, { rule: null, browser: 'Firefox', clicks: 2 });
        await database.analytics.add({
          writer: 'migration-0023',
          seq: 1,
          events: [{ ...personVisit(Number(link.id), 2000), rule: 'rules.3.split.1' }],
        });
        const rules = await database.db.selectFrom('click_events').select('rule').orderBy('time').execute();
        assert.deepEqual(
          rules.map((row) => row.rule),
          [null, 'rules.3.split.1'],
        );
      } finally {
        await cleanup();
      }
    });
  });
}
