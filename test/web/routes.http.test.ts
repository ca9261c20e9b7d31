// The web app's serving: where its page answers (the default domain's `/` and `/app/…` only), its headers
// (strict CSP, no inline script, no-cache HTML, immutable hashed assets), and that no slug can take its paths.
// Needs the built app (npm test builds first).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { APP_CONTENT_SECURITY_POLICY } from '../../src/html/pages.js';
import { loadWebApp } from '../../src/web/routes.js';
import { withServerFacts } from '../../src/web/server-facts.js';
import { BASE_HOST, PUBLIC_HOST, qs, useTestApp } from '../support/app.js';

const webApp = loadWebApp();

describe('web app serving', () => {
  const ctx = useTestApp('sqlite');
  const get = (url: string, host = BASE_HOST, headers: Record<string, string> = {}) => ctx.t.app.inject({ url, headers: { host, ...headers } });

  it('is built (npm run build) and its page loads only its own hashed script and style', () => {
    assert.ok(webApp.index, 'dist/web-app/index.html exists');
    const html = webApp.index.toString();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]!, /type="module"[^>]*src="\/assets\/index-[\w-]{8}\.js"/);
    assert.doesNotMatch(html, /<script\b[^>]*>[^<]/, 'no inline script');
    assert.doesNotMatch(html, /<style|style="/, 'no inline style');
    assert.doesNotMatch(html, /https?:\/\//, 'nothing from another host');
  });

  it('keeps all of its JavaScript under 80 KB gzipped (the budget for the first load)', () => {
    const assets = path.join(webApp.dir, 'assets');
    const scripts = fs.readdirSync(assets).filter((name) => name.endsWith('.js'));
    assert.ok(scripts.length > 0);
    const gzipped = scripts.reduce((sum, name) => sum + gzipSync(fs.readFileSync(path.join(assets, name)), { level: 9 }).length, 0);
    assert.ok(gzipped < 80 * 1024, `${gzipped} bytes gzipped`);
  });

  it('never writes HTML from a string: the API’s words reach the page as text only', () => {
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name)) sources.push(file);
      }
    };
    walk(new URL('../../web/src', import.meta.url).pathname);
    assert.ok(sources.length > 10);
    for (const file of sources) {
      assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/, file);
    }
  });

  it('answers / and /app/… on the default domain with the page, its security headers and no-cache', async () => {
    for (const path of ['/', '/app', '/app/links', '/app/links/short.test/abc', '/app/overview', '/app/anything/else?x=1']) {
      const res = await get(path);
      assert.equal(res.statusCode, 200, path);
      assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
      assert.equal(res.body, withServerFacts(webApp, { analytics: 'full' }).index!.toString());
      assert.match(res.body, /<meta name="brief-analytics" content="full"><\/head>/, 'the server says it records visits (ANALYTICS=full)');
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.equal(res.headers['content-security-policy'], APP_CONTENT_SECURITY_POLICY);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.equal(res.headers['x-frame-options'], 'DENY');
    }
    const head = await ctx.t.app.inject({ method: 'HEAD', url: '/', headers: { host: BASE_HOST } });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-security-policy'], APP_CONTENT_SECURITY_POLICY);
  });

  it('tells the app, in a meta element of its page, how much of a visit this server records (ANALYTICS)', () => {
    for (const analytics of ['full', 'minimal', 'off'] as const) {
      const html = withServerFacts(webApp, { analytics }).index!.toString();
      assert.equal(html.match(/<meta name="brief-analytics"/g)?.length, 1, analytics);
      assert.match(html, new RegExp(`<meta name="brief-analytics" content="${analytics}"></head>`));
      assert.equal(html.replace(`<meta name="brief-analytics" content="${analytics}">`, ''), webApp.index!.toString(), 'nothing else changed');
    }
    assert.equal(withServerFacts({ dir: webApp.dir, index: undefined }, { analytics: 'off' }).index, undefined, 'no app, no page');
    const headless = Buffer.from('<p>no head</p>');
    assert.equal(
      withServerFacts({ dir: webApp.dir, index: headless }, { analytics: 'off' }).index,
      headless,
      'a page without a head is left as it is',
    );
  });

  it('has a policy without inline script or style, framing or another host', () => {
    const directives = new Map(APP_CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
    assert.deepEqual(directives.get('style-src'), ["'self'"]);
    assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
    assert.doesNotMatch(APP_CONTENT_SECURITY_POLICY, /unsafe|https?:|\*/);
  });

  it('keeps other domains as they were: a private domain’s home redirect, the 404 page elsewhere', async () => {
    const account = await ctx.t.account();
    const own = await ctx.t.privateDomain(account.id);
    const bare = await ctx.t.privateDomain(account.id);
    const set = await ctx.t.app.inject({
      method: 'PATCH',
      url: `/v3/shorten/domains/${own}`,
      headers: account.headers,
      payload: { homePageRedirectUrl: 'https://example.com/home' },
    });
    assert.equal(set.statusCode, 200, set.body);
    const home = await get('/', own);
    assert.equal(home.statusCode, 302);
    assert.equal(home.headers.location, 'https://example.com/home');
    for (const [host, path] of [
      [bare, '/'],
      [PUBLIC_HOST, '/'],
      [own, '/app/links'],
      [PUBLIC_HOST, '/app'],
    ] as const) {
      const res = await get(path, host);
      assert.equal(res.statusCode, 404, `${host}${path}`);
      assert.doesNotMatch(res.body, /\/assets\/index-/, 'not the app');
      // The visitor pages' own policy (no script at all), not the app's.
      assert.match(String(res.headers['content-security-policy']), /^default-src 'none'; style-src 'sha256-/);
      assert.doesNotMatch(String(res.headers['content-security-policy']), /script-src/);
    }
  });

  it('serves hashed assets as immutable, pre-compressed when the client takes it, and 404 for an unknown one', async () => {
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(webApp.index!.toString())![1]!;
    const style = /href="(\/assets\/[^"]+\.css)"/.exec(webApp.index!.toString())![1]!;
    const plain = await get(script);
    assert.equal(plain.statusCode, 200);
    assert.match(String(plain.headers['content-type']), /^text\/javascript|^application\/javascript/);
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.headers['x-content-type-options'], 'nosniff');
    assert.equal(plain.headers['content-encoding'], undefined);
    const brotli = await get(script, BASE_HOST, { 'accept-encoding': 'gzip, br' });
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.match(String(brotli.headers.vary), /accept-encoding/i);
    const gzip = await get(style, BASE_HOST, { 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.match(String(gzip.headers['content-type']), /^text\/css/);
    const missing = await get('/assets/index-00000000.js');
    assert.equal(missing.statusCode, 404);
    assert.notEqual(missing.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal((await get('/assets/../package.json')).statusCode, 404);
  });

  it('refuses the app’s words as slugs, so no link can take its paths', async () => {
    for (const slug of ['app', 'App', 'assets']) {
      const res = await ctx.t.app.inject({ url: `/v3/shorten?${qs({ url: 'https://example.com/x', slug })}` });
      assert.equal(res.statusCode, 422, slug);
      assert.equal(res.json().errors[0].field, 'slug');
    }
  });
});
