// Rate limits (issue 15): links made per address and per token (a bulk call counts each
// item), every other API call, password attempts per address and link; 429 in the error
// shape with Retry-After and RateLimit-*; redirects never limited; ANONYMOUS_SHORTEN=off.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerProblem } from '../../harness/hostile/error-shape.js';
import { BASE_HOST, passwordAttempt, passwordLink, qs, useTestApp } from '../support/app.js';

/** The routes that make links, as the API document names them. */
const SHORTENING_ROUTES = [
  ['/v2/shorten', 'get'],
  ['/v3/shorten', 'get'],
  ['/v3/shorten/bulk', 'post'],
] as const;
let counter = 0;
const fresh = () => `https://example.com/limited/${Date.now()}-${++counter}`;
type Inject = { remoteAddress?: string; headers?: Record<string, string> };

function assertTooMany(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, limit: number): void {
  assert.equal(res.statusCode, 429);
  assert.deepEqual(Object.keys(res.json() as object).sort(), ['code', 'message']);
  assert.equal((res.json() as { code: string }).code, 'E_TOO_MANY_REQUESTS');
  assert.match((res.json() as { message: string }).message, /^Too many requests: the rate limit is reached, try again in \d+ seconds?$/);
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${res.headers['retry-after']}`);
  assert.equal(res.headers['ratelimit-limit'], String(limit));
  assert.equal(res.headers['ratelimit-remaining'], '0');
  assert.ok(Number(res.headers['ratelimit-reset']) >= 1 && Number(res.headers['ratelimit-reset']) <= 60);
}

describe('rate limits on links made', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_ANON: '3', RATE_LIMIT_TOKEN: '5', RATE_LIMIT_READ: '0' });
  const v2 = (options: Inject = {}) => ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: fresh() })}`, ...options });
  const v3 = (options: Inject = {}) => ctx.t.app.inject({ url: `/v3/shorten?${qs({ url: fresh() })}`, ...options });
  const bulk = (n: number, options: Inject = {}) =>
    ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', payload: Array.from({ length: n }, () => ({ url: fresh() })), ...options });

  it('lets an anonymous address make RATE_LIMIT_ANON links a minute, on v2 and v3 together, then answers 429', async () => {
    const remoteAddress = '192.0.2.10';
    const remaining: string[] = [];
    for (const call of [v2, v3, v2]) {
      const res = await call({ remoteAddress });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['ratelimit-limit'], '3');
      remaining.push(String(res.headers['ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    assertTooMany(await v3({ remoteAddress }), 3);
    assertTooMany(await v2({ remoteAddress }), 3);
    assertTooMany(await bulk(1, { remoteAddress }), 3);
    // Another address has its own count.
    assert.equal((await v2({ remoteAddress: '192.0.2.11' })).statusCode, 200);
  });

  it('counts IPv6 callers by their /64', async () => {
    for (let i = 1; i <= 3; i++) assert.equal((await v2({ remoteAddress: `2001:db8:1:2::${i}` })).statusCode, 200);
    assertTooMany(await v2({ remoteAddress: '2001:db8:1:2:ffff::9' }), 3);
    assert.equal((await v2({ remoteAddress: '2001:db8:1:3::1' })).statusCode, 200);
  });

  it('counts each link of a bulk call, per token (RATE_LIMIT_TOKEN), apart from the address', async () => {
    const account = await ctx.t.account();
    const remoteAddress = '192.0.2.20';
    const first = await bulk(3, { remoteAddress, headers: account.headers });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.headers['ratelimit-limit'], '5');
    assert.equal(first.headers['ratelimit-remaining'], '2');
    // 3 more would be 6 of 5: the whole call is refused, nothing made.
    const before = (await ctx.t.app.inject({ url: '/v3/shorten/list', headers: account.headers })).json().total;
    assertTooMany(await bulk(3, { remoteAddress, headers: account.headers }), 5);
    assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/list', headers: account.headers })).json().total, before);
    assertTooMany(await v2({ remoteAddress, headers: account.headers }), 5);
    // The same address without the token, and another token, are counted apart.
    assert.equal((await v2({ remoteAddress })).statusCode, 200);
    const other = await ctx.t.account();
    assert.equal((await bulk(5, { remoteAddress, headers: other.headers })).statusCode, 200);
  });

  it('believes X-Forwarded-For only as TRUST_PROXY says: without it, a forged header does not dodge the limit', async () => {
    const remoteAddress = '192.0.2.30';
    for (let i = 0; i < 3; i++) {
      assert.equal((await v2({ remoteAddress, headers: { 'x-forwarded-for': `203.0.113.${i}` } })).statusCode, 200);
    }
    assertTooMany(await v2({ remoteAddress, headers: { 'x-forwarded-for': '203.0.113.99' } }), 3);
  });

  it('documents the 429 where a limit applies, with its headers, and not on redirects', async () => {
    const doc = (await ctx.t.app.inject({ url: '/v2/openapi.json' })).json();
    for (const [path, method] of SHORTENING_ROUTES) {
      const response = doc.paths[path][method].responses['429'];
      assert.ok(response, `${method} ${path}`);
      assert.deepEqual(Object.keys(response.headers).sort(), ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']);
      const [example] = Object.values(response.content['application/json'].examples) as Array<{ value: { code: string; message: string } }>;
      assert.equal(example!.value.code, 'E_TOO_MANY_REQUESTS');
      assert.match(example!.value.message, /^Too many requests: the rate limit is reached, try again in \d+ seconds?$/);
    }
    assert.equal(doc.paths['/{key}'].get.responses['429'], undefined);
    assert.equal(doc.paths['/{key}'].post.responses['429'], undefined, 'RATE_LIMIT_PASSWORD=0 here: no 429 can occur');
  });

  it('never limits redirects', async () => {
    const made = (await v2({ remoteAddress: '192.0.2.40' })).json();
    for (let i = 0; i < 30; i++) {
      const res = await ctx.t.app.inject({ url: `/${made.code}`, headers: { host: BASE_HOST }, remoteAddress: '192.0.2.40' });
      assert.equal(res.statusCode, 301);
      assert.equal(res.headers['ratelimit-limit'], undefined);
    }
  });
});

describe('rate limits behind a trusted proxy', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_ANON: '2', TRUST_PROXY: 'loopback' });
  const v2 = (forwardedFor: string) =>
    ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: fresh() })}`, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': forwardedFor } });

  it('counts the client the proxy names, not the proxy', async () => {
    assert.equal((await v2('198.51.100.1')).statusCode, 200);
    assert.equal((await v2('198.51.100.1')).statusCode, 200);
    assertTooMany(await v2('198.51.100.1'), 2);
    assert.equal((await v2('198.51.100.2')).statusCode, 200);
  });
});

describe('rate limit on other API calls (RATE_LIMIT_READ)', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_READ: '3', RATE_LIMIT_ANON: '100', RATE_LIMIT_TOKEN: '100' });

  it('counts lists, domains, analytics, QR codes and edits together per token, apart from links made', async () => {
    const account = await ctx.t.account();
    const headers = account.headers;
    const remoteAddress = '192.0.2.50';
    const calls = [
      () => ctx.t.app.inject({ url: '/v2/shorten-domains', headers, remoteAddress }),
      () => ctx.t.app.inject({ url: '/v3/shorten/list', headers, remoteAddress }),
      () => ctx.t.app.inject({ url: '/v3/shorten/analytics/clicks', headers, remoteAddress }),
    ];
    for (const call of calls) {
      const res = await call();
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['ratelimit-limit'], '3');
    }
    assertTooMany(await ctx.t.app.inject({ url: '/v3/shorten/domains', headers, remoteAddress }), 3);
    assertTooMany(await ctx.t.app.inject({ url: `/v2/qrcode?${qs({ url: 'https://example.com/' })}`, headers, remoteAddress }), 3);
    assertTooMany(await ctx.t.app.inject({ method: 'DELETE', url: '/v2/links/nope', headers, remoteAddress }), 3);
    // Making links has its own limit.
    const made = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: fresh() })}`, headers, remoteAddress });
    assert.equal(made.statusCode, 200, made.body);
    assert.equal(made.headers['ratelimit-limit'], '100');
    // Anonymous callers from another address have their own count; the API document is not limited.
    assert.equal((await ctx.t.app.inject({ url: '/v2/shorten-domains', remoteAddress: '192.0.2.51' })).statusCode, 200);
    for (let i = 0; i < 5; i++) assert.equal((await ctx.t.app.inject({ url: '/v2/openapi.json', headers, remoteAddress })).statusCode, 200);
  });
});

describe('limits set to 0', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_ANON: '0', RATE_LIMIT_TOKEN: '0', RATE_LIMIT_READ: '0', RATE_LIMIT_PASSWORD: '0' });

  it('means no limit, and no RateLimit headers', async () => {
    for (let i = 0; i < 40; i++) {
      const res = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: fresh() })}`, remoteAddress: '192.0.2.60' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-limit'], undefined);
    }
    for (let i = 0; i < 40; i++) assert.equal((await ctx.t.app.inject({ url: '/v2/shorten-domains', remoteAddress: '192.0.2.60' })).statusCode, 200);
  });
});

describe('password attempts (RATE_LIMIT_PASSWORD, default 10)', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_PASSWORD: '10' });
  const attempt = (key: string, password: string, remoteAddress: string) => passwordAttempt(ctx.t.app, key, password, remoteAddress);

  it('allows 10 a minute per address and link, then answers a 429 page with Retry-After, even to the right password', async () => {
    const account = await ctx.t.account();
    const make = async () => ({ slug: await passwordLink(ctx.t.app, account.headers, fresh()) });
    const [one, two] = [await make(), await make()];
    const address = '192.0.2.70';
    for (let i = 0; i < 10; i++) assert.equal((await attempt(one.slug, `wrong ${i}`, address)).statusCode, 403);
    for (const password of ['wrong again', 'right horse']) {
      const res = await attempt(one.slug, password, address);
      assert.equal(res.statusCode, 429);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, /Too many attempts/);
      assert.equal(res.headers.location, undefined);
      assert.ok(Number(res.headers['retry-after']) >= 1);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    }
    // Another link from the same address, and the same link from another address, are counted apart.
    assert.equal((await attempt(two.slug, 'right horse', address)).statusCode, 303);
    assert.equal((await attempt(one.slug, 'right horse', '192.0.2.71')).statusCode, 303);
    const doc = (await ctx.t.app.inject({ url: '/v2/openapi.json' })).json();
    assert.match(Object.keys(doc.paths['/{key}'].post.responses['429'].content).join(), /text\/html/);
    // The form itself (GET) is a redirect: never limited.
    const form = await ctx.t.app.inject({ url: `/${one.slug}`, headers: { host: BASE_HOST }, remoteAddress: address });
    assert.equal(form.statusCode, 200);
  });
});

describe('password attempts from a script, and on keys no link has (fuzz seed 422447)', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_PASSWORD: '2', RATE_LIMIT_PASSWORD_ADDRESS: '30' });

  it('answers a script over the limit with E_TOO_MANY_REQUESTS in the error shape, a browser with the page', async () => {
    const account = await ctx.t.account();
    const slug = await passwordLink(ctx.t.app, account.headers, fresh());
    const post = (headers: Record<string, string>, payload?: string) =>
      ctx.t.app.inject({ method: 'POST', url: `/${slug}`, remoteAddress: '192.0.2.95', headers: { host: BASE_HOST, ...headers }, payload });
    for (let i = 0; i < 2; i++) assert.equal((await post({ 'content-type': 'application/x-www-form-urlencoded' }, 'password=wrong')).statusCode, 403);
    for (const [headers, payload] of [
      [{ 'content-type': 'application/json' }, JSON.stringify({ password: 'wrong' })],
      [{}, undefined],
      [{ 'content-type': 'text/plain' }, 'password=wrong'],
    ] as const) {
      const script = await post(headers, payload);
      assert.equal(script.statusCode, 429, JSON.stringify(headers));
      assert.match(String(script.headers['content-type']), /^application\/json/);
      assert.equal(script.json().code, 'E_TOO_MANY_REQUESTS');
      assert.ok(Number(script.headers['retry-after']) >= 1);
    }
    const browsers: Array<[Record<string, string>, string | undefined]> = [
      [{ 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, 'password=wrong'],
      [{ accept: 'text/html,*/*;q=0.8' }, undefined],
    ];
    for (const [headers, payload] of browsers) {
      const page = await post(headers, payload);
      assert.equal(page.statusCode, 429);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.body, /Too many attempts/);
    }
    const doc = (await ctx.t.app.inject({ url: '/v2/openapi.json' })).json();
    assert.deepEqual(Object.keys(doc.paths['/{key}'].post.responses['429'].content).sort(), ['application/json', 'text/html']);
  });

  it('never counts POST /v2?… (a word of Brief’s, not a link) and answers it as the API does, in JSON', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push(
        await ctx.t.app.inject({
          method: 'POST',
          url: i % 2 === 0 ? '/v2?password=x' : '/%76%33?a=b',
          remoteAddress: '192.0.2.96',
          headers: { host: BASE_HOST, 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'password=guess',
        }),
      );
    }
    for (const answer of answers) {
      assert.equal(answer.statusCode, 404);
      assert.match(String(answer.headers['content-type']), /^application\/json/);
      assert.equal(answer.json().code, 'E_ROUTE_NOT_FOUND');
      assert.equal(answerProblem('POST', '/v2', answer.statusCode, String(answer.headers['content-type']), answer.body), null);
    }
  });
});

describe('password attempts under many Hosts (decision 0015)', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_PASSWORD: '3', RATE_LIMIT_PASSWORD_ADDRESS: '0' });

  it('counts a link’s attempts on its domain, whatever Host names it (an unknown Host is the default domain)', async () => {
    const account = await ctx.t.account();
    const slug = await passwordLink(ctx.t.app, account.headers, fresh());
    const hosts = [BASE_HOST, 'localhost:3000', '10.0.0.7', 'BRIEF.INTERNAL'];
    const statuses: number[] = [];
    for (const host of hosts) {
      statuses.push((await passwordAttempt(ctx.t.app, slug, 'wrong', '192.0.2.90', host)).statusCode);
    }
    assert.deepEqual(statuses, [403, 403, 403, 429]);
  });
});

describe('ANONYMOUS_SHORTEN=off', () => {
  const ctx = useTestApp('sqlite', { ANONYMOUS_SHORTEN: 'off' });

  it('answers 401 to anonymous shortening on v2, v3 and bulk, and shortens with a token', async () => {
    const calls: Array<() => { method?: 'GET' | 'HEAD' | 'POST'; url: string; payload?: unknown }> = [
      () => ({ url: `/v2/shorten?${qs({ url: fresh() })}` }),
      () => ({ url: `/v3/shorten?${qs({ url: fresh() })}` }),
      () => ({ method: 'POST' as const, url: '/v3/shorten/bulk', payload: [{ url: fresh() }] }),
      () => ({ method: 'HEAD' as const, url: `/v2/shorten?${qs({ url: fresh() })}` }),
    ];
    for (const call of calls) {
      const res = await ctx.t.app.inject(call() as never);
      assert.equal(res.statusCode, 401, `${call().url}: ${res.body}`);
      if (call().method !== 'HEAD') {
        assert.deepEqual(res.json(), {
          message: 'Anonymous shortening is turned off on this server: send a bearer token',
          code: 'E_UNAUTHORIZED_ACCESS',
        });
      }
    }
    const account = await ctx.t.account();
    for (const call of calls.slice(0, 3)) assert.equal((await ctx.t.app.inject({ ...call(), headers: account.headers } as never)).statusCode, 200);
    // Reads stay open to anonymous callers.
    assert.equal((await ctx.t.app.inject({ url: '/v2/shorten-domains' })).statusCode, 200);
  });

  it('documents the 401 on the shortening routes', async () => {
    const doc = (await ctx.t.app.inject({ url: '/v2/openapi.json' })).json();
    for (const [path, method] of SHORTENING_ROUTES) {
      const examples = doc.paths[path][method].responses['401'].content['application/json'].examples;
      assert.equal(examples.anonymousOff.value.code, 'E_UNAUTHORIZED_ACCESS', `${method} ${path}`);
    }
  });
});
