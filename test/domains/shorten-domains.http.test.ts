// Issue 2, API behaviour 4: GET /v2/shorten-domains.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type TestAccount, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

for (const dialect of dialects) {
  describe(`GET /v2/shorten-domains (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    let owner: TestAccount;
    let other: TestAccount;
    let empty: TestAccount;
    const PUBLIC = ['aa-public.test', 'pub.test', 'short.test', 'zz-public.test'];
    const PRIVATE = ['a-own.test', 'b-own.test', 'c-own.test'];

    before(async () => {
      owner = await ctx.t.account('owner');
      other = await ctx.t.account('other');
      empty = await ctx.t.account('empty');
      // Added out of order, so the listing has to sort.
      await ctx.t.domains.add('zz-public.test', null);
      await ctx.t.domains.add('c-own.test', owner.id);
      await ctx.t.domains.add('aa-public.test', null);
      await ctx.t.domains.add('a-own.test', owner.id);
      await ctx.t.domains.add('b-own.test', owner.id);
      await ctx.t.domains.add('theirs.test', other.id);
    });

    const list = async (query: string, account: TestAccount | null) => {
      const res = await ctx.t.app.inject({ url: `/v2/shorten-domains${query}`, headers: account?.headers ?? {} });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const names = (body: any) => body.data.map((d: any) => d.domainName);

    it('defaults to page 1, 20 per page, all visibilities; public first, then private, each by name', async () => {
      const body = await list('', owner);
      assert.deepEqual(Object.keys(body).sort(), ['data', 'meta']);
      assert.deepEqual(body.meta, { total: 7, perPage: 20, currentPage: 1, lastPage: 1, firstPage: 1 });
      assert.deepEqual(body.data, [
        ...PUBLIC.map((domainName) => ({ domainName, visibility: 'public' })),
        ...PRIVATE.map((domainName) => ({ domainName, visibility: 'private' })),
      ]);
    });

    it('filters by visibility', async () => {
      assert.deepEqual(names(await list('?visibility=public', owner)), PUBLIC);
      assert.deepEqual(names(await list('?visibility=private', owner)), PRIVATE);
      assert.deepEqual(names(await list('?visibility=all', owner)), [...PUBLIC, ...PRIVATE]);
      assert.equal((await list('?visibility=private', owner)).meta.total, 3);
    });

    it('shows a private domain to its owner only', async () => {
      assert.deepEqual(names(await list('', other)), [...PUBLIC, 'theirs.test']);
      assert.deepEqual(names(await list('', empty)), PUBLIC);
      assert.deepEqual(names(await list('', null)), PUBLIC);
      const anonymousPrivate = await list('?visibility=private', null);
      assert.deepEqual(anonymousPrivate, { meta: { total: 0, perPage: 20, currentPage: 1, lastPage: 1, firstPage: 1 }, data: [] });
    });

    it('pages with lastPage = max(1, ceil(total / perPage))', async () => {
      const p1 = await list('?perPage=3', owner);
      assert.deepEqual(p1.meta, { total: 7, perPage: 3, currentPage: 1, lastPage: 3, firstPage: 1 });
      assert.deepEqual(names(p1), PUBLIC.slice(0, 3));
      const p2 = await list('?perPage=3&page=2', owner);
      assert.deepEqual(names(p2), [PUBLIC[3], PRIVATE[0], PRIVATE[1]]);
      const p3 = await list('?perPage=3&page=3', owner);
      assert.deepEqual(names(p3), [PRIVATE[2]]);
      assert.equal((await list('?perPage=7', owner)).meta.lastPage, 1);
      assert.equal((await list('?perPage=6', owner)).meta.lastPage, 2);
      assert.equal((await list('?perPage=1', owner)).meta.lastPage, 7);
      assert.equal((await list('?perPage=500', owner)).meta.lastPage, 1);
    });

    it('answers a page past the end with empty data and correct meta', async () => {
      const body = await list('?perPage=3&page=4', owner);
      assert.deepEqual(body, { meta: { total: 7, perPage: 3, currentPage: 4, lastPage: 3, firstPage: 1 }, data: [] });
      const far = await list('?page=1000', owner);
      assert.deepEqual(far.meta, { total: 7, perPage: 20, currentPage: 1000, lastPage: 1, firstPage: 1 });
      assert.deepEqual(far.data, []);
    });

    it('refuses bad page, perPage and visibility with 422', async () => {
      const cases: Array<[string, string, string?]> = [
        ['?perPage=0', 'perPage', 'The perPage field must be between 1 and 500'],
        ['?perPage=501', 'perPage', 'The perPage field must be between 1 and 500'],
        ['?perPage=-5', 'perPage', 'The perPage field must be between 1 and 500'],
        ['?perPage=abc', 'perPage'],
        ['?perPage=2.5', 'perPage'],
        ['?page=0', 'page'],
        ['?page=-1', 'page'],
        ['?page=abc', 'page'],
        ['?page=1.5', 'page'],
        ['?visibility=secret', 'visibility', 'The selected visibility is invalid'],
        ['?visibility=PUBLIC', 'visibility', 'The selected visibility is invalid'],
        ['?visibility=', 'visibility', 'The selected visibility is invalid'],
      ];
      for (const [query, field, message] of cases) {
        for (const account of [owner, null]) {
          const res = await ctx.t.app.inject({ url: `/v2/shorten-domains${query}`, headers: account?.headers ?? {} });
          assert.equal(res.statusCode, 422, query);
          const body = res.json();
          assert.equal(body.code, 'E_VALIDATION_ERROR', query);
          assert.equal(body.errors[0].field, field, query);
          if (message) assert.equal(body.message, message, query);
        }
      }
    });
  });
}
