// Browser-facing safety (issue 15): CORS for the API (any origin by default, no credentials,
// CORS_ORIGINS restricts it, preflights answered), security headers on every HTML page on both
// of the redirect's doors, and pages that echo nothing of the request.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BASE_HOST, qs, useTestApp } from '../support/app.js';

const PAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function assertPageHeaders(headers: http.IncomingHttpHeaders | Record<string, unknown>, where: string): void {
  assert.match(String(headers['content-type']), /^text\/html/, where);
  for (const [name, value] of Object.entries(PAGE_HEADERS)) assert.equal(headers[name], value, `${where}: ${name}`);
  const csp = String(headers['content-security-policy']);
  assert.match(csp, /default-src 'none'/, where);
  assert.match(csp, /frame-ancestors 'none'/, where);
  assert.doesNotMatch(csp, /unsafe-inline|script-src/, `${where}: no script may run`);
}

/** A raw GET over a socket: the node:http fast path answers before Fastify, which inject() never reaches. */
function get(port: number, path: string, host = BASE_HOST): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ port, host: '127.0.0.1', path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('CORS on the API (any origin by default)', () => {
  const ctx = useTestApp('sqlite');

  it('answers a preflight for every API method, without credentials', async () => {
    for (const [url, method] of <Array<[string, string]>>[
      ['/v2/shorten', 'GET'],
      ['/v3/shorten/bulk', 'POST'],
      ['/v3/shorten/short.test/abc', 'PATCH'],
      ['/v2/links/abc', 'DELETE'],
    ]) {
      const res = await ctx.t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      assert.equal(res.statusCode, 204, url);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.match(String(res.headers['access-control-allow-methods']), new RegExp(method));
      assert.match(String(res.headers['access-control-allow-headers']), /authorization/i);
      assert.equal(res.headers['access-control-allow-credentials'], undefined);
      assert.ok(Number(res.headers['access-control-max-age']) > 0);
    }
  });

  it('lets a browser read answers, errors and the rate-limit headers', async () => {
    const ok = await ctx.t.app.inject({ url: '/v2/shorten-domains', headers: { origin: 'https://app.example' } });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['access-control-allow-origin'], '*');
    assert.match(String(ok.headers['access-control-expose-headers']), /RateLimit-Remaining/);
    assert.match(String(ok.headers['access-control-expose-headers']), /Retry-After/);
    const error = await ctx.t.app.inject({ url: '/v3/shorten', headers: { origin: 'https://app.example' } });
    assert.equal(error.statusCode, 422);
    assert.equal(error.headers['access-control-allow-origin'], '*');
  });

  it('answers an OPTIONS that is no preflight as an unknown route, in the error shape', async () => {
    const res = await ctx.t.app.inject({ method: 'OPTIONS', url: '/v2/shorten' });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { message: 'Cannot OPTIONS /v2/shorten', code: 'E_ROUTE_NOT_FOUND' });
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });

  it('gives redirects and pages no CORS headers', async () => {
    const made = (await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/cors' })}` })).json();
    const redirect = await ctx.t.app.inject({ url: `/${made.code}`, headers: { host: BASE_HOST, origin: 'https://app.example' } });
    assert.equal(redirect.statusCode, 301);
    assert.equal(redirect.headers['access-control-allow-origin'], undefined);
  });
});

describe('CORS_ORIGINS', () => {
  const ctx = useTestApp('sqlite', { CORS_ORIGINS: 'https://app.example, http://localhost:5173' });

  it('answers only the listed origins', async () => {
    for (const origin of ['https://app.example', 'http://localhost:5173']) {
      const res = await ctx.t.app.inject({
        method: 'OPTIONS',
        url: '/v2/shorten',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
      assert.equal(res.statusCode, 204);
      assert.equal(res.headers['access-control-allow-origin'], origin);
      assert.match(String(res.headers.vary), /Origin/);
    }
    for (const origin of ['https://evil.example', 'https://app.example.evil.example', 'null']) {
      const preflight = await ctx.t.app.inject({
        method: 'OPTIONS',
        url: '/v2/shorten',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
      assert.equal(preflight.headers['access-control-allow-origin'], undefined, origin);
      assert.equal(preflight.json().code, 'E_ROUTE_NOT_FOUND', 'a refused preflight is an unknown route, in the error shape');
      const res = await ctx.t.app.inject({ url: '/v2/shorten-domains', headers: { origin } });
      assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
    }
  });
});

describe('security headers on every HTML page', () => {
  const ctx = useTestApp('sqlite');
  let port = 0;
  before(async () => {
    await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.t.app.server.address() as AddressInfo).port;
  });
  after(() => ctx.t.app.server.close());

  it('sends them on the 404, 410, expired and password pages, from the fast path and from Fastify', async () => {
    const account = await ctx.t.account();
    const [guarded] = (
      await ctx.t.app.inject({
        method: 'POST',
        url: '/v3/shorten/bulk',
        headers: account.headers,
        payload: [{ url: 'https://example.com/g', password: 'secret1' }],
      })
    ).json();
    const blocked = (await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/blocked-page' })}` })).json();
    await ctx.t.links.setStatus(blocked.code, 'blocked');
    await new Promise((resolve) => setTimeout(resolve, 100)); // the change feed polls every 10 ms in tests
    const pages: Array<[string, number]> = [
      ['/no-such-key', 404],
      ['/a/b/c', 404],
      [`/${blocked.code}`, 410],
      [`/${guarded.slug}`, 200],
      ['/no-such-key?x=1', 404],
    ];
    for (const [path, status] of pages) {
      const raw = await get(port, path);
      assert.equal(raw.status, status, path);
      assertPageHeaders(raw.headers, `GET ${path} (socket)`);
      const injected = await ctx.t.app.inject({ url: path, headers: { host: BASE_HOST } });
      assert.equal(injected.statusCode, status, path);
      assertPageHeaders(injected.headers, `GET ${path} (Fastify)`);
    }
    const wrong = await ctx.t.app.inject({
      method: 'POST',
      url: `/${guarded.slug}`,
      headers: { host: BASE_HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'password=nope',
    });
    assert.equal(wrong.statusCode, 403);
    assertPageHeaders(wrong.headers, 'the wrong-password page');
  });

  it('allows the pages their one style by its hash', async () => {
    const page = await get(port, '/no-such-key');
    const style = /<style>([^<]*)<\/style>/.exec(page.body)?.[1];
    assert.ok(style);
    const { createHash } = await import('node:crypto');
    assert.match(
      String(page.headers['content-security-policy']),
      new RegExp(`style-src 'sha256-${createHash('sha256').update(style).digest('base64').replace(/[+/]/g, '\\$&')}'`),
    );
  });

  it('gives the API reference page headers that keep it to this server', async () => {
    const docs = await ctx.t.app.inject({ url: '/docs' });
    assert.equal(docs.statusCode, 200);
    assert.equal(docs.headers['x-content-type-options'], 'nosniff');
    assert.equal(docs.headers['x-frame-options'], 'DENY');
    assert.match(String(docs.headers['content-security-policy']), /default-src 'self'/);
    assert.match(String(docs.headers['content-security-policy']), /frame-ancestors 'none'/);
  });

  it('echoes nothing of the request in a page', async () => {
    const hostile = `/%3Cscript%3Ealert(1)%3C%2Fscript%3E`;
    for (const path of [hostile, `/x${hostile}`, `${hostile}?q=<b>`]) {
      const res = await ctx.t.app.inject({ url: path, headers: { host: BASE_HOST } });
      assert.equal(res.statusCode, 404, path);
      assert.doesNotMatch(res.body, /script|alert|<b>/i, path);
      assertPageHeaders(res.headers, path);
    }
    const raw = await get(port, '/<script>', 'evil<script>.test');
    assert.doesNotMatch(raw.body, /<script>|evil/);
  });
});
