// Issue 2, API behaviour 3: GET /v2/shorten, dedupe and both concurrency cases.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainService } from '../../src/domains/domain-service.js';
import { BASE_HOST, BASE_PREFIX, buildTestApp, PUBLIC_HOST, qs, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

/** No DNS is asked here: the domains of these tests are an administrator's, verified as they are added. */
const noDns = async () => ({ values: [] });
const BASIC_FIELDS = ['code', 'domain', 'hostname', 'shortened', 'status', 'tally', 'url', 'urlPrefix'];
let counter = 0;
const freshUrl = (label = 'page') => `https://example.com/${label}/${Date.now()}-${++counter}`;

for (const dialect of dialects) {
  describe(`GET /v2/shorten (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    const shorten = (params: Record<string, string>, headers: Record<string, string> = {}) =>
      ctx.t.app.inject({ url: `/v2/shorten?${qs(params)}`, headers });
    const ok = async (params: Record<string, string>, headers: Record<string, string> = {}) => {
      const res = await shorten(params, headers);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const invalid = async (params: Record<string, string>, field: string, message?: string, headers: Record<string, string> = {}) => {
      const res = await shorten(params, headers);
      assert.equal(res.statusCode, 422, `${JSON.stringify(params).slice(0, 100)} → ${res.statusCode}`);
      const body = res.json();
      assert.equal(body.code, 'E_VALIDATION_ERROR');
      assert.equal(body.errors[0].field, field);
      if (message) assert.equal(body.message, message);
      return body;
    };

    describe('response', () => {
      it('has exactly the basic fields without slug and title', async () => {
        const url = freshUrl();
        const link = await ok({ url });
        assert.deepEqual(Object.keys(link).sort(), BASIC_FIELDS);
        assert.match(link.code, /^[0-9A-Za-z]{7}$/);
        assert.equal(link.url, url);
        assert.equal(link.status, 'public');
        assert.equal(link.hostname, 'example.com');
        assert.equal(link.domain, BASE_HOST);
        assert.equal(link.urlPrefix, BASE_PREFIX);
        assert.equal(link.shortened, `${BASE_PREFIX}/${link.code}`);
        assert.ok(Number.isInteger(link.tally));
      });

      it('adds slug and title when given; shortened ends with the slug', async () => {
        const link = await ok({ url: freshUrl(), slug: 'With-Slug_1', title: 'A title ✓' });
        assert.deepEqual(Object.keys(link).sort(), [...BASIC_FIELDS, 'slug', 'title'].sort());
        assert.equal(link.slug, 'With-Slug_1');
        assert.equal(link.title, 'A title ✓');
        assert.equal(link.shortened, `${BASE_PREFIX}/With-Slug_1`);
        assert.match(link.code, /^[0-9A-Za-z]{7}$/);
      });

      it('returns the normalized URL and its host name', async () => {
        const link = await ok({ url: 'HTTPS://Bücher.Example:443/a/./b/../c?q=1#Frag' });
        assert.equal(link.url, 'https://xn--bcher-kva.example/a/c?q=1#Frag');
        assert.equal(link.hostname, 'xn--bcher-kva.example');
      });

      it('reports the numeric link id as tally', async () => {
        const first = await ok({ url: freshUrl() });
        const second = await ok({ url: freshUrl() });
        const row = await ctx.t.database.db.selectFrom('links').select('id').where('code', '=', second.code).executeTakeFirstOrThrow();
        assert.equal(second.tally, row.id);
        assert.ok(second.tally > first.tally);
      });

      it('makes codes of CODE_LENGTH characters', async () => {
        const app = await buildTestApp(ctx.db.database, { CODE_LENGTH: '12' });
        try {
          const res = await app.app.inject({ url: `/v2/shorten?${qs({ url: freshUrl() })}` });
          assert.match(res.json().code, /^[0-9A-Za-z]{12}$/);
        } finally {
          await app.close();
        }
      });
    });

    describe('url', () => {
      it('is required', async () => {
        await invalid({}, 'url', 'The url field must be defined');
        await invalid({ url: '' }, 'url', 'The url field must be defined');
      });

      it('must be an absolute http(s) URL', async () => {
        for (const url of [
          'javascript:alert(1)',
          'data:text/plain,hi',
          'ftp://example.com/f',
          '/relative',
          'example.com/x',
          'http:example.com',
          'mailto:a@b.c',
        ]) {
          await invalid({ url }, 'url', 'The url field must be a valid URL');
        }
      });

      it('is at most 8192 characters', async () => {
        const base = 'https://example.com/';
        await ok({ url: base + 'a'.repeat(8192 - base.length) });
        await invalid({ url: base + 'a'.repeat(8193 - base.length) }, 'url');
      });

      it('may not point at one of our own short domains (no loops)', async () => {
        const account = await ctx.t.account();
        const own = await ctx.t.privateDomain(account.id);
        const other = await ctx.t.account();
        const foreign = await ctx.t.privateDomain(other.id);
        // Added by another DomainService (as by the CLI): the app sees them within CHANGE_POLL_MS (10 ms here).
        await new Promise((resolve) => setTimeout(resolve, 30));
        for (const url of [
          `${BASE_PREFIX}/abc`,
          'HTTP://SHORT.TEST/abc',
          'https://short.test:443/x',
          'http://short.test:8080/x',
          `https://${PUBLIC_HOST}/abc`,
          `https://${own}/x`,
          `https://${foreign}/x`,
        ]) {
          await invalid({ url }, 'url', undefined, account.headers);
        }
        await ok({ url: 'https://not-short.test/x' });
      });

      it('may point at a domain added elsewhere only until the app reads the domains again (CHANGE_POLL_MS)', async () => {
        const slow = await buildTestApp(ctx.t.database, { CHANGE_POLL_MS: '60000' });
        try {
          const shorten = (url: string) => slow.app.inject({ url: `/v2/shorten?${qs({ url })}` });
          assert.equal((await shorten('https://before-domain.test/x')).statusCode, 200); // the domains are read now
          const added = await ctx.t.domains.add(`later-${Date.now()}.test`, null);
          assert.equal((await shorten(`https://${added.hostname}/x`)).statusCode, 200, 'not known yet: read a minute ago');
          await new Promise((resolve) => setTimeout(resolve, 30));
          const fresh = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: `https://${added.hostname}/y` })}` });
          assert.equal(fresh.statusCode, 422, 'known to the app that reads the domains every 10 ms');
          // Asked for by name, a domain added since is looked up at once.
          const link = await slow.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/on-later', domain: added.hostname })}` });
          assert.equal(link.json().domain, added.hostname);
          // Its own changes a DomainService knows at once.
          const own = new DomainService(slow.config, ctx.t.database.domains, ctx.t.database.links, noDns, { announce: () => {} });
          const anyone = { accountId: 1, anonymous: true };
          assert.equal(await own.isShortHost(anyone, new URL('https://x.test/')), false); // the table is read now
          const mine = await own.add(`own-later-${Date.now()}.test`, null);
          assert.equal(await own.isShortHost(anyone, new URL(`https://${mine.hostname}/`)), true);
        } finally {
          await slow.close();
        }
      });
    });

    describe('title', () => {
      it('is stored and returned, up to 512 characters', async () => {
        const title = 't'.repeat(512);
        const link = await ok({ url: freshUrl(), title });
        assert.equal(link.title, title);
        const row = await ctx.t.database.db.selectFrom('links').select('title').where('code', '=', link.code).executeTakeFirstOrThrow();
        assert.equal(row.title, title);
      });

      it('is refused above 512 characters', async () => {
        await invalid({ url: freshUrl(), title: 't'.repeat(513) }, 'title');
      });
    });

    describe('domain', () => {
      it('defaults to the default public domain', async () => {
        assert.equal((await ok({ url: freshUrl() })).domain, BASE_HOST);
      });

      it('may be any public domain, in any case', async () => {
        const link = await ok({ url: freshUrl(), domain: 'PUB.test' });
        assert.equal(link.domain, PUBLIC_HOST);
        assert.equal(link.urlPrefix, `https://${PUBLIC_HOST}`);
        assert.equal(link.shortened, `https://${PUBLIC_HOST}/${link.code}`);
        const added = await ctx.t.domains.add('stored-public.test', null);
        assert.equal((await ok({ url: freshUrl(), domain: added.hostname })).domain, 'stored-public.test');
      });

      it("may be one of the caller's private domains", async () => {
        const account = await ctx.t.account();
        const own = await ctx.t.privateDomain(account.id);
        const link = await ok({ url: freshUrl(), domain: own, slug: 'on-own' }, account.headers);
        assert.equal(link.domain, own);
        assert.equal(link.urlPrefix, `https://${own}`);
        assert.equal(link.shortened, `https://${own}/on-own`);
      });

      it("is refused when it is another account's private domain, unknown, or private for an anonymous caller", async () => {
        const owner = await ctx.t.account();
        const own = await ctx.t.privateDomain(owner.id);
        const other = await ctx.t.account();
        await invalid({ url: freshUrl(), domain: own }, 'domain', 'The selected domain is invalid', other.headers);
        await invalid({ url: freshUrl(), domain: own }, 'domain', 'The selected domain is invalid');
        await invalid({ url: freshUrl(), domain: 'unknown.example' }, 'domain', 'The selected domain is invalid', owner.headers);
        await invalid({ url: freshUrl(), domain: 'https://pub.test' }, 'domain', 'The selected domain is invalid');
      });
    });

    describe('slug', () => {
      it('allows letters, digits, "_" and "-", 1 to 64 characters', async () => {
        await ok({ url: freshUrl(), slug: 'x' });
        await ok({ url: freshUrl(), slug: 'S'.repeat(64) });
        await invalid({ url: freshUrl(), slug: 'S'.repeat(65) }, 'slug');
        for (const slug of ['a b', 'a/b', 'a.b', 'ä', 'a%b', 'a?b']) {
          await invalid({ url: freshUrl(), slug }, 'slug', 'The slug field format is invalid');
        }
      });

      it('refuses words of our own routes in any case', async () => {
        for (const slug of ['v2', 'V2', 'api', 'Health', 'METRICS']) await invalid({ url: freshUrl(), slug }, 'slug');
      });

      it('is case-sensitive', async () => {
        const lower = await ok({ url: freshUrl(), slug: 'casetest' });
        const upper = await ok({ url: freshUrl(), slug: 'CaseTest' });
        assert.notEqual(lower.code, upper.code);
        assert.equal(upper.shortened, `${BASE_PREFIX}/CaseTest`);
      });

      it('is unique per domain: the same slug is free on another domain', async () => {
        const a = await ok({ url: freshUrl(), slug: 'per-domain' });
        const b = await ok({ url: freshUrl(), slug: 'per-domain', domain: PUBLIC_HOST });
        assert.equal(a.domain, BASE_HOST);
        assert.equal(b.domain, PUBLIC_HOST);
        await invalid({ url: freshUrl(), slug: 'per-domain' }, 'slug', 'The slug has already been taken');
      });

      it('shares the path namespace with generated codes: a slug of their shape is refused (decision 0026)', async () => {
        const link = await ok({ url: freshUrl() });
        const shape = 'The slug must not be exactly 7 letters and digits: that is the shape of the codes generated on its domain';
        await invalid({ url: freshUrl(), slug: link.code }, 'slug', shape);
        // Every word of that shape is some id's code, on every domain; a character more or less is a slug like any other.
        await invalid({ url: freshUrl(), slug: link.code, domain: PUBLIC_HOST }, 'slug', shape);
        await ok({ url: freshUrl(), slug: `${link.code}x`, domain: PUBLIC_HOST });
      });
    });

    describe('dedupe', () => {
      it('returns the same link, unchanged, for the same URL of the same account and domain', async () => {
        const url = freshUrl();
        const first = await ok({ url, title: 'first' });
        const again = await ok({ url, title: 'second' });
        assert.deepEqual(again, first);
        const variant = await ok({ url: url.replace('https://example.com', 'HTTPS://EXAMPLE.com:443') });
        assert.equal(variant.code, first.code);
      });

      it('makes a different link for another account, another domain or with a slug', async () => {
        const url = freshUrl();
        const account = await ctx.t.account();
        const anonymous = await ok({ url });
        const owned = await ok({ url }, account.headers);
        const ownedAgain = await ok({ url }, account.headers);
        const onPublic = await ok({ url, domain: PUBLIC_HOST });
        const withSlug = await ok({ url, slug: `dd-${counter}` });
        assert.equal(ownedAgain.code, owned.code);
        assert.equal(new Set([anonymous.code, owned.code, onPublic.code, withSlug.code]).size, 4);
      });

      it('returns the existing link on a retry with the same slug and URL (idempotent)', async () => {
        const account = await ctx.t.account();
        const url = freshUrl();
        const first = await ok({ url, slug: 'retry-me' }, account.headers);
        const retry = await ok({ url, slug: 'retry-me' }, account.headers);
        assert.deepEqual(retry, first);
      });

      it('says the slug is taken for another URL or another account', async () => {
        const account = await ctx.t.account();
        const url = freshUrl();
        await ok({ url, slug: 'taken-one' }, account.headers);
        await invalid({ url: freshUrl(), slug: 'taken-one' }, 'slug', 'The slug has already been taken', account.headers);
        const other = await ctx.t.account();
        await invalid({ url, slug: 'taken-one' }, 'slug', 'The slug has already been taken', other.headers);
        await invalid({ url, slug: 'taken-one' }, 'slug', 'The slug has already been taken');
      });

      it('makes a new link with a new code for a URL whose link was deleted', async () => {
        const account = await ctx.t.account();
        const url = freshUrl();
        const first = await ok({ url }, account.headers);
        const del = await ctx.t.app.inject({ method: 'DELETE', url: `/v2/links/${first.code}`, headers: account.headers });
        assert.equal(del.statusCode, 200);
        const second = await ok({ url }, account.headers);
        assert.notEqual(second.code, first.code);
        assert.notEqual(second.tally, first.tally);
      });
    });

    describe('concurrency', () => {
      it('makes exactly one link from 100 identical parallel requests', async () => {
        const url = freshUrl('parallel');
        const responses = await Promise.all(Array.from({ length: 100 }, () => shorten({ url })));
        assert.deepEqual(new Set(responses.map((r) => r.statusCode)), new Set([200]));
        assert.equal(new Set(responses.map((r) => r.json().code)).size, 1);
        const rows = await ctx.t.database.db.selectFrom('links').select('id').where('url', '=', url).execute();
        assert.equal(rows.length, 1);
      });

      it('gives exactly one 200 and 99 × 422 for 100 parallel requests for one slug with different URLs', async () => {
        const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => shorten({ url: freshUrl(`slug-race-${i}`), slug: 'raced' })));
        const oks = responses.filter((r) => r.statusCode === 200);
        const taken = responses.filter((r) => r.statusCode === 422);
        assert.equal(oks.length, 1);
        assert.equal(taken.length, 99);
        for (const r of taken) assert.equal(r.json().message, 'The slug has already been taken');
        const rows = await ctx.t.database.db.selectFrom('links').select('url').where('key', '=', 'raced').where('domain', '=', BASE_HOST).execute();
        assert.equal(rows.length, 1);
        assert.equal(rows[0]!.url, oks[0]!.json().url);
      });
    });

    describe('codes', () => {
      it('are never handed out again, not even after deletion (made from the id, the primary key)', async () => {
        const account = await ctx.t.account();
        const link = await ok({ url: freshUrl() }, account.headers);
        await ctx.t.app.inject({ method: 'DELETE', url: `/v2/links/${link.code}`, headers: account.headers });
        const row = await ctx.t.database.db.selectFrom('links').selectAll().where('code', '=', link.code).executeTakeFirstOrThrow();
        assert.notEqual(row.deleted_at, null, 'a deleted link keeps its row, so its id (and the code made from it) stays taken');
        assert.equal(Number(row.coded), 1);
        await assert.rejects(
          ctx.t.database.db
            .insertInto('links')
            .values({ ...row, domain: PUBLIC_HOST, key: 'other-key', deleted_at: null })
            .execute(),
          'the database refuses a second link with the same id',
        );
        const more = await Promise.all(Array.from({ length: 50 }, () => ok({ url: freshUrl('more') }, account.headers)));
        assert.ok(!more.some((l) => l.code === link.code));
        // The deleted short URL never points elsewhere: its path cannot be taken as a slug.
        await invalid({ url: freshUrl(), slug: link.code }, 'slug');
      });
    });
  });
}
