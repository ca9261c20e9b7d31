// Issue 2, API behaviour 5: DELETE /v2/links/{link}.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASE_HOST, qs, type TestAccount, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

let counter = 0;
const freshUrl = () => `https://example.com/delete/${Date.now()}-${++counter}`;

for (const dialect of dialects) {
  describe(`DELETE /v2/links/{link} (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    async function make(account: TestAccount | null, params: Record<string, string> = {}) {
      const res = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: freshUrl(), ...params })}`, headers: account?.headers ?? {} });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    }
    const del = (link: string, account: TestAccount | null) =>
      ctx.t.app.inject({ method: 'DELETE', url: `/v2/links/${link}`, headers: account?.headers ?? {} });
    const visit = (host: string, key: string) => ctx.t.app.inject({ url: `/${key}`, headers: { host } });

    /** Deletes by `reference`, then checks: {success:true}, the redirect is gone, a second delete is 404. */
    async function deletesBy(reference: string, account: TestAccount, link: any) {
      assert.equal((await visit(link.domain, link.slug ?? link.code)).statusCode, 301);
      const res = await del(reference, account);
      assert.equal(res.statusCode, 200, `${reference}: ${res.body}`);
      assert.deepEqual(res.json(), { success: true });
      assert.equal((await visit(link.domain, link.slug ?? link.code)).statusCode, 404, `${reference}: still redirects`);
      const again = await del(reference, account);
      assert.equal(again.statusCode, 404);
      assert.equal(again.json().code, 'E_NOT_FOUND');
    }

    it('deletes by code', async () => {
      const account = await ctx.t.account();
      const link = await make(account);
      await deletesBy(link.code, account, link);
    });

    it('deletes by slug on the default domain', async () => {
      const account = await ctx.t.account();
      const link = await make(account, { slug: 'del-by-slug' });
      await deletesBy('del-by-slug', account, link);
    });

    it('deletes a slugged link by its code too', async () => {
      const account = await ctx.t.account();
      const link = await make(account, { slug: 'del-slug-by-code' });
      await deletesBy(link.code, account, link);
    });

    it('deletes by domain/key, plain and percent-encoded', async () => {
      const account = await ctx.t.account();
      const own = await ctx.t.privateDomain(account.id);
      const a = await make(account, { domain: own });
      await deletesBy(`${own}/${a.code}`, account, a);
      const b = await make(account, { domain: own, slug: 'dk-slug' });
      await deletesBy(encodeURIComponent(`${own}/dk-slug`), account, b);
    });

    it('deletes by the full short URL, plain and as encodeURIComponent(shortened)', async () => {
      const account = await ctx.t.account();
      const own = await ctx.t.privateDomain(account.id);
      const a = await make(account, { domain: own, slug: 'full-url' });
      await deletesBy(encodeURIComponent(a.shortened), account, a);
      const b = await make(account);
      await deletesBy(encodeURIComponent(b.shortened), account, b);
      const c = await make(account, { domain: 'pub.test' });
      await deletesBy(c.shortened, account, c);
    });

    it("answers 404 for another account's link and leaves it alone", async () => {
      const owner = await ctx.t.account();
      const other = await ctx.t.account();
      const link = await make(owner);
      const anonymousLink = await make(null);
      for (const ref of [link.code, encodeURIComponent(link.shortened), `${BASE_HOST}/${link.code}`]) {
        const res = await del(ref, other);
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().code, 'E_NOT_FOUND');
      }
      const res = await del(anonymousLink.code, other);
      assert.equal(res.statusCode, 404);
      assert.equal((await visit(BASE_HOST, link.code)).statusCode, 301);
      assert.equal((await visit(BASE_HOST, anonymousLink.code)).statusCode, 301);
    });

    it('answers the same 404 for an unknown link as for a foreign one', async () => {
      const account = await ctx.t.account();
      const owner = await ctx.t.account();
      const foreign = await make(owner);
      const unknown = await del('Unknown1', account);
      const notMine = await del(foreign.code, account);
      assert.equal(unknown.statusCode, 404);
      assert.deepEqual(unknown.json(), notMine.json());
    });

    it('answers 404 for a link on the wrong domain', async () => {
      const account = await ctx.t.account();
      const link = await make(account, { slug: 'wrong-domain' });
      const res = await del(encodeURIComponent('https://pub.test/wrong-domain'), account);
      assert.equal(res.statusCode, 404);
      assert.equal((await visit(BASE_HOST, 'wrong-domain')).statusCode, 301);
      assert.equal(link.domain, BASE_HOST);
    });

    it('answers 401 without a token', async () => {
      const account = await ctx.t.account();
      const link = await make(account);
      const res = await del(link.code, null);
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'E_UNAUTHORIZED_ACCESS');
    });

    it('stops a cached link from redirecting at once', async () => {
      const account = await ctx.t.account();
      const link = await make(account);
      for (let i = 0; i < 3; i++) assert.equal((await visit(BASE_HOST, link.code)).statusCode, 301);
      assert.equal((await del(link.code, account)).statusCode, 200);
      const after = await visit(BASE_HOST, link.code);
      assert.equal(after.statusCode, 404);
      assert.match(after.headers['content-type'] as string, /text\/html/);
    });
  });
}
