// The visit limit through the whole app (issue 39, decision 0039), on both dialects: visit N of a link with
// maxVisits N is a redirect (302, private, no-store), visit N+1 the 410 page, for everyone, bots and HEAD included;
// bots and HEADs are not counted; raising the limit reopens the link, null removes it; bad values are 422s.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { describe, it } from 'node:test';
import { BASE_HOST, type TestAccount, type TestApp, useTestApp } from '../../support/app.js';
import { dialects } from '../../support/database.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
let counter = 0;
const fresh = () => `https://example.com/limited/${Date.now()}-${++counter}`;

async function make(t: TestApp, account: TestAccount, item: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload: [item] });
  assert.equal(res.statusCode, 200, res.body);
  return res.json()[0] as { slug: string; url: string };
}

/** GET through the real server: what a browser's request meets, the node:http fast path included. */
async function overHttp(t: TestApp, path: string): Promise<number> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as net.AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { host: BASE_HOST, 'user-agent': BROWSER }, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      })
      .on('error', reject);
  });
}

for (const dialect of dialects) {
  describe(`visit limit (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    const visit = async (slug: string, method: 'GET' | 'HEAD' = 'GET', userAgent = BROWSER) => {
      const res = await ctx.t.app.inject({ method, url: `/${slug}`, headers: { host: BASE_HOST, 'user-agent': userAgent } });
      return { status: res.statusCode, cache: res.headers['cache-control'], body: res.body };
    };
    const patch = (account: TestAccount, slug: string, payload: Record<string, unknown>) =>
      ctx.t.app.inject({ method: 'PATCH', url: `/v3/shorten/${BASE_HOST}/${slug}`, headers: account.headers, payload });

    it('redirects visit N (302, private, no-store) and answers visit N+1 with the 410 page', async () => {
      const account = await ctx.t.account('limit-boundary');
      const link = await make(ctx.t, account, { url: fresh(), maxVisits: 3 });
      const got = await ctx.t.app.inject({ method: 'GET', url: `/v3/shorten/${BASE_HOST}/${link.slug}`, headers: account.headers });
      assert.equal(got.json().maxVisits, 3);
      for (let n = 1; n <= 3; n++) {
        const answer = await visit(link.slug);
        assert.equal(answer.status, 302, `visit ${n}`);
        assert.equal(answer.cache, 'private, no-store');
      }
      const past = await visit(link.slug);
      assert.equal(past.status, 410);
      assert.match(past.body, /reached its visit limit/);
      assert.equal((await visit(link.slug, 'HEAD')).status, 410, 'HEAD too');
    });

    it('holds at the boundary on both doors (the fast path and the router) taken in turn', async () => {
      const account = await ctx.t.account('limit-doors');
      const link = await make(ctx.t, account, { url: fresh(), maxVisits: 4 });
      assert.equal(await overHttp(ctx.t, `/${link.slug}`), 302);
      assert.equal((await visit(link.slug)).status, 302);
      assert.equal(await overHttp(ctx.t, `/${link.slug}?a=1`), 302);
      assert.equal(await overHttp(ctx.t, `/${link.slug}`), 302);
      assert.equal(await overHttp(ctx.t, `/${link.slug}`), 410);
      assert.equal((await visit(link.slug)).status, 410);
    });

    it('counts the visit a right password lets through, and refuses past the limit without asking for it', async () => {
      const account = await ctx.t.account('limit-password');
      const link = await make(ctx.t, account, { url: fresh(), maxVisits: 1, password: 'sesame-1' });
      assert.equal((await visit(link.slug)).status, 200, 'the form is not a visit');
      const unlock = () =>
        ctx.t.app.inject({
          method: 'POST',
          url: `/${link.slug}`,
          headers: { host: BASE_HOST, 'user-agent': BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'password=sesame-1',
        });
      assert.equal((await unlock()).statusCode, 303);
      assert.equal((await unlock()).statusCode, 410);
      assert.equal((await visit(link.slug)).status, 410, 'past the limit, no form');
    });

    it('counts neither bots nor HEADs, and refuses bots past the limit', async () => {
      const account = await ctx.t.account('limit-bots');
      const link = await make(ctx.t, account, { url: fresh(), maxVisits: 2 });
      for (let i = 0; i < 5; i++) assert.equal((await visit(link.slug, 'GET', BOT)).status, 302, 'a bot is not counted');
      for (let i = 0; i < 5; i++) assert.equal((await visit(link.slug, 'HEAD')).status, 302, 'a HEAD is not counted');
      assert.equal((await visit(link.slug)).status, 302);
      assert.equal((await visit(link.slug)).status, 302);
      assert.equal((await visit(link.slug)).status, 410);
      assert.equal((await visit(link.slug, 'GET', BOT)).status, 410, 'bots are refused past the limit');
    });

    it('reopens when PATCH raises the limit, and answers as a plain link when null removes it', async () => {
      const account = await ctx.t.account('limit-patch');
      const link = await make(ctx.t, account, { url: fresh(), maxVisits: 1 });
      assert.equal((await visit(link.slug)).status, 302);
      assert.equal((await visit(link.slug)).status, 410);
      const raised = await patch(account, link.slug, { maxVisits: 2 });
      assert.equal(raised.statusCode, 200, raised.body);
      assert.equal(raised.json().maxVisits, 2);
      assert.equal((await visit(link.slug)).status, 302, 'reopened for one more visit');
      assert.equal((await visit(link.slug)).status, 410);
      const removed = await patch(account, link.slug, { maxVisits: null });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal(removed.json().maxVisits, null);
      const open = await visit(link.slug);
      assert.equal(open.status, ctx.t.config.redirectStatus);
      assert.notEqual(open.cache, 'private, no-store', 'a link without options answers as before');
      const got = await ctx.t.app.inject({ method: 'GET', url: `/v3/shorten/${BASE_HOST}/${link.slug}`, headers: account.headers });
      assert.equal(got.json().maxVisits, null);
    });

    it('lists maxVisits on every link, null when it has none', async () => {
      const account = await ctx.t.account('limit-list');
      await make(ctx.t, account, { url: fresh(), maxVisits: 7 });
      await make(ctx.t, account, { url: fresh() });
      const res = await ctx.t.app.inject({ method: 'GET', url: '/v3/shorten/list', headers: account.headers });
      assert.equal(res.statusCode, 200, res.body);
      const limits = (res.json().links as Array<{ maxVisits: number | null }>).map((l) => l.maxVisits).sort();
      assert.deepEqual(limits, [7, null]);
    });

    it('refuses a limit that is not a whole number from 1 with 422 naming the field', async () => {
      const account = await ctx.t.account('limit-bad');
      for (const bad of [0, -1, 1.5, '3', 2_147_483_648, true]) {
        const bulk = await ctx.t.app.inject({
          method: 'POST',
          url: '/v3/shorten/bulk',
          headers: account.headers,
          payload: [{ url: fresh(), maxVisits: bad }],
        });
        assert.equal(bulk.statusCode, 422, `${bad}: ${bulk.body}`);
        assert.deepEqual(new Set(bulk.json().errors.map((e: { field: string }) => e.field)), new Set(['0.maxVisits']), String(bad));
      }
      const link = await make(ctx.t, account, { url: fresh() });
      for (const bad of [0, -5, 1.5, 2_147_483_648, 'many']) {
        const res = await patch(account, link.slug, { maxVisits: bad });
        assert.equal(res.statusCode, 422, `${bad}: ${res.body}`);
        assert.equal(res.json().errors?.[0]?.field ?? res.json().field, 'maxVisits', res.body);
      }
    });
  });
}
