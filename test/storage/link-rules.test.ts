// A link's redirect rules in storage, on every dialect (decision 0039): migration 0021 leaves every existing link
// without rules; rules are stored in order, read into the record and (only when there are some) into the redirect's
// target, replaced and removed by an edit, and a link with rules stays out of dedupe and out of the link index.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/storage/migrate.js';
import type { StoredRule } from '../../src/storage/stores/links.js';
import { databaseBefore, dialects, newLink, openTestDatabase, type TestDatabase } from '../support/database.js';

const BEFORE = '0020-server-settings';
let counter = 0;
const draw = () => `lr${Date.now().toString(36)}${++counter}`;

const RULES: StoredRule[] = [
  { url: 'https://example.com/android', conditions: [{ type: 'device', value: 'android' }] },
  {
    url: 'https://example.com/campaign',
    conditions: [
      { type: 'query', key: 'utm_source', value: 'news' },
      { type: 'query-any', key: 'ref' },
    ],
  },
];

for (const dialect of dialects) {
  describe(`migration 0021: link rules (${dialect})`, () => {
    it('leaves every link made before it without rules', async () => {
      const { database, cleanup } = await databaseBefore(dialect, BEFORE);
      try {
        const applied = await migrateToLatest(database);
        assert.equal(applied[0], '0021-link-rules');
        const link = await database.links.findByKey('short.test', 'oldcode');
        assert.deepEqual(link?.rules, []);
        const target = await database.links.target('short.test', 'oldcode');
        assert.equal(target && 'rules' in target, false, 'an ordinary target has no such property');
      } finally {
        await cleanup();
      }
    });
  });

  describe(`link store: rules (${dialect})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(dialect);
    });
    after(() => t.cleanup());

    it('stores rules in order, reads them into the record and the target, replaces and removes them', async () => {
      const made = await t.database.links.create(newLink(`https://example.com/${draw()}`, { rules: RULES }));
      assert.ok('created' in made);
      const link = made.created;
      assert.deepEqual(link.rules, RULES);
      assert.deepEqual((await t.database.links.findByKey(link.domain, link.key))?.rules, RULES);
      assert.deepEqual(await t.database.links.target(link.domain, link.key), { id: link.id, url: link.url, blocked: false, rules: RULES });

      const one = [RULES[1]!];
      const replaced = await t.database.links.update(link, { rules: one });
      assert.deepEqual(replaced?.rules, one);
      assert.deepEqual((await t.database.links.target(link.domain, link.key))?.rules, one);

      const removed = await t.database.links.update(link, { rules: [] });
      assert.deepEqual(removed?.rules, []);
      assert.deepEqual(await t.database.links.target(link.domain, link.key), { id: link.id, url: link.url, blocked: false });
      const stored = await t.database.db.selectFrom('links').select('rules').where('id', '=', link.id).executeTakeFirstOrThrow();
      assert.equal(stored.rules, null, 'no rules: null, not an empty list');
    });

    it('stores the rules of links made together, and an edit with rules takes a link out of dedupe', async () => {
      const [first, second] = await t.database.links.createMany([
        newLink(`https://example.com/${draw()}`, { rules: RULES }),
        newLink(`https://example.com/${draw()}`),
      ]);
      assert.ok(first && 'created' in first && second && 'created' in second);
      assert.deepEqual(first.created.rules, RULES);
      assert.deepEqual(second.created.rules, []);

      const reusable = await t.database.links.create(newLink(`https://example.com/${draw()}`, { reusable: true }));
      assert.ok('created' in reusable);
      const ruled = await t.database.links.update(reusable.created, { rules: RULES });
      assert.deepEqual([ruled?.rules, ruled?.reusable], [RULES, false]);
    });

    // The link index exists on SQLite files only.
    if (dialect === 'sqlite')
      it('keeps links with rules out of the link index', async () => {
        const reads = t.database.links.syncReads!;
        const made = await t.database.links.create(newLink(`https://example.com/${draw()}`, { rules: RULES }));
        assert.ok('created' in made);
        const indexed: string[] = [];
        reads.eachNewest(1_000_000, (_domain, key) => indexed.push(key));
        assert.ok(!indexed.includes(made.created.key));
        assert.deepEqual(reads.target(made.created.domain, made.created.key)?.rules, RULES);
      });
  });
}
