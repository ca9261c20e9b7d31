// Migration 0012 on every dialect, on a database made by the schema before it: the links made before
// keep their random codes (and slugs, even code-shaped ones) and keep resolving; new links get codes
// made from their ids; a slug never takes a code stored before.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { migrateToLatest, migrateUpTo } from '../../src/storage/migrate.js';
import { permutationOf } from '../../src/storage/sql/link-codes.js';
import type { Tables } from '../../src/storage/tables.js';
import { dialects, newLink, openTestDatabase } from '../support/database.js';

const BEFORE = '0011-link-imports';
const DOMAIN = 'old.test';

/** A link row as the schema before 0012 wrote it: a random code, the key the slug or the code. */
async function oldLink(db: Kysely<Tables>, code: string, slug: string | null, url: string): Promise<number> {
  const row = await (db as unknown as Kysely<any>)
    .insertInto('links')
    .values({
      code,
      domain: DOMAIN,
      key: slug ?? code,
      slug,
      url,
      url_hash: createHash('sha256').update(url).digest(),
      account_id: 1,
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

for (const dialect of dialects) {
  describe(`migration 0012, codes made from ids (${dialect})`, () => {
    it('keeps the stored codes and slugs resolving, makes new codes from ids, and keeps the namespace whole', async () => {
      const t = await openTestDatabase(dialect, { migrate: false });
      try {
        const { database } = t;
        await migrateUpTo(database, BEFORE);
        const coded = await oldLink(database.db, 'Old1234', null, 'https://example.com/old-coded');
        const slugged = await oldLink(database.db, 'Zz9Yy8X', 'Promo24', 'https://example.com/old-slug');
        await migrateToLatest(database);

        const secret = await database.db.selectFrom('link_code_secret').select('secret').executeTakeFirstOrThrow();
        assert.equal(secret.secret.length, 32);

        // Both keep resolving, at their keys and (bare) by their codes.
        assert.equal((await database.links.target(DOMAIN, 'Old1234'))?.id, coded);
        assert.equal((await database.links.target(DOMAIN, 'Promo24'))?.id, slugged);
        assert.equal((await database.links.findByKey(DOMAIN, 'Old1234'))?.id, coded);
        assert.equal((await database.links.findByCode('Zz9Yy8X', undefined))?.id, slugged);
        assert.equal(await database.links.target(DOMAIN, 'Zz9Yy8X'), null, 'a slugged link answers at its slug only');

        // A new link: its code is made from its id, after the old ids.
        const made = await database.links.create(newLink('https://example.com/new', { domain: DOMAIN }));
        assert.ok('created' in made);
        const codes = await permutationOf(database.db);
        assert.ok(made.created.id > slugged);
        assert.equal(codes.decode(made.created.code), made.created.id);
        assert.equal(made.created.key, made.created.code);
        assert.equal((await database.links.target(DOMAIN, made.created.code))?.id, made.created.id);

        // The stored keys still hold their places: an old slug or code cannot be taken by a new slug.
        for (const slug of ['Promo24', 'Old1234']) {
          const again = await database.links.create(newLink('https://example.com/again', { domain: DOMAIN, slug }));
          assert.ok('slugTaken' in again, slug);
        }
      } finally {
        await t.cleanup();
      }
    });
  });
}
