// Query numbers too large for a double (`1e400`, 400 nines) are refused as not whole numbers
// (found by the property tests: Ajv's coercion made them Infinity, which passed `integer`
// and skipped the bounds: `limit` answered 500 and `width` drew an SVG "Infinity" pixels wide).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

describe('numbers beyond a double in the query', () => {
  const ctx = useTestApp('sqlite');
  const huge = ['1e400', '9'.repeat(400), '-1e400'];
  const cases: Array<[string, string]> = [
    ['/v2/shorten-domains', 'page'],
    ['/v2/shorten-domains', 'perPage'],
    ['/v3/shorten/list', 'page'],
    ['/v3/shorten/list', 'perPage'],
    ['/v3/shorten/analytics/top-browsers', 'limit'],
    ['/v2/qrcode?url=https%3A%2F%2Fexample.com&format=png', 'width'],
    ['/v2/qrcode?url=https%3A%2F%2Fexample.com', 'margin'],
  ];

  it('answers 422 "must be a whole number" for every integer query parameter', async () => {
    const account = await ctx.t.account();
    for (const [path, field] of cases) {
      for (const value of huge) {
        const url = `${path}${path.includes('?') ? '&' : '?'}${field}=${value}`;
        const response = await ctx.t.app.inject({ url, headers: account.headers });
        assert.equal(response.statusCode, 422, `${url}: ${response.body}`);
        assert.deepEqual(response.json(), {
          message: `The ${field} field must be a whole number`,
          code: 'E_VALIDATION_ERROR',
          errors: [{ field, rule: 'integer', message: `The ${field} field must be a whole number` }],
        });
      }
    }
  });

  it('still takes the largest and smallest allowed values', async () => {
    const account = await ctx.t.account();
    assert.equal((await ctx.t.app.inject({ url: '/v2/qrcode?url=https%3A%2F%2Fexample.com&width=2048&margin=16' })).statusCode, 200);
    assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/list?page=1&perPage=500', headers: account.headers })).statusCode, 200);
  });
});

// The same coercion in a path: `DELETE /v3/tokens/1e400` answered 500 on PostgreSQL (Infinity reached the query).
for (const dialect of dialects) {
  describe(`numbers beyond a double in the path (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    const cases: Array<[method: 'DELETE' | 'PATCH', path: string, field: string]> = [
      ['DELETE', '/v3/tokens/', 'id'],
      ['DELETE', '/auth/members/', 'userId'],
      ['PATCH', '/auth/members/', 'userId'],
      ['DELETE', '/auth/passkeys/', 'id'],
    ];

    it('answers 422 "must be a whole number" for every integer path parameter', async () => {
      const account = await ctx.t.account();
      for (const [method, path, field] of cases) {
        for (const value of ['1e400', '9'.repeat(400), 'Infinity']) {
          const payload = method === 'PATCH' ? { role: 'viewer' } : undefined;
          const response = await ctx.t.app.inject({ method, url: `${path}${value}`, headers: account.headers, payload });
          assert.equal(response.statusCode, 422, `${method} ${path}${value}: ${response.body}`);
          assert.equal(response.json().errors[0].field, field);
        }
      }
    });
  });
}
