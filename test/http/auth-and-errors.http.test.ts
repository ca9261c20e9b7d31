// Issue 2, API behaviour 1 (auth) and 2 (errors), including hostile input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASE_HOST, buildTestApp, qs, useTestApp } from '../support/app.js';
import { dialects, openTestDatabase } from '../support/database.js';

for (const dialect of dialects) {
  describe(`auth and errors (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    /** One valid request to each API endpoint, with the given headers. */
    async function everyEndpoint(headers: Record<string, string>) {
      const { app } = ctx.t;
      return Promise.all([
        app.inject({ method: 'GET', url: `/v2/shorten?${qs({ url: 'https://example.com/auth' })}`, headers }),
        app.inject({ method: 'GET', url: '/v2/shorten-domains', headers }),
        app.inject({ method: 'DELETE', url: '/v2/links/abcdefg', headers }),
      ]);
    }

    function assertUnauthorized(res: { statusCode: number; json(): any }) {
      assert.equal(res.statusCode, 401);
      const body = res.json();
      assert.equal(body.code, 'E_UNAUTHORIZED_ACCESS');
      assert.equal(typeof body.message, 'string');
    }

    describe('auth', () => {
      it('treats a request without Authorization as the anonymous account', async () => {
        const res = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/anon' })}` });
        assert.equal(res.statusCode, 200);
        const row = await ctx.t.database.db
          .selectFrom('links')
          .innerJoin('accounts', 'accounts.id', 'links.account_id')
          .select('accounts.name')
          .where('links.code', '=', res.json().code)
          .executeTakeFirstOrThrow();
        assert.equal(row.name, 'anonymous');
      });

      it('makes links as the token holder', async () => {
        const account = await ctx.t.account();
        const res = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/mine' })}`, headers: account.headers });
        assert.equal(res.statusCode, 200);
        const row = await ctx.t.database.db.selectFrom('links').select('account_id').where('code', '=', res.json().code).executeTakeFirstOrThrow();
        assert.equal(row.account_id, account.id);
      });

      it('answers 401 to an unknown token on every endpoint', async () => {
        for (const res of await everyEndpoint({ authorization: 'Bearer brf_doesnotexist' })) assertUnauthorized(res);
      });

      it('answers 401 to a malformed Authorization header on every endpoint', async () => {
        for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'token', '']) {
          for (const res of await everyEndpoint({ authorization: header })) assertUnauthorized(res);
        }
      });

      it('answers 401 to a revoked token on every endpoint', async () => {
        const account = await ctx.t.account();
        for (const res of await everyEndpoint(account.headers)) assert.notEqual(res.statusCode, 401);
        const [token] = await ctx.t.tokens.listTokens(account.name);
        await ctx.t.tokens.revokeToken(token!.id);
        for (const res of await everyEndpoint(account.headers)) assertUnauthorized(res);
      });

      it('answers 401 to an expired token on every endpoint', async () => {
        const account = await ctx.t.account();
        const [token] = await ctx.t.tokens.listTokens(account.name);
        await ctx.t.database.db
          .updateTable('tokens')
          .set({ expires_at: Date.now() - 1000 })
          .where('id', '=', token!.id)
          .execute();
        for (const res of await everyEndpoint(account.headers)) assertUnauthorized(res);
      });

      it('accepts a token that expires in the future', async () => {
        const account = await ctx.t.account();
        const { token } = await ctx.t.tokens.createToken(account.name, { expiresInDays: 1 });
        const res = await ctx.t.app.inject({ url: '/v2/shorten-domains', headers: { authorization: `Bearer ${token}` } });
        assert.equal(res.statusCode, 200);
      });

      it('lists only public domains without a token', async () => {
        const account = await ctx.t.account();
        const own = await ctx.t.privateDomain(account.id);
        const anonymous = (await ctx.t.app.inject({ url: '/v2/shorten-domains?perPage=500' })).json();
        assert.ok(anonymous.data.length > 0);
        assert.ok(anonymous.data.every((d: any) => d.visibility === 'public'));
        assert.ok(!anonymous.data.some((d: any) => d.domainName === own));
        const owner = (await ctx.t.app.inject({ url: '/v2/shorten-domains?perPage=500', headers: account.headers })).json();
        assert.ok(owner.data.some((d: any) => d.domainName === own && d.visibility === 'private'));
      });

      it('answers 401 to DELETE without a token', async () => {
        const link = (await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/del-anon' })}` })).json();
        const res = await ctx.t.app.inject({ method: 'DELETE', url: `/v2/links/${link.code}` });
        assertUnauthorized(res);
        const redirect = await ctx.t.app.inject({ url: `/${link.code}`, headers: { host: BASE_HOST } });
        assert.equal(redirect.statusCode, 301, 'the link still works');
      });
    });

    describe('errors', () => {
      it('answers 422 with message, code and errors[{field, rule, message}] for bad input', async () => {
        const res = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'example.com' })}` });
        assert.equal(res.statusCode, 422);
        assert.match(res.headers['content-type'] as string, /^application\/json/);
        const body = res.json();
        assert.deepEqual(Object.keys(body).sort(), ['code', 'errors', 'message']);
        assert.equal(body.code, 'E_VALIDATION_ERROR');
        assert.equal(body.message, 'The url field must be a valid URL');
        assert.deepEqual(body.errors, [{ field: 'url', rule: 'url', message: 'The url field must be a valid URL' }]);
      });

      it('uses the v2 messages', async () => {
        const account = await ctx.t.account();
        await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/taken', slug: 'msg-taken' })}` });
        const cases: Array<[string, string, Record<string, string>?]> = [
          ['/v2/shorten', 'The url field must be defined'],
          [`/v2/shorten?${qs({ url: 'nope' })}`, 'The url field must be a valid URL'],
          [`/v2/shorten?${qs({ url: 'https://example.com/', slug: 'bad slug' })}`, 'The slug field format is invalid'],
          [`/v2/shorten?${qs({ url: 'https://example.com/other', slug: 'msg-taken' })}`, 'The slug has already been taken'],
          [`/v2/shorten?${qs({ url: 'https://example.com/', domain: 'unknown.example' })}`, 'The selected domain is invalid'],
          ['/v2/shorten-domains?perPage=0', 'The perPage field must be between 1 and 500'],
          ['/v2/shorten-domains?perPage=501', 'The perPage field must be between 1 and 500'],
          ['/v2/shorten-domains?visibility=secret', 'The selected visibility is invalid', account.headers],
        ];
        for (const [url, message, headers] of cases) {
          const res = await ctx.t.app.inject({ url, headers });
          assert.equal(res.statusCode, 422, url);
          const body = res.json();
          assert.equal(body.code, 'E_VALIDATION_ERROR', url);
          assert.equal(body.message, message, url);
          assert.ok(Array.isArray(body.errors) && body.errors.length > 0, url);
          for (const e of body.errors) assert.deepEqual(Object.keys(e).sort(), ['field', 'message', 'rule']);
          assert.equal(body.errors[0].message, message);
        }
      });

      it('answers 404 E_ROUTE_NOT_FOUND for unknown API paths and methods', async () => {
        for (const [method, url] of [
          ['GET', '/v2/unknown'],
          ['GET', '/v2/'],
          ['GET', '/v2'],
          ['GET', '/v2/links'],
          ['POST', '/v2/shorten'],
          ['PUT', '/v2/links/abc'],
          ['GET', '/v2/unknown?x=1'],
        ] as const) {
          const res = await ctx.t.app.inject({ method, url });
          assert.equal(res.statusCode, 404, `${method} ${url}`);
          const body = res.json();
          assert.equal(body.code, 'E_ROUTE_NOT_FOUND');
          assert.equal(typeof body.message, 'string');
        }
      });

      it('answers 400 E_BAD_REQUEST with { message, code } for a malformed path', async () => {
        for (const [method, url] of [
          ['GET', '/%FF'],
          ['GET', '/%E0%A4%A'],
          ['GET', '/v2/%FF'],
          ['DELETE', '/v2/links/%ED%A0%80'],
        ] as const) {
          const res = await ctx.t.app.inject({ method, url, headers: { host: BASE_HOST } });
          assert.equal(res.statusCode, 400, `${method} ${url}`);
          const body = res.json();
          assert.deepEqual(Object.keys(body).sort(), ['code', 'message'], `${method} ${url}`);
          assert.equal(body.code, 'E_BAD_REQUEST');
        }
      });

      it('answers 404 E_NOT_FOUND for an unknown link', async () => {
        const account = await ctx.t.account();
        const res = await ctx.t.app.inject({ method: 'DELETE', url: '/v2/links/NoSuchLink', headers: account.headers });
        assert.equal(res.statusCode, 404);
        assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'message']);
        assert.equal(res.json().code, 'E_NOT_FOUND');
      });
    });

    describe('hostile input', () => {
      const huge = 'x'.repeat(100_000);
      const queries = [
        'url=a&url=b',
        'url=https://a.example/&url=https://b.example/',
        'url[]=https://example.com/',
        'url[a]=b',
        'url=https://example.com/&slug=a&slug=b',
        'url=https://example.com/&domain=a&domain=b',
        'url=https://example.com/&title=a&title=b',
        `url=https://example.com/${huge}`,
        `url=${huge}`,
        `url=https://example.com/&title=${huge}`,
        `url=https://example.com/&slug=${huge}`,
        `url=https://example.com/&domain=${huge}`,
        'url=%00',
        'url=https://example.com/%00',
        'url=https://exa%00mple.com/',
        'url=%FF%FE',
        'url=%',
        'url=%E0%A4%A',
        'url=https://%F0%9F%98%80.example/%F0%9F%98%80',
        'url=https://example.com/%01%02%1B%7F',
        'url=%0D%0ALocation:%20https://evil.example',
        'url=https://example.com/%0D%0ASet-Cookie:%20x=1',
        'url=http://[::1]/',
        'url=http://[not-ipv6/',
        'url=https://example.com:99999/',
        'url=https://user:pass@example.com/',
        'url=https://example.com/&slug=%00',
        'url=https://example.com/&slug=..',
        'url=https://example.com/&slug=%F0%9F%98%80',
        'url=https://example.com/&domain=%00',
        'url=https://example.com/&domain=SHORT.TEST',
        'url=https://example.com/&domain=short.test:80',
        'url=https://example.com/&domain=%2e%2e',
        'url=https://example.com/&title=%00%01',
        'url=https://example.com/&title=a%00b',
        'url=https://example.com/&domain=pub.test%00',
        'url=https://example.com/&title=%F0%9F%98%80%E2%80%AE',
        '__proto__[x]=1&url=https://example.com/',
        'constructor[prototype][x]=1',
        'page=0',
        'page=-1',
        'page=1e400',
        'page=99999999999999999999',
        'page=1.5',
        'page=%00',
        'page=&perPage=',
        'perPage=NaN',
        'perPage=Infinity',
        'perPage=1&perPage=2',
        'visibility[]=all',
        'visibility=all&visibility=public',
        'visibility=%00',
        `visibility=${huge}`,
        '&&&&',
        '=',
        '%',
      ];
      const bodies = (res: { statusCode: number; headers: Record<string, unknown>; body: string }, label: string) => {
        assert.ok(res.statusCode < 500, `${label} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (String(res.headers['content-type']).startsWith('application/json') && res.statusCode >= 400) {
          const body = JSON.parse(res.body);
          assert.equal(typeof body.message, 'string', label);
          assert.equal(typeof body.code, 'string', label);
        }
      };

      it('never answers 5xx to weird query strings on /v2/shorten and /v2/shorten-domains', async () => {
        const account = await ctx.t.account();
        for (const headers of [{}, account.headers]) {
          for (const query of queries) {
            for (const path of ['/v2/shorten', '/v2/shorten-domains']) {
              const res = await ctx.t.app.inject({ url: `${path}?${query}`, headers });
              bodies(res, `${path}?${query.slice(0, 60)}`);
            }
          }
        }
      });

      it('never answers 5xx to weird links on DELETE /v2/links/{link}', async () => {
        const account = await ctx.t.account();
        for (const link of [
          '%00',
          '%',
          '%FF',
          '%E0%A4%A',
          'a/b/c/d',
          '..%2F..%2Fetc%2Fpasswd',
          '../../etc/passwd',
          encodeURIComponent('https://short.test/'),
          encodeURIComponent('https://short.test/a?b=c'),
          encodeURIComponent('javascript:alert(1)'),
          encodeURIComponent('http://[::1/x'),
          'x'.repeat(2000),
          encodeURIComponent(`https://${'x'.repeat(5000)}/abc`),
          '%F0%9F%98%80',
          'a%00b%2Fabc',
          'a%00b/abc',
          '%ED%A0%80%2Fabc',
          'abc?x=1&x=2',
          '',
          '%20',
        ]) {
          for (const headers of [{}, account.headers]) {
            const res = await ctx.t.app.inject({ method: 'DELETE', url: `/v2/links/${link}`, headers });
            bodies(res, `DELETE ${link.slice(0, 60)}`);
          }
        }
      });

      it('never answers 5xx to weird paths and hosts on the redirect', async () => {
        for (const path of ['/%00', '/%', '/%FF', '/%E0%A4%A', `/${'a'.repeat(5000)}`, '/..', '/%2e%2e', '//', '/a/b', '/?x=1', '/abc?url=a&url=b']) {
          for (const host of [BASE_HOST, 'SHORT.TEST', 'x'.repeat(1000), 'nowhere.test', 'short.test:99999', '[::1]']) {
            for (const method of ['GET', 'HEAD'] as const) {
              const res = await ctx.t.app.inject({ method, url: path, headers: { host } });
              assert.ok(res.statusCode < 500, `${method} ${path.slice(0, 30)} on ${host.slice(0, 30)} → ${res.statusCode}`);
            }
          }
        }
      });
    });
  });

  describe(`internal errors (${dialect})`, () => {
    it('answer 5xx with { message, code } and no internals', async () => {
      const db = await openTestDatabase(dialect);
      const t = await buildTestApp(db.database);
      try {
        await db.database.db.schema.dropTable('link_changes').execute();
        await db.database.db.schema.dropTable('links').execute();
        const res = await t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/boom' })}` });
        assert.equal(res.statusCode, 500);
        assert.deepEqual(res.json(), { message: 'Internal server error', code: 'E_INTERNAL_ERROR' });
      } finally {
        await t.close();
        await db.cleanup();
      }
    });
  });
}
