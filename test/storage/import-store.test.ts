// The import store on PostgreSQL (src/storage/postgres/import-store.ts): its lookups of the rows imported before
// and of the keys taken are planned from the tables' statistics, which the import refreshes itself as it
// grows the tables (autovacuum may be late, or off as on this machine).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { ImportedLink } from '../../src/storage/stores/imports.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';

const link = (n: number, accountId: number): ImportedLink => ({
  originKey: `/stats-${n}`,
  accountId,
  domain: 'short.test',
  key: `stats-${n}`,
  keyIsCode: false,
  url: `https://example.com/stats/${n}`,
  urlHash: randomBytes(32),
  title: null,
  comment: null,
  createdAt: Date.now(),
  expiresAt: null,
  status: 'public',
  clicks: n % 3,
  forwardQuery: true,
  rules: [],
  maxVisits: null,
  limitedVisits: 0,
  tags: [],
});

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
  });
}
