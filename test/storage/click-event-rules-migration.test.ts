// Migration 0023 on every dialect (decision 0039, "What a visit took"): click events get a nullable `rule`, null for
// every event written before it; events written after it keep what their visit took.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { databaseBefore, dialects } from '../support/database.js';
import { personVisit } from '../support/events.js';

const BEFORE = '0022-link-visit-limits';

for (const dialect of dialects) {
  describe(`migration 0023: click event rules (${dialect})`, () => {
    it('leaves the events written before it without a rule, and stores the rule of those written after', async () => {
      const { database, old, cleanup } = await databaseBefore(dialect, BEFORE, 'rulecode');
      try {
        await sql`insert into click_events (time, link_id, account_id, browser, clicks) values (1000, ${old.linkId}, ${old.accountId}, 'Firefox', 2)`.execute(
          database.db,
        );
        const applied = await migrateToLatest(database);
        assert.equal(applied[0], '0023-click-event-rules');
        const earlier = await database.db.selectFrom('click_events').select(['rule', 'browser', 'clicks']).executeTakeFirstOrThrow();
        assert.deepEqual({ ...earlier, clicks: Number(earlier.clicks) }, { rule: null, browser: 'Firefox', clicks: 2 });
        await database.analytics.add({
          writer: 'migration-0023',
          seq: 1,
          events: [{ ...personVisit(old.linkId, 2000), rule: 'rules.3.split.1' }],
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
