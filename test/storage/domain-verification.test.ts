// Domain verification in storage, on every dialect (decision 0019): migration 0009 keeps every
// domain that existed before it verified; the store counts an account's domains in the write that
// adds a claim; marks a domain verified once; removes a domain with its links in one write.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { DomainService } from '../../src/domains/domain-service.js';
import { DomainRedirects } from '../../src/redirect/domain-redirects.js';
import { migrateToLatest, migrateUpTo } from '../../src/storage/migrate.js';
import type { NewDomain } from '../../src/storage/stores/domains.js';
import { createStoreLink, dialects, newLink, openTestDatabase, type TestDatabase } from '../support/database.js';

/** The last migration before domain verification: the schema of every database made before it. */
const BEFORE = '0007-link-rollup-mark';
const quiet = { info: () => {}, warn: () => {} };

const claim = (hostname: string, accountId: number): NewDomain => ({
  hostname,
  urlPrefix: `https://${hostname}`,
  accountId,
  verifiedAt: null,
  verificationToken: 'brief-verify=test',
});

for (const dialect of dialects) {
  describe(`migration 0009: domain verification (${dialect})`, () => {
    it('keeps every domain made before it verified, since it was added, and serving', async () => {
      const { database, cleanup } = await openTestDatabase(dialect, { migrate: false });
      try {
        await migrateUpTo(database, BEFORE);
        // Rows as the schema before 0009 held them: an administrator's public and private domains.
        await sql`insert into accounts (name, created_at) values ('old-owner', 1000)`.execute(database.db);
        const owner = await database.db.selectFrom('accounts').select('id').where('name', '=', 'old-owner').executeTakeFirstOrThrow();
        await sql`insert into domains (hostname, url_prefix, account_id, created_at) values ('old-public.example', 'https://old-public.example', null, 1111)`.execute(
          database.db,
        );
        await sql`insert into domains (hostname, url_prefix, account_id, created_at, home_redirect_url)
          values ('old-private.example', 'https://old-private.example', ${owner.id}, 2222, 'https://example.com/home')`.execute(database.db);

        const applied = await migrateToLatest(database);
        assert.ok(applied.includes('0009-domain-verification'), applied.join(', '));
        const stored = new Map((await database.domains.all()).map((d) => [d.hostname, d]));
        assert.equal(stored.get('old-public.example')?.verifiedAt, 1111);
        assert.equal(stored.get('old-private.example')?.verifiedAt, 2222);
        assert.equal(stored.get('old-private.example')?.verificationToken, null);

        // Serving: their redirects, and the "no link to a short domain" rule for everybody.
        const redirects = new DomainRedirects(database.domains, quiet);
        await redirects.refresh();
        assert.equal(redirects.serves('old-private.example'), true);
        assert.deepEqual(redirects.get('old-private.example')?.home?.headers.slice(0, 2), ['location', 'https://example.com/home']);
        const noDns = async () => ({ values: [] });
        const domains = new DomainService(loadConfig({ BASE_URL: 'http://short.test' }), database.domains, database.links, noDns, {
          announce: () => {},
        });
        const stranger = { accountId: owner.id + 1000, anonymous: false };
        assert.equal(await domains.isShortHost(stranger, new URL('https://old-private.example/')), true);
        const listed = await domains.usableBy({ accountId: owner.id, anonymous: false });
        assert.equal(listed.find((d) => d.hostname === 'old-private.example')?.verified, true);
        assert.deepEqual(await migrateToLatest(database), [], 'nothing left to do');
      } finally {
        await cleanup();
      }
    });
  });

  describe(`domain store: claims, verification, removal with links (${dialect})`, () => {
    let t: TestDatabase;
    let accountId: number;
    before(async () => {
      t = await openTestDatabase(dialect);
      accountId = (await t.database.accounts.create(`claims-${dialect}`))!.id;
    });
    after(() => t.cleanup());

    it('counts the owner’s domains in the write that adds a claim, so racing claims cannot pass the limit', async () => {
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => t.database.domains.add(claim(`race-${i}.example`, accountId), 3)));
      assert.equal(outcomes.filter((o) => o === 'added').length, 3, outcomes.join(', '));
      assert.equal(outcomes.filter((o) => o === 'limit').length, 5);
      const mine = (await t.database.domains.all()).filter((d) => d.accountId === accountId);
      assert.equal(mine.length, 3);
      assert.equal(await t.database.domains.add(claim('race-0.example', accountId + 1)), 'taken');
      // No limit asked (an administrator's domain): added past it.
      assert.equal(await t.database.domains.add(claim('by-admin.example', accountId)), 'added');
    });

    it('marks a domain verified once, keeping the first time', async () => {
      await t.database.domains.add(claim('mark.example', accountId));
      assert.equal((await t.database.domains.byHostname('mark.example'))?.verifiedAt, null);
      assert.equal(await t.database.domains.markVerified('mark.example'), true);
      const first = (await t.database.domains.byHostname('mark.example'))?.verifiedAt;
      assert.equal(typeof first, 'number');
      await new Promise((resolve) => setTimeout(resolve, 5));
      assert.equal(await t.database.domains.markVerified('mark.example'), true);
      assert.equal((await t.database.domains.byHostname('mark.example'))?.verifiedAt, first);
      assert.equal(await t.database.domains.markVerified('no-such.example'), false);
    });

    it('removes a domain with its live links in one write, recording each in the change feed', async () => {
      await t.database.domains.add(claim('busy.example', accountId));
      const make = async (name: string) => {
        const outcome = await t.database.links.create(newLink(`https://example.com/${name}`, { accountId, domain: 'busy.example' }));
        if (!('created' in outcome)) throw new Error('not made');
        return outcome.created;
      };
      const [a, b, gone] = [await make('a'), await make('b'), await make('gone')];
      assert.equal(await t.database.links.markDeleted(gone), true);
      const elsewhere = await createStoreLink(t.database, accountId, 'elsewhere');
      const since = await t.database.changes.newestId();

      const keys = await t.database.domains.removeWithLinks('busy.example');
      assert.deepEqual([...(keys ?? [])].sort(), [a.key, b.key].sort());
      assert.equal(await t.database.domains.byHostname('busy.example'), undefined);
      assert.equal(await t.database.links.countLive('busy.example'), 0);
      assert.equal(await t.database.links.target('busy.example', a.key), null);
      const changes = await t.database.changes.since(since, 100);
      assert.deepEqual(changes.map((c) => `${c.domain}/${c.key}`).sort(), [`busy.example/${a.key}`, `busy.example/${b.key}`].sort());
      const other = await t.database.db.selectFrom('links').select('deleted_at').where('id', '=', elsewhere).executeTakeFirstOrThrow();
      assert.equal(other.deleted_at, null, 'links on other domains stay');
      assert.equal(await t.database.domains.removeWithLinks('busy.example'), undefined);
    });
  });
}
