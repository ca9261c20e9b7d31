// Query forwarding's per-link switch in storage, on every dialect (decision 0015): migration 0010 leaves every
// existing link forwarding; the switch is stored, read into the redirect's target only when off, edited, and a link
// with it off stays out of the in-memory link index.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { databaseBefore, dialects, newLink, openTestDatabase, type TestDatabase } from '../support/database.js';

const BEFORE = '0009-domain-verification';
let counter = 0;
const draw = () => `fq${Date.now().toString(36)}${++counter}`;

for (const dialect of dialects) {
  describe(`migration 0010: query forwarding (${dialect})`, () => {
    it('leaves every link made before it forwarding', async () => {
      const { database, cleanup } = await databaseBefore(dialect, BEFORE);
      try {
        const applied = await migrateToLatest(database);
        assert.ok(applied.includes('0010-link-forward-query'), applied.join(', '));
        const link = await database.links.findByKey('short.test', 'oldcode');
        assert.equal(link?.forwardQuery, true);
        const target = await database.links.target('short.test', 'oldcode');
        assert.equal(target && 'forwardQuery' in target, false, 'an ordinary target has no such property');
      } finally {
        await cleanup();
      }
    });
  });

  describe(`link store: forwardQuery (${dialect})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(dialect);
    });
    after(() => t.cleanup());

    it('stores the switch, reads it into the target only when off, and edits it (off leaves dedupe)', async () => {
      const made = await t.database.links.create(newLink(`https://example.com/fq-${draw()}`, { forwardQuery: false }));
      assert.ok('created' in made);
      const link = made.created;
      assert.equal(link.forwardQuery, false);
      assert.deepEqual(await t.database.links.target(link.domain, link.key), { id: link.id, url: link.url, blocked: false, forwardQuery: false });
      const on = await t.database.links.update(link, { forwardQuery: true });
      assert.equal(on?.forwardQuery, true);
      assert.deepEqual(await t.database.links.target(link.domain, link.key), { id: link.id, url: link.url, blocked: false });

      const reusable = await t.database.links.create(newLink(`https://example.com/fq-${draw()}`, { reusable: true }));
      assert.ok('created' in reusable);
      assert.equal(reusable.created.reusable, true);
      const off = await t.database.links.update(reusable.created, { forwardQuery: false });
      assert.deepEqual([off?.forwardQuery, off?.reusable], [false, false]);
    });

    // The link index exists on SQLite files only.
    if (dialect === 'sqlite')
      it('keeps links that do not forward out of the link index', async () => {
        const reads = t.database.links.syncReads!;
        const made = await t.database.links.create(newLink(`https://example.com/fq-${draw()}`, { forwardQuery: false }));
        assert.ok('created' in made);
        const indexed: string[] = [];
        reads.eachNewest(1_000_000, (_domain, key) => indexed.push(key));
        assert.ok(!indexed.includes(made.created.key));
        assert.equal(reads.target(made.created.domain, made.created.key)?.forwardQuery, false);
      });
  });
}
