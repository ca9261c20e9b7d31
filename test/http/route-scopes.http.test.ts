// Tokens with scopes (decision 0029): every /v2 and /v3 call declares the scope it needs; a token
// without it answers 403 E_FORBIDDEN naming the scope, a token with it goes on, and callers without
// a token are unaffected. On both dialects.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCOPES, type Scope } from '../../src/accounts/scopes.js';
import { TOP_DIMENSIONS } from '../../src/analytics/analytics-service.js';
import { BASE_HOST, qs, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** The route as the API document names it. */
  route: string;
  body?: unknown;
  scope: Scope | 'every' | 'none';
}

const CALLS: Call[] = [
  { method: 'GET', url: `/v2/shorten?${qs({ url: 'https://example.com/scoped' })}`, route: '/v2/shorten', scope: 'links:write' },
  { method: 'DELETE', url: '/v2/links/nosuchlink', route: '/v2/links/{link}', scope: 'links:write' },
  { method: 'GET', url: '/v2/shorten-domains', route: '/v2/shorten-domains', scope: 'links:read' },
  { method: 'GET', url: `/v2/qrcode?${qs({ url: 'https://example.com/qr' })}`, route: '/v2/qrcode', scope: 'none' },
  { method: 'POST', url: '/v3/shorten/bulk', route: '/v3/shorten/bulk', body: [{ url: 'https://example.com/bulk' }], scope: 'links:write' },
  { method: 'GET', url: `/v3/shorten?${qs({ url: 'https://example.com/v3' })}`, route: '/v3/shorten', scope: 'links:write' },
  { method: 'GET', url: '/v3/shorten/list', route: '/v3/shorten/list', scope: 'links:read' },
  { method: 'GET', url: `/v3/shorten/${BASE_HOST}/nosuchlink`, route: '/v3/shorten/{domain}/{slug}', scope: 'links:read' },
  { method: 'PATCH', url: `/v3/shorten/${BASE_HOST}/nosuchlink`, route: '/v3/shorten/{domain}/{slug}', body: { comment: 'x' }, scope: 'links:write' },
  { method: 'DELETE', url: `/v3/shorten/${BASE_HOST}/nosuchlink`, route: '/v3/shorten/{domain}/{slug}', scope: 'links:write' },
  {
    method: 'POST',
    url: `/v3/shorten/${BASE_HOST}/nosuchlink/evaluate`,
    route: '/v3/shorten/{domain}/{slug}/evaluate',
    body: {},
    scope: 'links:read',
  },
  { method: 'GET', url: '/v3/shorten/domains', route: '/v3/shorten/domains', scope: 'links:read' },
  { method: 'PUT', url: '/v3/shorten/domains', route: '/v3/shorten/domains', body: { domain: 'scoped.example' }, scope: 'domains:write' },
  { method: 'POST', url: '/v3/shorten/domains/none.example/verify', route: '/v3/shorten/domains/{domain}/verify', scope: 'domains:write' },
  { method: 'DELETE', url: '/v3/shorten/domains/none.example', route: '/v3/shorten/domains/{domain}', scope: 'domains:write' },
  { method: 'PATCH', url: '/v3/shorten/domains/none.example', route: '/v3/shorten/domains/{domain}', body: {}, scope: 'domains:write' },
  { method: 'GET', url: '/v3/shorten/domains/none.example/well-known', route: '/v3/shorten/domains/{domain}/well-known', scope: 'links:read' },
  ...(['GET', 'PUT', 'DELETE'] as const).map(
    (method): Call => ({
      method,
      url: '/v3/shorten/domains/none.example/well-known/assetlinks.json',
      route: '/v3/shorten/domains/{domain}/well-known/{name}',
      ...(method === 'PUT' && { body: [] }),
      scope: method === 'GET' ? 'links:read' : 'domains:write',
    }),
  ),
  { method: 'GET', url: '/v3/shorten/analytics/clicks', route: '/v3/shorten/analytics/clicks', scope: 'analytics:read' },
  ...Object.keys(TOP_DIMENSIONS).map(
    (dimension): Call => ({
      method: 'GET',
      url: `/v3/shorten/analytics/top-${dimension}`,
      route: `/v3/shorten/analytics/top-${dimension}`,
      scope: 'analytics:read',
    }),
  ),
  { method: 'GET', url: '/v3/tags', route: '/v3/tags', scope: 'links:read' },
  { method: 'PATCH', url: '/v3/tags/none', route: '/v3/tags/{name}', body: { color: '#000000' }, scope: 'links:write' },
  { method: 'DELETE', url: '/v3/tags/none', route: '/v3/tags/{name}', scope: 'links:write' },
  { method: 'GET', url: '/v3/tokens', route: '/v3/tokens', scope: 'every' },
  { method: 'POST', url: '/v3/tokens', route: '/v3/tokens', body: { name: 'made by a test' }, scope: 'every' },
  { method: 'DELETE', url: '/v3/tokens/999999999', route: '/v3/tokens/{id}', scope: 'every' },
  { method: 'GET', url: '/v3/tokens/current', route: '/v3/tokens/current', scope: 'none' },
  { method: 'GET', url: '/v3/webhooks', route: '/v3/webhooks', scope: 'webhooks:write' },
  {
    method: 'POST',
    url: '/v3/webhooks',
    route: '/v3/webhooks',
    body: { url: 'https://hooks.example.com/', events: ['link.created'] },
    scope: 'webhooks:write',
  },
  { method: 'DELETE', url: '/v3/webhooks/999999999', route: '/v3/webhooks/{id}', scope: 'webhooks:write' },
  { method: 'PATCH', url: '/v3/webhooks/999999999', route: '/v3/webhooks/{id}', body: { enabled: true }, scope: 'webhooks:write' },
  { method: 'POST', url: '/v3/webhooks/999999999/rotate', route: '/v3/webhooks/{id}/rotate', scope: 'webhooks:write' },
  { method: 'POST', url: '/v3/webhooks/999999999/test', route: '/v3/webhooks/{id}/test', scope: 'webhooks:write' },
  { method: 'GET', url: '/v3/webhooks/999999999/deliveries', route: '/v3/webhooks/{id}/deliveries', scope: 'webhooks:write' },
];

for (const dialect of dialects) {
  describe(`token scopes × endpoints (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    /** A token of a new account holding exactly `scopes`. */
    async function tokenWith(scopes: readonly Scope[] | undefined): Promise<Record<string, string>> {
      const account = await ctx.t.accounts.create(uniqueName('scoped'));
      const { token } = await ctx.t.tokens.createToken(account.name, { scopes });
      return { authorization: `Bearer ${token}` };
    }

    const send = (call: Call, headers: Record<string, string>) =>
      ctx.t.app.inject({
        method: call.method,
        url: call.url,
        headers: { ...headers, ...(call.body !== undefined && { 'content-type': 'application/json' }) },
        payload: call.body === undefined ? undefined : JSON.stringify(call.body),
      });

    it('the table below covers every /v2 and /v3 operation of the API document', async () => {
      const document = (await ctx.t.app.inject({ url: '/v2/openapi.json' })).json();
      const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>)
        .filter(([path]) => path.startsWith('/v2/') || path.startsWith('/v3/'))
        .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
        .filter((operation) => !operation.startsWith('HEAD ') && operation !== 'GET /v2/openapi.json');
      const tested = new Set(CALLS.map((call) => `${call.method} ${call.route}`));
      assert.deepEqual(
        documented.filter((operation) => !tested.has(operation)),
        [],
      );
    });

    it('answers 403 E_FORBIDDEN naming the missing scope to a token without it, on every call', async () => {
      for (const scope of SCOPES) {
        const headers = await tokenWith(SCOPES.filter((other) => other !== scope));
        for (const call of CALLS.filter((c) => c.scope === scope || c.scope === 'every')) {
          const res = await send(call, headers);
          assert.equal(res.statusCode, 403, `${call.method} ${call.url} without ${scope}: ${res.body}`);
          const body = res.json();
          assert.equal(body.code, 'E_FORBIDDEN');
          assert.match(body.message, new RegExp(`scope ${scope}`), body.message);
        }
      }
    });

    it('lets a token holding only the scope a call needs make it', async () => {
      for (const call of CALLS) {
        const headers = await tokenWith(call.scope === 'none' ? ['analytics:read'] : call.scope === 'every' ? [...SCOPES] : [call.scope]);
        const res = await send(call, headers);
        assert.ok(![401, 403, 500].includes(res.statusCode), `${call.method} ${call.url}: ${res.statusCode} ${res.body}`);
      }
    });

    it('keeps a token made without scopes able to make every call', async () => {
      const headers = await tokenWith(undefined);
      for (const call of CALLS) {
        const res = await send(call, headers);
        assert.ok(![401, 403, 500].includes(res.statusCode), `${call.method} ${call.url}: ${res.statusCode} ${res.body}`);
      }
    });

    it('leaves anonymous calls as they were: no 403 anywhere, 401 where a token is needed', async () => {
      for (const call of CALLS) {
        const res = await send(call, {});
        assert.notEqual(res.statusCode, 403, `${call.method} ${call.url}`);
        const open = ['/v2/shorten', '/v2/shorten-domains', '/v2/qrcode', '/v3/shorten/bulk', '/v3/shorten'].includes(call.route);
        assert.equal(res.statusCode === 401, !open, `${call.method} ${call.url}: ${res.statusCode} ${res.body}`);
      }
    });

    it('refuses before doing anything: a link made by a token without links:write does not exist', async () => {
      const headers = await tokenWith(['links:read']);
      const res = await ctx.t.app.inject({ url: `/v3/shorten?${qs({ url: 'https://example.com/never', slug: 'never-made' })}`, headers });
      assert.equal(res.statusCode, 403);
      const row = await ctx.t.database.db.selectFrom('links').select('id').where('slug', '=', 'never-made').executeTakeFirst();
      assert.equal(row, undefined);
    });

    it('still answers 401 to a revoked token with scopes, never 403', async () => {
      const account = await ctx.t.accounts.create(uniqueName('revoked'));
      const { token, record } = await ctx.t.tokens.createToken(account.name, { scopes: ['links:read'] });
      await ctx.t.tokens.revokeToken(record.id);
      const res = await ctx.t.app.inject({ url: '/v3/shorten/analytics/clicks', headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.statusCode, 401);
    });

    it('documents 403 on the calls that need a scope, and not on QR codes', async () => {
      const document = (await ctx.t.app.inject({ url: '/v2/openapi.json' })).json();
      assert.ok(document.paths['/v3/shorten/list'].get.responses['403']);
      assert.ok(document.paths['/v3/tokens'].post.responses['403']);
      assert.equal(document.paths['/v2/qrcode'].get.responses['403'], undefined);
    });
  });
}
