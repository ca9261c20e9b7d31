// Codes and slugs share one namespace per domain (decision 0026), on every dialect: a slug never
// takes a code made from an id on its domain (live or deleted), and no code is ever made equal to a
// key stored before (a slug or code from before 0012, or an import's kept key) on its domain, nor to
// a code stored before anywhere. A code resolves on its own domain, by the id it decodes to.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Dialect } from '../../src/storage/connection.js';
import { type Database, openDatabase } from '../../src/storage/database.js';
import { clashQuery, type KeyOnDomain } from '../../src/storage/postgres/coded-ids.js';
import { permutationOf } from '../../src/storage/sql/link-codes.js';
import type { CreateOutcome, LinkRecord } from '../../src/storage/stores/links.js';
import { dialects, newLink, openTestDatabase, type TestDatabase } from '../support/database.js';

const created = (outcome: CreateOutcome): LinkRecord => {
  assert.ok('created' in outcome, JSON.stringify(outcome));
  return outcome.created;
};

/** What PostgreSQL's EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) says of its top node. */
interface PlanNode {
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
}

/** The id the next link takes, and a way to set it, on either engine. */
async function lastId(database: Database, dialect: Dialect): Promise<number> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'links'`.execute(database.db);
    return Number(rows[0]?.seq ?? 0);
  }
  const { rows } = await sql<{ id: string }>`select nextval(pg_get_serial_sequence('links', 'id')) as id`.execute(database.db);
  return Number(rows[0]!.id);
}

for (const dialect of dialects) {
  describe(`codes and slugs, one namespace (${dialect})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(dialect);
    });
    after(async () => {
      await t.cleanup();
    });

    it('resolves a code on its own domain only, not once deleted, and never the code of a slugged link', async () => {
      const { links } = t.database;
      const link = created(await links.create(newLink('https://example.com/ns-a', { domain: 'a.test' })));
      assert.equal((await links.target('a.test', link.code))?.id, link.id);
      assert.equal(await links.target('b.test', link.code), null);
      assert.equal((await links.findByCode(link.code, undefined))?.id, link.id);
      const slugged = created(await links.create(newLink('https://example.com/ns-s', { domain: 'a.test', slug: 'ns-slug' })));
      assert.equal((await links.target('a.test', 'ns-slug'))?.id, slugged.id);
      assert.equal(await links.target('a.test', slugged.code), null);
      assert.equal(await links.markDeleted(link), true);
      assert.equal(await links.target('a.test', link.code), null);
    });

    it('refuses a slug that is a code made on its domain (another length, deleted too), and takes it on another domain', async () => {
      const { links } = t.database;
      const short = created(await links.create(newLink('https://example.com/ns-short', { domain: 'c.test', codeLength: 5 })));
      assert.equal(short.code.length, 5);
      const taken = await links.create(newLink('https://example.com/ns-x', { domain: 'c.test', slug: short.code }));
      assert.ok('slugTaken' in taken && taken.slugTaken.id === short.id, JSON.stringify(taken));
      assert.equal(await links.markDeleted(short), true);
      const stillTaken = await links.createMany([newLink('https://example.com/ns-y', { domain: 'c.test', slug: short.code })]);
      assert.ok('slugTaken' in stillTaken[0]!, 'a deleted short URL never points elsewhere');
      const elsewhere = created(await links.create(newLink('https://example.com/ns-z', { domain: 'd.test', slug: short.code })));
      assert.equal((await links.target('d.test', short.code))?.id, elsewhere.id);
    });

    for (const how of ['create', 'createMany'] as const) {
      it(`passes over an id whose code a key or code stored before holds (${how})`, async () => {
        const { database } = t;
        const codes = await permutationOf(database.db);
        const last = await lastId(database, dialect);
        // Rows as before 0012 (or an import's kept codes), at ids last+1..last+3, holding the codes of the next three ids:
        // two as keys on the domain (a code and a slug), one as a code on another domain.
        const held = [4, 5, 6].map((n) => codes.encode(last + n, 7));
        const rows = [
          { id: last + 1, code: held[0]!, domain: 'e.test', key: held[0]!, slug: null },
          { id: last + 2, code: `old${last}x`, domain: 'e.test', key: held[1]!, slug: held[1]! },
          { id: last + 3, code: held[2]!, domain: 'f.test', key: held[2]!, slug: null },
        ];
        for (const row of rows) {
          const url = `https://example.com/held/${row.id}`;
          await database.db
            .insertInto('links')
            .values({
              ...row,
              url,
              url_hash: newLink(url).urlHash,
              title: null,
              account_id: 1,
              status: 'public',
              created_at: Date.now(),
              deleted_at: null,
              comment: null,
              password_hash: null,
              expires_at: null,
              updated_at: null,
              block_reason: null,
              coded: 0,
            })
            .execute();
        }
        if (dialect === 'postgres') await sql`select setval(pg_get_serial_sequence('links', 'id'), ${last + 3})`.execute(database.db);
        const link = newLink(`https://example.com/after-held/${last}`, { domain: 'e.test' });
        const made = created(how === 'create' ? await database.links.create(link) : (await database.links.createMany([link]))[0]!);
        assert.ok(!held.includes(made.code), `made ${made.code}, one of the held ${held.join(' ')}`);
        assert.equal(made.id, last + 7, 'the three ids whose codes are held are passed over');
        assert.equal(made.code, codes.encode(last + 7, 7));
        // The held keys still answer as they did.
        assert.equal((await database.links.target('e.test', held[0]!))?.id, last + 1);
        assert.equal((await database.links.target('e.test', held[1]!))?.id, last + 2);
      });
    }
  });

  if (dialect === 'postgres') {
    describe('two instances on one PostgreSQL database', () => {
      it('never make the same code: each takes its ids from the sequence', async () => {
        const t = await openTestDatabase('postgres');
        const second = openDatabase({ kind: 'postgres', url: t.url }, { poolMax: 5 });
        try {
          const make = (database: Database, who: string) =>
            Promise.all(
              Array.from({ length: 40 }, (_, i) => database.links.create(newLink(`https://example.com/two/${who}/${i}`, { domain: 'two.test' }))),
            );
          const many = (database: Database, who: string) =>
            database.links.createMany(
              Array.from({ length: 40 }, (_, i) => newLink(`https://example.com/two-many/${who}/${i}`, { domain: 'two.test' })),
            );
          const outcomes = (await Promise.all([make(t.database, 'a'), make(second, 'b'), many(t.database, 'c'), many(second, 'd')])).flat();
          const codes = outcomes.map((outcome) => created(outcome).code);
          assert.equal(new Set(codes).size, 160);
          for (const code of codes) assert.ok(await second.links.target('two.test', code));
        } finally {
          await second.close();
          await t.cleanup();
        }
      });
    });

    describe('a batch checked for clashes on PostgreSQL', () => {
      it('finds clashes through the indexes, never reading every link (the check runs once a batch of a create or an import)', async () => {
        const t = await openTestDatabase('postgres');
        try {
          const { db } = t.database;
          const codes = await permutationOf(db);
          // 20,000 slugs of another domain, in links_domain_key: read in full, by the table or by the index, they are hundreds of pages.
          await sql`insert into links (code, domain, key, slug, url, url_hash, account_id, created_at, reusable, forward_query, coded)
            select 'wide' || n, 'wide.test', 'wide' || n, 'wide' || n, 'https://example.com/' || n, decode(md5(n::text), 'hex'), 1, 0, false, true, true
            from generate_series(1, 20000) as n`.execute(db);
          await sql`analyze links`.execute(db);
          const made = [
            { domain: 'a.test', key: codes.encode(900_001, 7) },
            { domain: 'a.test', key: codes.encode(900_002, 7) },
            { domain: 'b.test', key: codes.encode(900_003, 7) },
          ];
          // Slugs that decode to ids of links that exist, but not on their domain with that key.
          const asked = [
            { domain: 'a.test', key: 'some-slug' },
            { domain: 'a.test', key: codes.encode(42, 7) },
            { domain: 'wide.test', key: codes.encode(43, 5) },
          ];
          const query = clashQuery(codes, asked, made);
          const plan = await db.transaction().execute(async (trx) => {
            await sql`set local enable_seqscan = off`.execute(trx);
            const { rows } = await sql<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>`explain (analyze, buffers, format json) ${query}`.execute(trx);
            return rows[0]!['QUERY PLAN'][0]!.Plan;
          });
          const blocks = (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
          assert.ok(blocks < 60, `the check read ${blocks} pages: ${JSON.stringify(plan)}`);
          const clash = async (asked: KeyOnDomain[], made: KeyOnDomain[]) => (await clashQuery(codes, asked, made).execute(db)).rows[0]?.clash;
          assert.equal(await clash(asked, made), false, 'a slug decoding to the id of a link elsewhere, or with another key, is no clash');
          assert.equal(await clash([], [{ domain: 'wide.test', key: 'wide777' }]), true, 'a code on a key stored on its domain clashes');
          assert.equal(await clash([], [{ domain: 'other.test', key: 'wide777' }]), false, 'a key of another domain does not');
          const coded = created(await t.database.links.create(newLink('https://example.com/clash-coded', { domain: 'a.test' })));
          assert.equal(await clash([{ domain: 'a.test', key: coded.code }], []), true, 'a slug on a code made on its domain clashes');
          assert.equal(await clash([{ domain: 'b.test', key: coded.code }], []), false, 'on another domain it does not');
        } finally {
          await t.cleanup();
        }
      });
    });
  }
}
