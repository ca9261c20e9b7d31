// Issue 25 item 1 (decision 0015): a request whose Host is no short domain is answered as the default domain — the
// web app, the API and its redirects — unless STRICT_HOSTS=on keeps the 404; a link of a configured domain never
// resolves on another one, and an unverified claim's Host answers as if nobody had claimed it.
// Needs the built web app (npm test builds first), as test/web/routes.http.test.ts does.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { describe, it } from 'node:test';
import { NOT_FOUND_PAGE } from '../../src/html/pages.js';
import { BASE_HOST, BASE_PREFIX, PUBLIC_HOST, qs, type TestAccount, type TestApp, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

let counter = 0;
const freshUrl = () => `https://example.com/any-host/${Date.now()}-${++counter}`;
const UNKNOWN_HOSTS = ['nowhere.test', '127.0.0.1:3000', '192.168.1.20', 'brief', ''];

async function make(t: TestApp, params: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ url: `/v2/shorten?${qs({ url: freshUrl(), ...params })}`, headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function claim(t: TestApp, account: TestAccount) {
  const domain = `${uniqueName('claim').toLowerCase()}.example`;
  const res = await t.app.inject({ method: 'PUT', url: '/v3/shorten/domains', headers: account.headers, payload: { domain } });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().verified, false);
  return domain;
}

/** GET through the real server, so the node:http fast path answers what it can. */
async function getOverHttp(t: TestApp, host: string, path: string): Promise<{ status: number; location: string | undefined }> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as net.AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location }));
      })
      .on('error', reject);
  });
}

for (const dialect of dialects) {
  describe(`a Host that is no short domain (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    const visit = (host: string, url: string, method: 'GET' | 'HEAD' = 'GET') => ctx.t.app.inject({ method, url, headers: { host } });

    it("answers the default domain's redirects, through the router and the fast path", async () => {
      const link = await make(ctx.t, { slug: uniqueName('fallback') });
      for (const host of UNKNOWN_HOSTS) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await visit(host, `/${link.slug}`, method);
          assert.equal(res.statusCode, 301, `${method} on "${host}"`);
          assert.equal(res.headers.location, link.url);
        }
        assert.deepEqual(await getOverHttp(ctx.t, host || 'x', `/${link.slug}`), { status: 301, location: link.url }, host);
      }
      assert.equal((await visit('nowhere.test', '/no-such-key')).statusCode, 404);
    });

    it("answers the default domain's web app, on / and /app/…", async () => {
      for (const host of ['nowhere.test', '127.0.0.1:3000']) {
        for (const path of ['/', '/app', '/app/links']) {
          const res = await visit(host, path);
          assert.equal(res.statusCode, 200, `${host}${path}`);
          assert.match(res.body, /\/assets\/index-/, 'the app');
        }
      }
    });

    it('answers the API, whose short URLs name the default domain', async () => {
      const res = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: freshUrl() })}`, headers: { host: '10.0.0.5:3000' } });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(res.json().shortened.startsWith(`${BASE_PREFIX}/`), res.body);
      const domains = await ctx.t.app.inject({ url: '/v2/shorten-domains', headers: { host: 'nowhere.test' } });
      assert.equal(domains.statusCode, 200, domains.body);
    });

    it('never resolves a link of a configured domain on another domain, or on a Host that is none', async () => {
      const owner = await ctx.t.account('hosts');
      const b = await ctx.t.privateDomain(owner.id, 'b');
      const c = await ctx.t.privateDomain(owner.id, 'c');
      const slug = uniqueName('only-b');
      const onB = await make(ctx.t, { domain: b, slug }, owner.headers);
      const onPublic = await make(ctx.t, { domain: PUBLIC_HOST, slug: uniqueName('only-pub') });
      assert.equal((await visit(b, `/${slug}`)).headers.location, onB.url);
      for (const host of [c, BASE_HOST, PUBLIC_HOST, 'nowhere.test']) {
        const res = await visit(host, `/${slug}`);
        assert.equal(res.statusCode, 404, host);
        assert.equal(res.body, NOT_FOUND_PAGE);
        assert.equal((await getOverHttp(ctx.t, host, `/${slug}`)).status, 404, `${host} (fast path)`);
      }
      for (const host of [b, BASE_HOST, 'nowhere.test']) assert.equal((await visit(host, `/${onPublic.slug}`)).statusCode, 404, host);
    });

    it("answers an unverified claim's Host as if nobody had claimed it: the default domain's links, not the claim's", async () => {
      const owner = await ctx.t.account('squatter');
      const claimed = await claim(ctx.t, owner);
      const settings = await ctx.t.app.inject({
        method: 'PATCH',
        url: `/v3/shorten/domains/${claimed}`,
        headers: owner.headers,
        payload: { homePageRedirectUrl: 'https://example.com/squat', notFoundPageRedirectUrl: 'https://example.com/squat-lost' },
      });
      assert.equal(settings.statusCode, 200, settings.body);
      const slug = uniqueName('shared');
      const theirs = await make(ctx.t, { slug });
      const claimants = await ctx.t.app.inject({
        url: `/v3/shorten?${qs({ url: freshUrl(), domain: claimed, slug: uniqueName('mine') })}`,
        headers: owner.headers,
      });
      assert.equal(claimants.statusCode, 200, claimants.body);
      // The default domain's link under the claimed Host, as before the claim …
      assert.equal((await visit(claimed, `/${slug}`)).headers.location, theirs.url);
      assert.deepEqual(await getOverHttp(ctx.t, claimed, `/${slug}`), { status: 301, location: theirs.url });
      // … and none of the claim's own: its links, its home and not-found redirects.
      assert.equal((await visit(claimed, `/${claimants.json().slug}`)).statusCode, 404);
      const bare = await visit(claimed, '/');
      assert.equal(bare.statusCode, 200, 'the web app');
      assert.equal(bare.headers.location, undefined);
      assert.equal((await visit(claimed, '/no-such-key')).headers.location, undefined);
    });
  });

  describe(`STRICT_HOSTS=on (${dialect})`, () => {
    const ctx = useTestApp(dialect, { STRICT_HOSTS: 'on' });
    const visit = (host: string, url: string) => ctx.t.app.inject({ url, headers: { host } });

    it('answers 404 to redirects and the web app on a Host that is no domain; the API still answers', async () => {
      const link = await make(ctx.t, { slug: uniqueName('strict') });
      assert.equal((await visit(BASE_HOST, `/${link.slug}`)).statusCode, 301);
      for (const host of UNKNOWN_HOSTS) {
        for (const path of [`/${link.slug}`, '/', '/app/links']) {
          const res = await visit(host, path);
          assert.equal(res.statusCode, 404, `${host}${path}`);
          assert.equal(res.body, NOT_FOUND_PAGE);
        }
        assert.equal((await getOverHttp(ctx.t, host || 'x', `/${link.slug}`)).status, 404, `${host} (fast path)`);
      }
      assert.equal((await ctx.t.app.inject({ url: '/v2/shorten-domains', headers: { host: 'nowhere.test' } })).statusCode, 200);
    });

    it("answers 404 to an unverified claim's links", async () => {
      const owner = await ctx.t.account('strict-claim');
      const claimed = await claim(ctx.t, owner);
      const made = await ctx.t.app.inject({ url: `/v3/shorten?${qs({ url: freshUrl(), domain: claimed })}`, headers: owner.headers });
      assert.equal(made.statusCode, 200, made.body);
      assert.equal((await visit(claimed, `/${made.json().slug}`)).statusCode, 404);
      assert.equal((await getOverHttp(ctx.t, claimed, `/${made.json().slug}`)).status, 404);
    });
  });
}
