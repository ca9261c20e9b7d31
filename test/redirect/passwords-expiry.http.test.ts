// Links with a password or an expiry: the form flow, wrong passwords, expiry, and what is
// (not) stored.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASE_HOST, buildTestApp, type TestAccount, useTestApp } from '../support/app.js';
import { dialects, storedClicks } from '../support/database.js';

let counter = 0;
const freshUrl = () => `https://example.com/guarded/${Date.now()}-${++counter}`;
const form = (password: string) => ({ 'content-type': 'application/x-www-form-urlencoded', payload: new URLSearchParams({ password }).toString() });

for (const dialect of dialects) {
  describe(`passwords and expiry (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    async function make(account: TestAccount, item: Record<string, unknown>) {
      const res = await ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', payload: [item], headers: account.headers });
      assert.equal(res.statusCode, 200, res.body);
      const [made] = res.json();
      assert.ok(made.id, JSON.stringify(made));
      return made;
    }
    const visit = (key: string, method = 'GET', app = ctx.t.app) => app.inject({ method, url: `/${key}`, headers: { host: BASE_HOST } });
    const post = (key: string, password: string, app = ctx.t.app) => {
      const { payload, ...headers } = form(password);
      return app.inject({ method: 'POST', url: `/${key}`, headers: { host: BASE_HOST, ...headers }, payload });
    };

    it('asks for the password in a form that shows nothing of the destination, and is not cached', async () => {
      const account = await ctx.t.account();
      const url = freshUrl();
      const made = await make(account, { url, password: 'open sesame' });
      for (const method of ['GET', 'HEAD']) {
        const res = await visit(made.slug, method);
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.equal(res.headers.location, undefined);
      }
      const page = (await visit(made.slug)).body;
      assert.match(page, /<form method="post">/);
      assert.match(page, /<input id="password" name="password" type="password"/);
      assert.ok(!page.includes('example.com'), 'the page names the destination');
    });

    it('redirects with 303 on the right password and counts that click once; a wrong one is 403 with the form', async () => {
      const t = await buildTestApp(ctx.db.database, { CLICK_FLUSH_MS: '600000' });
      const account = await ctx.t.account();
      const url = freshUrl();
      const made = await make(account, { url, password: 'open sesame' });
      try {
        await visit(made.slug, 'GET', t.app);
        const wrong = await post(made.slug, 'open says me', t.app);
        assert.equal(wrong.statusCode, 403);
        assert.equal(wrong.headers['cache-control'], 'no-store');
        assert.match(wrong.body, /role="alert"/);
        assert.match(wrong.body, /<form method="post">/);
        assert.ok(!wrong.body.includes('example.com'));
        const missing = await t.app.inject({ method: 'POST', url: `/${made.slug}`, headers: { host: BASE_HOST } });
        assert.equal(missing.statusCode, 403);
        const right = await post(made.slug, 'open sesame', t.app);
        assert.equal(right.statusCode, 303);
        assert.equal(right.headers.location, url);
        assert.equal(right.headers['cache-control'], 'no-store');
      } finally {
        await t.close();
      }
      assert.equal(await storedClicks(ctx.t.database, made.slug), 1, 'only the right password counts, once');
    });

    it('stores only a scrypt hash of the password', async () => {
      const account = await ctx.t.account();
      const made = await make(account, { url: freshUrl(), password: 'a very secret phrase' });
      const row = await ctx.t.database.db.selectFrom('links').select('password_hash').where('code', '=', made.slug).executeTakeFirstOrThrow();
      assert.match(row.password_hash!, /^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
      assert.ok(!row.password_hash!.includes('secret'));
    });

    it('answers 410 with an expired page after expiredAt, and lists the link as expiring', async () => {
      const account = await ctx.t.account();
      const made = await make(account, { url: freshUrl(), expiredAt: new Date(Date.now() + 3_600_000).toISOString() });
      // One visit: a link enters the cache on its second miss, so the next visit reads the table again.
      assert.equal((await visit(made.slug)).statusCode, 301);
      // Its time comes (moved into the past in the table).
      await ctx.t.database.db
        .updateTable('links')
        .set({ expires_at: Date.now() - 1 })
        .where('code', '=', made.slug)
        .execute();
      for (const method of ['GET', 'HEAD']) {
        const res = await visit(made.slug, method);
        assert.equal(res.statusCode, 410);
        assert.equal(res.headers.location, undefined);
      }
      assert.match((await visit(made.slug)).body, /Link expired/);
      const listed = (await ctx.t.app.inject({ url: '/v3/shorten/list', headers: account.headers })).json().links[0];
      assert.ok(Date.parse(listed.expiresAt) < Date.now());
    });

    it('expires while cached, without a change notice', async () => {
      const account = await ctx.t.account();
      const made = await make(account, { url: freshUrl(), expiredAt: new Date(Date.now() + 800).toISOString() });
      assert.equal((await visit(made.slug)).statusCode, 301);
      assert.equal((await visit(made.slug)).statusCode, 301);
      await new Promise((resolve) => setTimeout(resolve, 900));
      assert.equal((await visit(made.slug)).statusCode, 410);
    });

    it('adds and removes a password and an expiry by edit, and the redirect follows at once', async () => {
      const account = await ctx.t.account();
      const made = await make(account, { url: freshUrl() });
      const edit = (payload: object) =>
        ctx.t.app.inject({ method: 'PATCH', url: `/v3/shorten/${BASE_HOST}/${made.slug}`, payload, headers: account.headers });
      assert.equal((await visit(made.slug)).statusCode, 301);
      assert.equal((await edit({ password: 'sesame-1' })).statusCode, 200);
      assert.equal((await visit(made.slug)).statusCode, 200, 'the form');
      assert.equal((await post(made.slug, 'sesame-1')).statusCode, 303);
      assert.equal((await edit({ password: null })).statusCode, 200);
      assert.equal((await visit(made.slug)).statusCode, 301);
      const later = new Date(Date.now() + 3_600_000).toISOString();
      const withExpiry = await edit({ expiredAt: later });
      assert.equal(withExpiry.json().expiresAt, later);
      assert.equal((await edit({ expiredAt: null })).json().expiresAt, null);
      assert.equal((await visit(made.slug)).statusCode, 301);
    });

    it('answers a POST to a link without a password like its redirect, and counts nothing', async () => {
      const account = await ctx.t.account();
      const made = await make(account, { url: freshUrl() });
      const res = await post(made.slug, 'anything');
      assert.equal(res.statusCode, 301);
      assert.equal((await post('no-such-link', 'x')).statusCode, 404);
      const reserved = await ctx.t.app.inject({ method: 'POST', url: '/v2', headers: { host: BASE_HOST } });
      assert.equal(reserved.statusCode, 404);
      assert.equal(reserved.json().code, 'E_ROUTE_NOT_FOUND');
    });
  });
}
