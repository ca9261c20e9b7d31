// The import store on PostgreSQL (src/storage/postgres/import-store.ts): its lookups of the rows imported before
// and of the keys taken are planned from the tables' statistics, which the import refreshes itself as it
// grows the tables (autovacuum may be late, or off as on this machine).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { ImportedLink } from '../../src/storage/stores/imports.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';
import { importedLink } from '../support/imported-links.js';

const link = (n: number, accountId: number): ImportedLink =>
  importedLink({ originKey: `/stats-${n}`, accountId, key: `stats-${n}`, url: `https://example.com/stats/${n}`, clicks: n % 3 });

if (dialects.includes('postgres')) {
  describe('import store (postgres)', () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase('postgres');
    });
    after(async () => {
      await t.cleanup();
    });

    it('refreshes the statistics of the tables it grows once it has imported 10,000 links, and not before', async () => {
      const { db, imports } = t.database;
      const analyzed = async () => {
        const { rows } = await sql<{ relname: string; analyzed: boolean }>`select relname, last_analyze is not null as analyzed
          from pg_stat_user_tables where relname in ('links', 'link_imports') order by relname`.execute(db);
        return rows.map((row) => `${row.relname}: ${row.analyzed}`);
      };
      const batch = (from: number, count: number) => Array.from({ length: count }, (_, i) => link(from + i, 1));
      const first = await imports.write('stats', batch(0, 6000), () => 7, false);
      assert.equal(first.filter((outcome) => 'imported' in outcome).length, 6000);
      assert.deepEqual(await analyzed(), ['link_imports: false', 'links: false']);
      await imports.write('stats', batch(0, 6000), () => 7, false); // all skipped: nothing more imported
      assert.deepEqual(await analyzed(), ['link_imports: false', 'links: false']);
      await imports.write('stats', batch(6000, 4000), () => 7, false);
      assert.deepEqual(await analyzed(), ['link_imports: true', 'links: true']);
      const { rows } = await sql<{ n: string }>`select count(*) as n from link_imports where source = 'stats'`.execute(db);
      assert.equal(Number(rows[0]!.n), 10_000);
    });

    it("writes each link's card on both of its ways: a chunk's one insert, and the one-row way of a chunk with a taken key", async () => {
      const { db, imports } = t.database;
      const card = (n: number) => ({ title: `Card ${n}, "quoted"`, description: n === 1 ? null : 'ünï', image: `https://img.example/${n}.png` });
      const carded = (n: number, key = `card-${n}`) => ({ ...link(n, 1), originKey: `/${key}`, key, preview: card(n) });
      await imports.write('cards', [link(900_000, 1)], () => 7, false); // holds stats-900000
      // The key taken sends its whole chunk the one-row way (writeRow); the next chunk is one insert (insertRows).
      const oneRow = await imports.write('cards-again', [carded(1), link(900_000, 1), carded(2, 'card-2')], () => 7, false);
      assert.deepEqual(
        oneRow.map((outcome) => Object.keys(outcome)[0]),
        ['imported', 'keyTaken', 'imported'],
      );
      await imports.write('cards-again', [carded(3), { ...link(900_001, 1), originKey: '/plain', key: 'plain' }], () => 7, false);
      const stored = await db
        .selectFrom('links')
        .select(['key', 'preview_title', 'preview_description', 'preview_image'])
        .where('key', 'in', ['card-1', 'card-2', 'card-3', 'plain'])
        .orderBy('key')
        .execute();
      assert.deepEqual(stored, [
        ...[1, 2, 3].map((n) => ({
          key: `card-${n}`,
          preview_title: card(n).title,
          preview_description: card(n).description,
          preview_image: card(n).image,
        })),
        { key: 'plain', preview_title: null, preview_description: null, preview_image: null },
      ]);
    });
  });
}
