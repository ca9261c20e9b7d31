// LinkStore.createMany on every dialect: one write for many links, each coming out as create()
// would make it, in order, later links seeing earlier ones. On SQLite the links go through
// prepared statements and the records are made from the values inserted: they must equal
// what is read back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CreateOutcome, LinkRecord, NewLink } from '../../src/storage/stores/links.js';
import { dialects, openTestDatabase, newLink as plainLink, type TestDatabase } from '../support/database.js';

const DOMAIN = 'many.test';
let counter = 0;

/** A plain link of this suite's domain; made reusable (v2's dedupe) unless `extra` says otherwise. */
const newLink = (url: string, extra: Partial<NewLink> = {}): NewLink => plainLink(url, { domain: DOMAIN, reusable: true, ...extra });

const created = (outcome: CreateOutcome | undefined): LinkRecord => {
  assert.ok(outcome && 'created' in outcome, `created: ${JSON.stringify(outcome)}`);
  return outcome.created;
};

for (const dialect of dialects) {
  describe(`LinkStore.createMany (${dialect})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(dialect);
    });
    after(async () => {
      await t.cleanup();
    });
    const fresh = () => `https://example.com/many/${dialect}/${++counter}`;

    it('makes each link as create() does, in order, with records equal to the rows', async () => {
      const [a, b] = [fresh(), fresh()];
      const expiresAt = Date.now() + 3_600_000;
      const outcomes = await t.database.links.createMany([
        newLink(a, { title: 'A title', comment: 'a note' }),
        newLink(b, { slug: `many-slug-${counter}`, reusable: true }),
        newLink(a, { passwordHash: 'scrypt$x', expiresAt, reusable: false }),
      ]);
      assert.equal(outcomes.length, 3);
      const links = outcomes.map(created);
      for (const link of links) assert.match(link.code, /^[0-9A-Za-z]{7}$/);
      assert.equal(new Set(links.map((link) => link.code)).size, 3);
      assert.ok(links[0]!.id < links[1]!.id && links[1]!.id < links[2]!.id, 'ids in the items’ order');
      assert.equal(links[1]!.key, links[1]!.slug);
      assert.equal(links[2]!.reusable, false);
      for (const link of links) {
        const stored = await t.database.links.findByKey(DOMAIN, link.key);
        assert.deepEqual(link, stored);
      }
      assert.equal(links[0]!.title, 'A title');
      assert.equal(links[2]!.expiresAt, expiresAt);
    });

    it('dedupes against the earlier items of the same call, and makes a new link beside when not asked to reuse', async () => {
      const url = fresh();
      const outcomes = await t.database.links.createMany([newLink(url), newLink(url, { reuseExisting: true }), newLink(url)]);
      const first = created(outcomes[0]);
      assert.ok(outcomes[1] && 'duplicate' in outcomes[1]);
      assert.equal(outcomes[1].duplicate.id, first.id);
      const beside = created(outcomes[2]);
      assert.notEqual(beside.id, first.id);
      assert.equal(beside.reusable, false, 'the new link stays out of dedupe');
      assert.equal((await t.database.links.findDuplicate(1, DOMAIN, newLink(url).urlHash))?.id, first.id);
    });

    it('reports a slug taken earlier in the call, or before it, with the link holding it', async () => {
      const slug = `taken-${++counter}`;
      const [before] = await t.database.links.createMany([newLink(fresh(), { slug })]);
      const holder = created(before);
      const outcomes = await t.database.links.createMany([
        newLink(fresh(), { slug }),
        newLink(fresh(), { slug: `${slug}-b` }),
        newLink(fresh(), { slug: `${slug}-b` }),
      ]);
      assert.ok(outcomes[0] && 'slugTaken' in outcomes[0]);
      assert.equal(outcomes[0].slugTaken.id, holder.id);
      const second = created(outcomes[1]);
      assert.ok(outcomes[2] && 'slugTaken' in outcomes[2]);
      assert.equal(outcomes[2].slugTaken.id, second.id);
    });

    it('writes nothing and fails as a whole when the write fails', async () => {
      const url = fresh();
      await assert.rejects(
        // The second link breaks a NOT NULL constraint.
        t.database.links.createMany([newLink(url), newLink(fresh(), { urlHash: null as unknown as Buffer })]),
      );
      assert.equal(await t.database.links.findDuplicate(1, DOMAIN, newLink(url).urlHash), undefined);
    });
  });
}
