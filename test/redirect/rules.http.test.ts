// Redirect rules through the whole app (issue 39, decision 0039), on both doors (the node:http fast path and the
// Fastify route) and both dialects: the first rule whose conditions all match chooses the target, none the link's
// url; the visitor's query goes on to the target chosen; a link with rules answers 302 with `private, no-store`;
// links without rules answer as before; an edit of the rules is seen by the next visit.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { describe, it } from 'node:test';
import type { EditBody } from '../../src/links/v3-schemas.js';
import { BASE_HOST, eventually, type TestAccount, type TestApp, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
let counter = 0;
const fresh = (label = 'ruled') => `https://example.com/${label}/${Date.now()}-${++counter}`;

const RULES: NonNullable<EditBody['rules']> = [
  {
    url: 'https://example.com/news-and-ref',
    conditions: [
      { type: 'query', key: 'utm_source', value: 'news' },
      { type: 'query-any', key: 'ref' },
    ],
  },
  { url: 'https://example.com/news?from=rule', conditions: [{ type: 'query', key: 'utm_source', value: 'news' }] },
];

async function make(t: TestApp, account: TestAccount, item: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload: [item] });
  assert.equal(res.statusCode, 200, res.body);
  return res.json()[0] as { slug: string; url: string };
}

/** GET through the real server: what a browser's request meets, the node:http fast path included. */
async function overHttp(t: TestApp, path: string): Promise<{ status: number; location?: string; cache?: string }> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as net.AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { host: BASE_HOST }, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, cache: res.headers['cache-control'] }));
      })
      .on('error', reject);
  });
}

for (const dialect of dialects) {
  describe(`redirect rules (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    const inject = async (path: string, method: 'GET' | 'HEAD' = 'GET') => {
      const res = await ctx.t.app.inject({ method, url: path, headers: { host: BASE_HOST } });
      return {
        status: res.statusCode,
        location: res.headers.location as string | undefined,
        cache: res.headers['cache-control'] as string | undefined,
      };
    };
    const personal = (location: string) => ({ status: 302, location, cache: 'private, no-store' });

    it('sends each visit by the first rule that matches, and the rest to the link’s url, with 302 private, no-store', async () => {
      const account = await ctx.t.account('ruled');
      const link = await make(ctx.t, account, { url: fresh(), rules: RULES });
      // Twice each: the first read from the database, the second from the cache (the fast path's own answer on SQLite).
      for (let round = 0; round < 2; round++) {
        assert.deepEqual(await inject(`/${link.slug}`), personal(link.url));
        assert.deepEqual(await overHttp(ctx.t, `/${link.slug}`), personal(link.url));
        assert.deepEqual(await inject(`/${link.slug}?x=1`), personal(`${link.url}?x=1`));
        assert.deepEqual(await overHttp(ctx.t, `/${link.slug}?x=1`), personal(`${link.url}?x=1`));
        assert.deepEqual(await inject(`/${link.slug}?utm_source=news`), personal('https://example.com/news?from=rule&utm_source=news'));
        assert.deepEqual(
          await overHttp(ctx.t, `/${link.slug}?ref=a&utm_source=news`),
          personal('https://example.com/news-and-ref?ref=a&utm_source=news'),
          'the first rule, although the second matches too',
        );
        assert.deepEqual(await inject(`/${link.slug}?utm_source=news`, 'HEAD'), personal('https://example.com/news?from=rule&utm_source=news'));
      }
    });

    it('answers links without rules exactly as before', async () => {
      const account = await ctx.t.account('ruled');
      const link = await make(ctx.t, account, { url: fresh() });
      const plain = { status: 301, location: link.url, cache: 'private, max-age=90' };
      assert.deepEqual(await inject(`/${link.slug}`), plain);
      assert.deepEqual(await overHttp(ctx.t, `/${link.slug}`), plain);
      assert.deepEqual(await overHttp(ctx.t, `/${link.slug}?utm_source=news`), { ...plain, location: `${link.url}?utm_source=news` });
    });

    it('keeps a rule’s target as stored for a link that does not forward query strings', async () => {
      const account = await ctx.t.account('ruled');
      const link = await make(ctx.t, account, { url: fresh(), rules: RULES, forwardQuery: false });
      assert.deepEqual(await inject(`/${link.slug}?utm_source=news`), personal('https://example.com/news?from=rule'));
      assert.deepEqual(await overHttp(ctx.t, `/${link.slug}?x=1`), personal(link.url));
    });

    it('counts a visit of a link with rules as any other', async () => {
      const account = await ctx.t.account('ruled');
      const link = await make(ctx.t, account, { url: fresh(), rules: RULES });
      await inject(`/${link.slug}?utm_source=news`);
      await overHttp(ctx.t, `/${link.slug}`);
      await inject(`/${link.slug}`, 'HEAD');
      const clicks = async () =>
        (await ctx.t.app.inject({ url: `/v3/shorten/${BASE_HOST}/${link.slug}`, headers: account.headers })).json().statsClicks as number;
      assert.ok(await eventually(async () => (await clicks()) === 2), `clicks: ${await clicks()}`);
    });

    it('splits visitors by a cookie kept 30 days on the link’s path, the same target at every visit; bots the first target', async () => {
      const account = await ctx.t.account('ruled');
      const split = [
        { url: 'https://example.com/a', weight: 50 },
        { url: 'https://example.com/b', weight: 50 },
      ];
      const link = await make(ctx.t, account, { url: fresh(), rules: [{ split, conditions: [{ type: 'query-any', key: 'ab' }] }] });
      // A browser's user agent: app.inject's own (`lightMyRequest`) is on the bot list.
      const visit = (cookie?: string, userAgent = BROWSER) =>
        ctx.t.app.inject({ url: `/${link.slug}?ab`, headers: { host: BASE_HOST, 'user-agent': userAgent, ...(cookie && { cookie }) } });
      const first = await visit();
      assert.equal(first.statusCode, 302);
      assert.equal(first.headers['cache-control'], 'private, no-store');
      const setCookie = String(first.headers['set-cookie']);
      const bucket = /^brief_split=(\d{1,2}); Path=\/([^;]+); Max-Age=2592000; HttpOnly; SameSite=Lax$/.exec(setCookie);
      assert.ok(bucket, setCookie);
      assert.equal(bucket[2], link.slug, "only on the link's path");
      const expected = Number(bucket[1]) < 50 ? 'https://example.com/a?ab' : 'https://example.com/b?ab';
      assert.equal(first.headers.location, expected);
      for (let i = 0; i < 5; i++) {
        const again = await visit(`other=1; brief_split=${bucket[1]}`);
        assert.equal(again.headers.location, expected, 'sticky');
        assert.equal(again.headers['set-cookie'], undefined, 'kept, not drawn again');
      }
      assert.equal((await visit('brief_split=12')).headers.location, 'https://example.com/a?ab');
      assert.equal((await visit('brief_split=87')).headers.location, 'https://example.com/b?ab');
      const bot = await visit('brief_split=87', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');
      assert.deepEqual([bot.headers.location, bot.headers['set-cookie']], ['https://example.com/a?ab', undefined]);
      // Not matching the rule: the link's own url, and no cookie.
      const plain = await ctx.t.app.inject({ url: `/${link.slug}`, headers: { host: BASE_HOST, 'user-agent': BROWSER } });
      assert.deepEqual([plain.headers.location, plain.headers['set-cookie']], [link.url, undefined]);
    });

    it('follows an edit of the rules at the next visit, a cached link included, and answers as before once they are removed', async () => {
      const account = await ctx.t.account('ruled');
      const link = await make(ctx.t, account, { url: fresh(), rules: RULES });
      for (let i = 0; i < 3; i++) assert.equal((await overHttp(ctx.t, `/${link.slug}`)).status, 302);
      const edit = (rules: unknown[]) =>
        ctx.t.app.inject({ method: 'PATCH', url: `/v3/shorten/${BASE_HOST}/${link.slug}`, headers: account.headers, payload: { rules } });
      assert.equal((await edit([{ url: 'https://example.com/any', conditions: [{ type: 'query-any', key: 'x' }] }])).statusCode, 200);
      assert.deepEqual(await overHttp(ctx.t, `/${link.slug}?x=1`), personal('https://example.com/any?x=1'));
      assert.deepEqual(await inject(`/${link.slug}?utm_source=news`), personal(`${link.url}?utm_source=news`));
      assert.equal((await edit([])).statusCode, 200);
      assert.deepEqual(await overHttp(ctx.t, `/${link.slug}?x=1`), { status: 301, location: `${link.url}?x=1`, cache: 'private, max-age=90' });
      assert.deepEqual(await overHttp(ctx.t, `/${link.slug}`), { status: 301, location: link.url, cache: 'private, max-age=90' });
    });

    it('follows an edit made by another process (the link_changes feed), as a delete is', async () => {
      const account = await ctx.t.account('ruled');
      const link = await make(ctx.t, account, { url: fresh() });
      for (let i = 0; i < 3; i++) assert.equal((await overHttp(ctx.t, `/${link.slug}`)).status, 301);
      // The test's own LinkService, as another instance's: the app hears of it only through the feed it polls.
      // The server's own caller for the account (no role: every right), as the CLI's.
      await ctx.t.links.edit({ accountId: account.id, anonymous: false }, BASE_HOST, link.slug, { rules: RULES });
      assert.ok(
        await eventually(
          async () => (await overHttp(ctx.t, `/${link.slug}?utm_source=news`)).location === 'https://example.com/news?from=rule&utm_source=news',
        ),
        'the app still answered the link as it was before its rules',
      );
    });
  });
}
