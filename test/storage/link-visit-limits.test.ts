// A link's visit limit in storage, on every dialect (decision 0039): migration 0022 leaves every existing link without
// one; a limit is stored, read into the record and (only when there is one) into the redirect's target with the visits
// counted so far, changed and removed by an edit, and keeps the link out of the link index; the visit-limit store adds
// every instance's visits to one total and reads totals back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { databaseBefore, dialects, newLink, openTestDatabase, type TestDatabase } from '../support/database.js';

const BEFORE = '0021-link-rules';
let counter = 0;
const draw = () => `vl${Date.now().toString(36)}${++counter}`;

for (const dialect of dialects) {
  describe(`migration 0022: link visit limits (${dialect})`, () => {
    it('leaves every link made before it without a limit and with no visits counted', async () => {
      const { database, cleanup } = await databaseBefore(dialect, BEFORE);
      try {
        const applied = await migrateToLatest(database);
        assert.equal(applied[0], '0022-link-visit-limits');
        const link = await database.links.findByKey('short.test', 'oldcode');
        assert.equal(link?.maxVisits, null);
        const target = await database.links.target('short.test', 'oldcode');
        assert.equal(target && 'visitLimit' in target, false, 'an ordinary target has no such property');
        const row = await database.db.selectFrom('links').select('limited_visits').where('key', '=', 'oldcode').executeTakeFirstOrThrow();
        assert.equal(Number(row.limited_visits), 0);
      } finally {
        await cleanup();
      }
    });
  });

  describe(`link store: visit limits (${dialect})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(dialect);
    });
    after(() => t.cleanup());

    it('stores a limit, reads it into the record and the target with the visits counted, changes and removes it', async () => {
      const made = await t.database.links.create(newLink(`https://example.com/${draw()}`, { maxVisits: 3 }));
      assert.ok('created' in made);
      const link = made.created;
      assert.equal(link.maxVisits, 3);
      const { domain, key } = link;
      assert.deepEqual((await t.database.links.target(domain, key))?.visitLimit, { max: 3, counted: 0 });
      const reads = t.database.links.syncReads;
      if (reads !== undefined) assert.deepEqual(reads.target(domain, key)?.visitLimit, { max: 3, counted: 0 }, 'the redirect’s own read too');

      const totals = await t.database.visitLimits.add([[link.id, 2]], [link.id]);
      assert.equal(totals.get(link.id), 2);
      // Another instance's visits add to the same total.
      assert.equal((await t.database.visitLimits.add([[link.id, 5]], [link.id])).get(link.id), 7);
      assert.equal((await t.database.visitLimits.add([], [link.id])).get(link.id), 7, 'a read alone adds nothing');
      assert.deepEqual((await t.database.links.target(domain, key))?.visitLimit, { max: 3, counted: 7 });

      const raised = await t.database.links.update(link, { maxVisits: 10 });
      assert.equal(raised?.maxVisits, 10);
      assert.equal(raised?.reusable, false, 'a limit takes the link out of dedupe');
      assert.deepEqual((await t.database.links.target(domain, key))?.visitLimit, { max: 10, counted: 7 });
      const removed = await t.database.links.update(link, { maxVisits: null });
      assert.equal(removed?.maxVisits, null);
      const target = await t.database.links.target(domain, key);
      assert.equal(target && 'visitLimit' in target, false);
    });

    it('keeps a link with a limit out of the link index loader', async () => {
      const reads = t.database.links.syncReads;
      if (reads === undefined) return; // the link index is SQLite's
      const limited = await t.database.links.create(newLink(`https://example.com/${draw()}`, { maxVisits: 1 }));
      const plain = await t.database.links.create(newLink(`https://example.com/${draw()}`));
      assert.ok('created' in limited && 'created' in plain);
      const indexed = new Set<number>();
      reads.eachNewest(1_000, (_domain, _key, id) => indexed.add(id));
      assert.ok(indexed.has(plain.created.id));
      assert.ok(!indexed.has(limited.created.id));
    });

    it('answers no total for an id with no link', async () => {
      assert.equal((await t.database.visitLimits.add([], [987_654_321])).has(987_654_321), false);
    });
  });
}
