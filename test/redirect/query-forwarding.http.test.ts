// Issue 25 item 7 (decision 0015): a visitor's query string goes on to the destination — added after the
// destination's own parameters, the destination's value winning a clash, its fragment kept — unless FORWARD_QUERY=off
// or the link opted out (v3 `forwardQuery: false`). A query that cannot be parsed, or a result past the length limit,
// redirects to the destination as stored.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { describe, it } from 'node:test';
import { URL_MAX_LENGTH } from '../../src/net/normalize-url.js';
import { BASE_HOST, eventually, qs, type TestAccount, type TestApp, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

let counter = 0;
const fresh = (suffix = '') => `https://example.com/forward/${Date.now()}-${++counter}${suffix}`;

/** A v3 link of the account (GET /v3/shorten), with `forwardQuery` as given. */
async function make(t: TestApp, account: TestAccount, url: string, params: Record<string, string> = {}) {
  const res = await t.app.inject({ url: `/v3/shorten?${qs({ url, ...params })}`, headers: account.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { slug: string; domain: string; url: string };
}

/** GET through the real server: what a browser's request meets, the node:http fast path included. */
async function getOverHttp(t: TestApp, path: string): Promise<{ status: number; location: string | undefined }> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as net.AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { host: BASE_HOST }, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location }));
      })
      .on('error', reject);
  });
}

for (const dialect of dialects) {
  describe(`query strings on redirect (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    const visit = (path: string, method: 'GET' | 'HEAD' = 'GET') => ctx.t.app.inject({ method, url: path, headers: { host: BASE_HOST } });
    const location = async (path: string) => {
      const res = await visit(path);
      assert.equal(res.statusCode, 301, `${path}: ${res.body}`);
      return res.headers.location;
    };

    it('adds the visitor’s parameters to a destination without any, for GET and HEAD, through either door', async () => {
      const account = await ctx.t.account('fwd');
      const link = await make(ctx.t, account, fresh());
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await visit(`/${link.slug}?utm_source=news&ref=x`, method);
        assert.equal(res.statusCode, 301, method);
        assert.equal(res.headers.location, `${link.url}?utm_source=news&ref=x`, method);
      }
      assert.deepEqual(await getOverHttp(ctx.t, `/${link.slug}?utm_source=news&ref=x`), {
        status: 301,
        location: `${link.url}?utm_source=news&ref=x`,
      });
      // Without a query string, the stored destination exactly, on both doors.
      assert.equal(await location(`/${link.slug}`), link.url);
      assert.deepEqual(await getOverHttp(ctx.t, `/${link.slug}`), { status: 301, location: link.url });
      assert.equal(await location(`/${link.slug}?`), link.url, 'an empty query adds nothing');
    });

    it('keeps the destination’s own parameters and their values on a clash, and its fragment at the end', async () => {
      const account = await ctx.t.account('fwd');
      const link = await make(ctx.t, account, fresh('?utm_source=brief&q=1#top'));
      assert.equal(await location(`/${link.slug}?utm_source=news&ref=x&q=2`), `${link.url.replace('#top', '')}&ref=x#top`);
      const fragmentOnly = await make(ctx.t, account, fresh('#section-2'));
      assert.equal(await location(`/${fragmentOnly.slug}?a=1`), fragmentOnly.url.replace('#section-2', '?a=1#section-2'));
    });

    it('keeps the visitor’s escapes and repeated names, and escapes what a Location must not carry raw', async () => {
      const account = await ctx.t.account('fwd');
      const link = await make(ctx.t, account, fresh());
      assert.equal(await location(`/${link.slug}?q=a%20b+c&tag=x&tag=y&flag`), `${link.url}?q=a%20b+c&tag=x&tag=y&flag`);
      assert.equal(await location(`/${link.slug}?q=%E2%9C%93`), `${link.url}?q=%E2%9C%93`);
      const res = await getOverHttp(ctx.t, `/${link.slug}?q="x"`);
      assert.deepEqual(res, { status: 301, location: `${link.url}?q=%22x%22` });
    });

    it('redirects to the destination as stored when the query cannot be parsed', async () => {
      const account = await ctx.t.account('fwd');
      const link = await make(ctx.t, account, fresh('?keep=1'));
      for (const query of ['a=%zz', 'a=1&b=%', 'x=%4']) assert.equal(await location(`/${link.slug}?${query}`), link.url, query);
      assert.equal((await getOverHttp(ctx.t, `/${link.slug}?a=%zz&b=2`)).location, link.url);
    });

    it('redirects to the destination as stored when forwarding would pass the URL length limit', async () => {
      const account = await ctx.t.account('fwd');
      const long = fresh(`/${'a'.repeat(URL_MAX_LENGTH - 100)}`);
      const link = await make(ctx.t, account, long);
      assert.equal(await location(`/${link.slug}?s=1`), `${link.url}?s=1`, 'what fits is forwarded');
      assert.equal(await location(`/${link.slug}?s=${'b'.repeat(200)}`), link.url);
    });

    it('forwards on after the right password of a protected link', async () => {
      const account = await ctx.t.account('fwd');
      const url = fresh();
      const made = await ctx.t.app.inject({
        method: 'POST',
        url: '/v3/shorten/bulk',
        headers: account.headers,
        payload: [{ url, password: 'open sesame' }],
      });
      assert.equal(made.statusCode, 200, made.body);
      const { slug } = made.json()[0];
      const res = await ctx.t.app.inject({
        method: 'POST',
        url: `/${slug}?utm_source=mail`,
        headers: { host: BASE_HOST, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ password: 'open sesame' }).toString(),
      });
      assert.equal(res.statusCode, 303, res.body);
      assert.equal(res.headers.location, `${url}?utm_source=mail`);
    });

    it('forwards only a live link’s redirect: not a blocked link’s 410, nor a domain’s not-found or home redirect', async () => {
      const account = await ctx.t.account('only-links');
      const link = await make(ctx.t, account, fresh());
      await ctx.t.links.setStatus(`${link.domain}/${link.slug}`, 'blocked');
      assert.ok(await eventually(async () => (await visit(`/${link.slug}?a=1`)).statusCode === 410), 'blocked');
      assert.equal((await visit(`/${link.slug}?a=1`)).headers.location, undefined);

      const own = await ctx.t.privateDomain(account.id, 'fwd');
      const settings = await ctx.t.app.inject({
        method: 'PATCH',
        url: `/v3/shorten/domains/${own}`,
        headers: account.headers,
        payload: { homePageRedirectUrl: 'https://example.com/home', notFoundPageRedirectUrl: 'https://example.com/lost' },
      });
      assert.equal(settings.statusCode, 200, settings.body);
      const onOwn = (path: string) => ctx.t.app.inject({ url: path, headers: { host: own } });
      assert.equal((await onOwn('/no-such-key?a=1')).headers.location, 'https://example.com/lost');
      assert.equal((await onOwn('/?a=1')).headers.location, 'https://example.com/home');
    });

    it('lets a link opt out (v3 forwardQuery), on create, in bulk and by edit, and shows the switch', async () => {
      const account = await ctx.t.account('optout');
      const off = await make(ctx.t, account, fresh(), { forwardQuery: 'false' });
      assert.equal(await location(`/${off.slug}?utm_source=news`), off.url);
      const one = (slug: string) => ctx.t.app.inject({ url: `/v3/shorten/${BASE_HOST}/${slug}`, headers: account.headers });
      assert.equal((await one(off.slug)).json().forwardQuery, false);

      const on = await make(ctx.t, account, fresh(), { forwardQuery: '1' });
      assert.equal((await one(on.slug)).json().forwardQuery, true);
      assert.equal(await location(`/${on.slug}?a=1`), `${on.url}?a=1`);

      const bulkUrl = fresh();
      const bulk = await ctx.t.app.inject({
        method: 'POST',
        url: '/v3/shorten/bulk',
        headers: account.headers,
        payload: [{ url: bulkUrl, forwardQuery: false }],
      });
      assert.equal(bulk.statusCode, 200, bulk.body);
      const [bulkOff] = bulk.json();
      assert.equal(await location(`/${bulkOff.slug}?a=1`), bulkUrl);

      const edit = (slug: string, payload: object) =>
        ctx.t.app.inject({ method: 'PATCH', url: `/v3/shorten/${BASE_HOST}/${slug}`, headers: account.headers, payload });
      const edited = await edit(on.slug, { forwardQuery: false });
      assert.equal(edited.statusCode, 200, edited.body);
      assert.equal(edited.json().forwardQuery, false);
      assert.equal(await location(`/${on.slug}?a=1`), on.url, 'at once on this instance');
      assert.equal((await edit(on.slug, { forwardQuery: true })).json().forwardQuery, true);
      assert.equal(await location(`/${on.slug}?a=1`), `${on.url}?a=1`);
      assert.equal((await edit(on.slug, { forwardQuery: 'maybe' })).statusCode, 422);

      const listed = await ctx.t.app.inject({ url: '/v3/shorten/list?perPage=500', headers: account.headers });
      const bySlug = new Map(listed.json().links.map((l: { slug: string; forwardQuery: boolean }) => [l.slug, l.forwardQuery]));
      assert.deepEqual([bySlug.get(off.slug), bySlug.get(on.slug)], [false, true]);
    });

    it('never returns a link that does not forward for a request that did not ask so (dedupe)', async () => {
      const account = await ctx.t.account('dedupe');
      const url = fresh();
      const off = await make(ctx.t, account, url, { forwardQuery: 'false', returnExisting: '1' });
      const again = await make(ctx.t, account, url, { returnExisting: '1' });
      assert.notEqual(again.slug, off.slug);
      const offAgain = await make(ctx.t, account, url, { forwardQuery: 'false', returnExisting: '1' });
      assert.notEqual(offAgain.slug, again.slug);
    });

    it('names forwardQuery in the API document (create, bulk, edit and the link views)', async () => {
      const doc = (await ctx.t.app.inject({ url: '/v2/openapi.json' })).json();
      const text = JSON.stringify(doc.paths['/v3/shorten']);
      assert.match(text, /forwardQuery/);
      for (const [path, method] of [
        ['/v3/shorten/{domain}/{slug}', 'patch'],
        ['/v3/shorten/{domain}/{slug}', 'get'],
        ['/v3/shorten/list', 'get'],
      ] as const) {
        assert.match(JSON.stringify(doc.paths[path][method]), /forwardQuery/, `${method} ${path}`);
      }
    });
  });

  describe(`FORWARD_QUERY=off (${dialect})`, () => {
    const ctx = useTestApp(dialect, { FORWARD_QUERY: 'off' });

    it('redirects every link to its destination as stored, whatever the query', async () => {
      const account = await ctx.t.account('off');
      const link = await make(ctx.t, account, fresh('?own=1#f'), { forwardQuery: 'true' });
      const res = await ctx.t.app.inject({ url: `/${link.slug}?utm_source=news`, headers: { host: BASE_HOST } });
      assert.equal(res.statusCode, 301);
      assert.equal(res.headers.location, link.url);
      assert.equal((await getOverHttp(ctx.t, `/${link.slug}?utm_source=news`)).location, link.url);
    });
  });
}
