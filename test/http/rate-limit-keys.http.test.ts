// Who a rate limit counts (issue 31, item 2): the token is checked before any limit (an unknown,
// revoked or expired one is 401 on every API call and counts nowhere), a token's limits are its own
// (by its id), and the counters that guard passwords are kept apart, where no flood of other keys
// can push them out. Also the per-address password limit across links and the domain verification's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccountService } from '../../src/accounts/account-service.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openSharedState } from '../../src/shared-state/shared-state.js';
import { TokenService } from '../../src/tokens/token-service.js';
import { passwordAttempt, passwordLink, qs, TEST_ENV, uniqueName, useTestApp } from '../support/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

const QR = `/v2/qrcode?${qs({ url: 'https://example.com/' })}`;
let counter = 0;
const fresh = () => `https://example.com/keyed/${Date.now()}-${++counter}`;

describe('the token is checked before any limit', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_READ: '3', RATE_LIMIT_ANON: '2', RATE_LIMIT_TOKEN: '2' });

  it('answers 401 to a made-up token on /v2/qrcode, spends no limit, and gives no fresh one', async () => {
    const remoteAddress = '192.0.2.100';
    for (let i = 0; i < 10; i++) {
      const res = await ctx.t.app.inject({ url: QR, remoteAddress, headers: { authorization: `Bearer junk${i}` } });
      assert.equal(res.statusCode, 401, res.body);
      assert.deepEqual(res.json(), { message: 'Invalid, expired or revoked token', code: 'E_UNAUTHORIZED_ACCESS' });
      assert.equal(res.headers['ratelimit-limit'], undefined, 'no counter answered for a made-up token');
    }
    // The address's own count is untouched by the ten 401s.
    const anonymous = await ctx.t.app.inject({ url: QR, remoteAddress });
    assert.equal(anonymous.statusCode, 200);
    assert.equal(anonymous.headers['ratelimit-remaining'], '2');
  });

  it('answers 401 to a revoked or expired token on every call, reads, links and QR codes alike', async () => {
    const revoked = await ctx.t.account();
    const [record] = await ctx.t.tokens.listTokens(revoked.name);
    await ctx.t.tokens.revokeToken(record!.id);
    const expiring = await ctx.t.account();
    const { token: expired } = await ctx.t.tokens.createToken(expiring.name, { expiresInDays: -1 });
    for (const authorization of [revoked.headers.authorization, `Bearer ${expired}`, 'Basic dXNlcjpwYXNz']) {
      for (const url of [
        QR,
        '/v2/shorten-domains',
        '/v3/shorten/list',
        `/v2/shorten?${qs({ url: fresh() })}`,
        `/v3/shorten?${qs({ url: fresh() })}`,
      ]) {
        const res = await ctx.t.app.inject({ url, remoteAddress: '192.0.2.101', headers: { authorization } });
        assert.equal(res.statusCode, 401, `${url} with ${authorization}: ${res.body}`);
        assert.equal(res.json().code, 'E_UNAUTHORIZED_ACCESS');
        assert.equal(res.headers['ratelimit-limit'], undefined);
      }
    }
  });

  it("counts a token's calls by the token, from any address; each token of an account has its own count", async () => {
    const account = await ctx.t.account();
    const { token: second } = await ctx.t.tokens.createToken(account.name);
    const read = (authorization: string, remoteAddress: string) => ctx.t.app.inject({ url: QR, remoteAddress, headers: { authorization } });
    const remaining: string[] = [];
    for (const [authorization, address] of [
      [account.headers.authorization, '192.0.2.110'],
      // The same token written otherwise (the scheme is case-insensitive) from another address: the same count.
      [`bearer ${account.token}`, '192.0.2.111'],
      [account.headers.authorization, '2001:db8:9::1'],
    ] as const) {
      const res = await read(authorization, address);
      assert.equal(res.statusCode, 200, res.body);
      remaining.push(String(res.headers['ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    assert.equal((await read(account.headers.authorization, '192.0.2.112')).statusCode, 429);
    // The account's other token, and the first address without a token, count apart.
    assert.equal((await read(`Bearer ${second}`, '192.0.2.110')).headers['ratelimit-remaining'], '2');
    assert.equal((await ctx.t.app.inject({ url: QR, remoteAddress: '192.0.2.110' })).headers['ratelimit-remaining'], '2');
    // Links made count by the token too.
    const made = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: fresh() })}`, remoteAddress: '192.0.2.113', headers: account.headers });
    assert.equal(made.statusCode, 200, made.body);
    assert.equal(made.headers['ratelimit-remaining'], '1');
  });
});

describe('password counters and a flood of other keys', () => {
  let db: TestDatabase;
  let app: ReturnType<typeof buildApp>;
  before(async () => {
    db = await openTestDatabase('sqlite');
    // A small cache in place of 100,000: the flood below fills it many times over.
    const config = loadConfig({ ...TEST_ENV, RATE_LIMIT_READ: '1000', RATE_LIMIT_PASSWORD: '3' });
    const shared = openSharedState(config, { info: () => {}, warn: () => {} }, { maxLocalCounters: 20 });
    app = buildApp(config, { database: db.database, shared });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await db?.cleanup();
  });

  it('keeps the password attempts counted while junk tokens and many addresses flood the other counters', async () => {
    const accounts = new AccountService(db.database.accounts);
    const { token } = await new TokenService(db.database.accounts, accounts).createToken((await accounts.create(uniqueName('flood'))).name);
    const slug = await passwordLink(app, { authorization: `Bearer ${token}` }, fresh());
    const attempt = () => passwordAttempt(app, slug, 'wrong', '192.0.2.120');
    for (let i = 0; i < 3; i++) assert.equal((await attempt()).statusCode, 403);
    assert.equal((await app.inject({ url: QR, remoteAddress: '192.0.2.121' })).headers['ratelimit-remaining'], '999');

    for (let i = 0; i < 100; i++) {
      assert.equal((await app.inject({ url: QR, remoteAddress: '192.0.2.122', headers: { authorization: `Bearer junk${i}` } })).statusCode, 401);
      assert.equal((await app.inject({ url: QR, remoteAddress: `198.51.100.${i}` })).statusCode, 200);
    }
    // The flood did fill the API's counters (this address's count started again)...
    assert.equal((await app.inject({ url: QR, remoteAddress: '192.0.2.121' })).headers['ratelimit-remaining'], '999');
    // ...but not the password counters: the fourth attempt within the minute is still refused.
    const refused = await attempt();
    assert.equal(refused.statusCode, 429);
    assert.match(refused.body, /Too many attempts/);
  });
});

describe('password attempts per address across links (RATE_LIMIT_PASSWORD_ADDRESS)', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_PASSWORD: '10', RATE_LIMIT_PASSWORD_ADDRESS: '4' });
  const attempt = (key: string, password: string, remoteAddress: string) => passwordAttempt(ctx.t.app, key, password, remoteAddress);

  it('counts every attempt of an address on all links together, then answers the 429 page with Retry-After', async () => {
    const account = await ctx.t.account();
    const payload = Array.from({ length: 5 }, () => ({ url: fresh(), password: 'right horse' }));
    const made = await ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload });
    const slugs = (made.json() as Array<{ slug: string }>).map((link) => link.slug);
    const address = '192.0.2.130';
    for (const slug of slugs.slice(0, 4)) assert.equal((await attempt(slug, 'wrong', address)).statusCode, 403);
    // A fifth link, never tried from here, and the right password: over the address's limit all the same.
    const refused = await attempt(slugs[4]!, 'right horse', address);
    assert.equal(refused.statusCode, 429);
    assert.match(refused.body, /Too many attempts/);
    assert.equal(refused.headers['ratelimit-limit'], '4');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.equal(refused.headers.location, undefined);
    // Another address is counted apart.
    assert.equal((await attempt(slugs[4]!, 'right horse', '192.0.2.131')).statusCode, 303);
  });
});

describe('domain verification (RATE_LIMIT_DOMAIN_VERIFY)', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_DOMAIN_VERIFY: '2', RATE_LIMIT_READ: '100' });
  const verify = (headers: Record<string, string>) =>
    ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/domains/unclaimed.example/verify', headers, remoteAddress: '192.0.2.140' });

  it('allows RATE_LIMIT_DOMAIN_VERIFY a minute per token, then 429 in the error shape; another token counts apart', async () => {
    const one = await ctx.t.account();
    for (let i = 0; i < 2; i++) {
      const res = await verify(one.headers);
      assert.equal(res.statusCode, 404, res.body);
      assert.equal(res.headers['ratelimit-limit'], '2');
    }
    const refused = await verify(one.headers);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().code, 'E_TOO_MANY_REQUESTS');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    // Other domain calls keep their own limit.
    assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/domains', headers: one.headers, remoteAddress: '192.0.2.140' })).statusCode, 200);
    const other = await ctx.t.account();
    assert.equal((await verify(other.headers)).statusCode, 404);
    const doc = (await ctx.t.app.inject({ url: '/v2/openapi.json' })).json();
    assert.ok(doc.paths['/v3/shorten/domains/{domain}/verify'].post.responses['429']);
  });
});
