// A link's card in storage, on every dialect (decision 0041): migration 0025 leaves every existing link without one; a
// card is stored in its three columns, read into the record and (only when there is one) into the redirect's target,
// replaced and removed by an edit, takes the link out of dedupe, and keeps it out of the link index.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { databaseBefore, dialects, newLink, openTestDatabase, type TestDatabase } from '../support/database.js';

const BEFORE = '0023-click-event-rules';
const CARD = { title: 'Spring sale', description: 'Until Sunday.', image: 'https://img.example.com/sale.jpg' };
let counter = 0;
const draw = () => `pv${Date.now().toString(36)}${++counter}`;

for (const dialect of dialects) {
  describe(`migration 0025: link previews (${dialect})`, () => {
    it('leaves every link made before it without a card', async () => {
      const { database, cleanup } = await databaseBefore(dialect, BEFORE);
      try {
        const applied = await migrateToLatest(database);
        assert.ok(applied.includes('0025-link-previews'), applied.join());
        const link = await database.links.findByKey('short.test', 'oldcode');
        assert.equal(link?.preview, null);
        const target = await database.links.target('short.test', 'oldcode');
        assert.equal(target && 'preview' in target, false, 'an ordinary target has no such property');
      } finally {
        await cleanup();
      }
    });
  });

  describe(`link store: previews (${dialect})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(dialect);
    });
    after(() => t.cleanup());

    it('stores a card, reads it into the record and the target, replaces and removes it', async () => {
      const made = await t.database.links.create(newLink(`https://example.com/${draw()}`, { preview: CARD }));
      assert.ok('created' in made);
      const link = made.created;
      assert.deepEqual(link.preview, CARD);
      assert.deepEqual((await t.database.links.findByKey(link.domain, link.key))?.preview, CARD, 'as read back');
      assert.deepEqual((await t.database.links.target(link.domain, link.key))?.preview, CARD);
      const reads = t.database.links.syncReads;
      if (reads !== undefined) assert.deepEqual(reads.target(link.domain, link.key)?.preview, CARD, 'the redirect’s own read too');

      const small = { title: 'Only a title', description: null, image: null };
      const replaced = await t.database.links.update(link, { preview: small });
      assert.deepEqual(replaced?.preview, small);
      assert.deepEqual((await t.database.links.target(link.domain, link.key))?.preview, small);
      const removed = await t.database.links.update(link, { preview: null });
      assert.equal(removed?.preview, null);
      const target = await t.database.links.target(link.domain, link.key);
      assert.equal(target && 'preview' in target, false);
    });

    it('takes a link given a card out of dedupe', async () => {
      const made = await t.database.links.create(newLink(`https://example.com/${draw()}`, { reusable: true }));
      assert.ok('created' in made);
      assert.equal(made.created.reusable, true);
      assert.equal((await t.database.links.update(made.created, { preview: CARD }))?.reusable, false);
    });

    it('keeps a link with a card out of the link index loader', async () => {
      const reads = t.database.links.syncReads;
      if (reads === undefined) return; // the link index is SQLite's
      const carded = await t.database.links.create(newLink(`https://example.com/${draw()}`, { preview: CARD }));
      const plain = await t.database.links.create(newLink(`https://example.com/${draw()}`));
      assert.ok('created' in carded && 'created' in plain);
      const indexed = new Set<number>();
      reads.eachNewest(1_000, (_domain, _key, id) => indexed.add(id));
      assert.ok(indexed.has(plain.created.id));
      assert.ok(!indexed.has(carded.created.id));
    });
  });
}
