// Single sign-on against a real OpenID Connect provider (oidc-provider, run here) on every dialect: a
// known user is signed in with the same session cookie a password opens (matched by verified email,
// whatever its case); an unknown email is refused unless OIDC_AUTO_CREATE=on, which makes a workspace
// of the person's own; an unverified email, a bad, replayed or missing state, and a provider's refusal
// each send the browser back with an error code and no session; a provider that is down answers
// `unavailable` and stops nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { workspaceUuid } from '../../../src/accounts/ids.js';
import { withServerFacts } from '../../../src/web/server-facts.js';
import { TEST_REDIS_URL } from '../../scale-support/test-services.js';
import { BASE_PREFIX, buildTestApp, type TestAccount, type TestApp, uniqueName } from '../../support/app.js';
import { dialects, openTestDatabase, type TestDatabase } from '../../support/database.js';
import { logInAtProvider, startProvider, type TestProvider } from '../../support/oidc-provider.js';
import { addUser, sessionSetBy } from '../../support/people.js';
import { freePort } from '../../support/process.js';

const REDIRECT_URI = `${BASE_PREFIX}/auth/oidc/callback`;

/** The start of a sign-in: the provider's URL and the pending cookie (name=value) Brief set. */
async function start(t: TestApp, returnTo?: string) {
  const response = await t.app.inject({ url: `/auth/oidc/start${returnTo === undefined ? '' : `?return=${encodeURIComponent(returnTo)}`}` });
  assert.equal(response.statusCode, 302, response.body);
  const setCookie = String(response.headers['set-cookie']);
  const cookie = /^brief_oidc=[A-Za-z0-9_-]+/.exec(setCookie)?.[0];
  assert.ok(cookie, setCookie);
  return { location: new URL(String(response.headers.location)), cookie, setCookie };
}

/** The callback as the browser brings it back: its query and (unless left out) the pending cookie. */
function callback(t: TestApp, back: URL, cookie: string | undefined) {
  return t.app.inject({ url: `/auth/oidc/callback${back.search}`, headers: cookie ? { cookie } : {} });
}

/** A whole sign-in: start, log in at the provider as `login`, come back. */
async function ssoSignIn(t: TestApp, login: string, returnTo?: string) {
  const started = await start(t, returnTo);
  const back = await logInAtProvider(started.location.href, login, REDIRECT_URI);
  return { response: await callback(t, back, started.cookie), back, cookie: started.cookie };
}

const errorOf = (location: unknown) => new URL(String(location), BASE_PREFIX).searchParams.get('sso_error');

for (const dialect of dialects) {
  describe(`single sign-on with OpenID Connect (${dialect})`, { timeout: 120_000 }, () => {
    let provider: TestProvider;
    let db: TestDatabase;
    let t: TestApp;
    let creating: TestApp;
    /** Behind a proxy on loopback that it trusts (app.inject comes from 127.0.0.1): X-Forwarded-Proto says https. */
    let proxied: TestApp;
    let team: TestAccount;

    before(async () => {
      provider = await startProvider([REDIRECT_URI]);
      db = await openTestDatabase(dialect);
      // These suites sign in many times from one address; the limit's own test below turns it on.
      t = await buildTestApp(db.database, { ...provider.env, RATE_LIMIT_SIGN_IN_ADDRESS: '0' });
      creating = await buildTestApp(db.database, { ...provider.env, OIDC_AUTO_CREATE: 'on', RATE_LIMIT_SIGN_IN_ADDRESS: '0' });
      proxied = await buildTestApp(db.database, { ...provider.env, TRUST_PROXY: 'loopback', RATE_LIMIT_SIGN_IN_ADDRESS: '0' });
      team = await t.account('sso-team');
    });

    after(async () => {
      await t?.close();
      await creating?.close();
      await proxied?.close();
      await db?.cleanup();
      await provider?.close();
    });

    it('sends the browser to the provider with PKCE, state and nonce kept in a short-lived HttpOnly cookie', async () => {
      const { location, setCookie } = await start(t);
      assert.equal(location.origin, provider.issuer);
      const params = location.searchParams;
      assert.equal(params.get('client_id'), 'brief-test');
      assert.equal(params.get('redirect_uri'), REDIRECT_URI);
      assert.equal(params.get('response_type'), 'code');
      assert.equal(params.get('code_challenge_method'), 'S256');
      assert.match(params.get('scope') ?? '', /\bopenid\b.*\bemail\b/);
      for (const name of ['state', 'nonce', 'code_challenge']) assert.match(params.get(name) ?? '', /^[A-Za-z0-9_-]{22,}$/, name);
      assert.match(setCookie, /^brief_oidc=[A-Za-z0-9_-]+; Path=\/auth\/oidc; HttpOnly; SameSite=Lax; Max-Age=600$/);
      // Two starts, two different states.
      assert.notEqual((await start(t)).location.searchParams.get('state'), params.get('state'));
    });

    it('signs a known user in by verified email, whatever its case, with the session a password opens', async () => {
      const user = await addUser(t, team.id, 'member', `${uniqueName('ada')}@example.com`);
      const login = uniqueName('ada-sub');
      provider.accounts.set(login, { email: user.email.toUpperCase(), email_verified: true, name: 'Ada L' });
      const { response } = await ssoSignIn(t, login, '/app/links');
      assert.equal(response.statusCode, 302, response.body);
      assert.equal(response.headers.location, '/app/links');
      const cookies = [response.headers['set-cookie']].flat().map(String);
      assert.ok(
        cookies.some((c) => /^brief_oidc=; Path=\/auth\/oidc; HttpOnly; SameSite=Lax; Max-Age=0$/.test(c)),
        'the pending cookie is cleared',
      );
      assert.ok(
        cookies.some((c) => /^brief_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/.test(c)),
        cookies.join('\n'),
      );
      const session = sessionSetBy(cookies)!;
      const me = await t.app.inject({ url: '/auth/me', headers: { cookie: `brief_session=${session}` } });
      assert.equal(me.statusCode, 200);
      const workspace = { id: workspaceUuid(team.id), name: team.name, role: 'member' };
      assert.deepEqual(me.json(), { user: { email: user.email, displayName: null }, workspace, workspaces: [workspace] });
      // The session works for the API as a password's does.
      const listed = await t.app.inject({ url: '/v3/shorten/list', headers: { cookie: `brief_session=${session}` } });
      assert.equal(listed.statusCode, 200);
    });

    it('under https keeps the pending sign-in in __Host-brief_oidc (Path=/), reads no brief_oidc, and opens __Host-brief_session', async () => {
      const user = await addUser(t, team.id, 'member', `${uniqueName('tls')}@example.com`);
      const login = uniqueName('tls-sub');
      provider.accounts.set(login, { email: user.email, email_verified: true });
      const https = { 'x-forwarded-proto': 'https' };
      const begin = async () => {
        const started = await proxied.app.inject({ url: '/auth/oidc/start', headers: https });
        assert.equal(started.statusCode, 302, started.body);
        const setCookie = String(started.headers['set-cookie']);
        assert.match(setCookie, /^__Host-brief_oidc=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
        const value = /^__Host-brief_oidc=([A-Za-z0-9_-]+)/.exec(setCookie)![1];
        return { back: await logInAtProvider(String(started.headers.location), login, REDIRECT_URI), value };
      };
      const come = (back: URL, cookie: string) => proxied.app.inject({ url: `/auth/oidc/callback${back.search}`, headers: { ...https, cookie } });

      // The pending cookie under the plain name (set by a plain-http page, say) is not this browser's sign-in.
      const planted = await begin();
      const refused = await come(planted.back, `brief_oidc=${planted.value}`);
      assert.equal(refused.headers.location, '/?sso_error=state');
      assert.equal(sessionSetBy(refused.headers['set-cookie']), undefined);

      const { back, value } = await begin();
      const response = await come(back, `__Host-brief_oidc=${value}`);
      assert.equal(response.headers.location, '/', response.body);
      const cookies = [response.headers['set-cookie']].flat().map(String);
      assert.ok(cookies.includes('__Host-brief_oidc=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure'), cookies.join('\n'));
      const session = cookies.find((c) => c.startsWith('__Host-brief_session='));
      assert.match(session ?? '', /^__Host-brief_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure$/);
      const me = await proxied.app.inject({ url: '/auth/me', headers: { ...https, cookie: `__Host-brief_session=${sessionSetBy(session)}` } });
      assert.equal(me.json().user.email, user.email);
    });

    it('refuses an email no user has while OIDC_AUTO_CREATE is off, and makes nothing', async () => {
      const login = uniqueName('stranger');
      const email = `${login}@example.com`;
      provider.accounts.set(login, { email, email_verified: true });
      const { response } = await ssoSignIn(t, login);
      assert.equal(response.statusCode, 302);
      assert.equal(response.headers.location, '/?sso_error=unknown');
      assert.equal(sessionSetBy(response.headers['set-cookie']), undefined);
      assert.equal(await db.database.people.userByEmail(email), undefined);
    });

    it('with OIDC_AUTO_CREATE=on makes the person, owner of a workspace of their own, and signs them in', async () => {
      const login = uniqueName('newcomer');
      const email = `${login}+sso@Example.com`;
      provider.accounts.set(login, { email, email_verified: true, name: 'New Comer' });
      const { response } = await ssoSignIn(creating, login);
      assert.equal(response.statusCode, 302, response.body);
      assert.equal(response.headers.location, '/');
      const session = sessionSetBy(response.headers['set-cookie']);
      assert.ok(session);
      const me = (await creating.app.inject({ url: '/auth/me', headers: { cookie: `brief_session=${session}` } })).json();
      assert.deepEqual(me.user, { email, displayName: 'New Comer' });
      assert.equal(me.workspace.name, `${login}-sso@example.com`);
      assert.equal(me.workspace.role, 'owner');
      assert.equal(me.workspaces.length, 1, 'nobody else’s workspace');
      // A second sign-in finds the same person (no second user or workspace).
      const again = await ssoSignIn(creating, login);
      const second = (
        await creating.app.inject({ url: '/auth/me', headers: { cookie: `brief_session=${sessionSetBy(again.response.headers['set-cookie'])}` } })
      ).json();
      assert.deepEqual(second.workspaces, me.workspaces);
    });

    it('with OIDC_AUTO_CREATE=on, a workspace name already taken gets a suffix rather than joining it', async () => {
      const login = uniqueName('clash');
      const email = `${login}@example.com`;
      const taken = await creating.accounts.create(email);
      provider.accounts.set(login, { email, email_verified: true });
      const { response } = await ssoSignIn(creating, login);
      const me = (
        await creating.app.inject({ url: '/auth/me', headers: { cookie: `brief_session=${sessionSetBy(response.headers['set-cookie'])}` } })
      ).json();
      assert.notEqual(me.workspace.id, workspaceUuid(taken.id));
      assert.match(me.workspace.name, new RegExp(`^${email.replace(/[.+]/g, '\\$&')}-[0-9a-f]{8}$`));
    });

    it('refuses an email the provider does not say is verified, even with OIDC_AUTO_CREATE=on', async () => {
      const user = await addUser(t, team.id, 'owner');
      const login = uniqueName('unverified');
      provider.accounts.set(login, { email: user.email, email_verified: false });
      for (const app of [t, creating]) {
        const { response } = await ssoSignIn(app, login);
        assert.equal(response.headers.location, '/?sso_error=unverified');
        assert.equal(sessionSetBy(response.headers['set-cookie']), undefined);
      }
    });

    it('refuses a state that is not the one this browser kept', async () => {
      const user = await addUser(t, team.id, 'viewer');
      const login = uniqueName('tampered');
      provider.accounts.set(login, { email: user.email, email_verified: true });
      const started = await start(t);
      const back = await logInAtProvider(started.location.href, login, REDIRECT_URI);
      const forged = new URL(back);
      forged.searchParams.set('state', 'not-the-state-this-browser-kept');
      const response = await callback(t, forged, started.cookie);
      assert.equal(response.headers.location, '/?sso_error=state');
      assert.equal(sessionSetBy(response.headers['set-cookie']), undefined);
      // Another browser's pending sign-in does not fit this answer either.
      const other = await start(t);
      assert.equal(errorOf((await callback(t, back, other.cookie)).headers.location), 'state');
    });

    it('refuses an answer whose ID token was not made for this nonce, or whose code needs another PKCE verifier', async () => {
      const user = await addUser(t, team.id, 'viewer');
      const login = uniqueName('swapped');
      provider.accounts.set(login, { email: user.email, email_verified: true });
      for (const field of ['nonce', 'verifier']) {
        const started = await start(t);
        const back = await logInAtProvider(started.location.href, login, REDIRECT_URI);
        // The same browser's cookie with one value changed (a cookie is the browser's to change).
        const pending = JSON.parse(Buffer.from(started.cookie.slice('brief_oidc='.length), 'base64url').toString());
        pending[field] = `${pending[field].slice(0, -4)}AAAA`;
        const cookie = `brief_oidc=${Buffer.from(JSON.stringify(pending)).toString('base64url')}`;
        const response = await callback(t, back, cookie);
        assert.equal(response.headers.location, '/?sso_error=failed', field);
        assert.equal(sessionSetBy(response.headers['set-cookie']), undefined, field);
      }
    });

    it('refuses to sign in when the provider refuses Brief’s client secret', async () => {
      const wrong = await buildTestApp(db.database, { ...provider.env, OIDC_CLIENT_SECRET: 'not-the-secret' });
      try {
        const user = await addUser(t, team.id, 'viewer');
        const login = uniqueName('wrong-secret');
        provider.accounts.set(login, { email: user.email, email_verified: true });
        const { response } = await ssoSignIn(wrong, login);
        assert.equal(response.headers.location, '/?sso_error=failed');
        assert.equal(sessionSetBy(response.headers['set-cookie']), undefined);
      } finally {
        await wrong.close();
      }
    });

    it('refuses a callback that comes without the pending cookie', async () => {
      const user = await addUser(t, team.id, 'viewer');
      const login = uniqueName('cookieless');
      provider.accounts.set(login, { email: user.email, email_verified: true });
      const started = await start(t);
      const back = await logInAtProvider(started.location.href, login, REDIRECT_URI);
      for (const cookie of [undefined, 'brief_oidc=', 'brief_oidc=not-json', 'brief_oidc=e30']) {
        const response = await callback(t, back, cookie);
        assert.equal(response.statusCode, 302);
        assert.equal(response.headers.location, '/?sso_error=state', String(cookie));
        assert.equal(sessionSetBy(response.headers['set-cookie']), undefined);
      }
    });

    it('refuses a replayed callback, cookie and all', async () => {
      const user = await addUser(t, team.id, 'member');
      const login = uniqueName('replayed');
      provider.accounts.set(login, { email: user.email, email_verified: true });
      const { response, back, cookie } = await ssoSignIn(t, login);
      assert.ok(sessionSetBy(response.headers['set-cookie']), 'the first one signs in');
      const replayed = await callback(t, back, cookie);
      assert.equal(replayed.headers.location, '/?sso_error=state');
      assert.equal(sessionSetBy(replayed.headers['set-cookie']), undefined);
    });

    it('sends a provider’s refusal back as denied, and only ever returns to the app’s own pages', async () => {
      const started = await start(t, 'https://evil.example/app/links');
      const state = started.location.searchParams.get('state')!;
      const denied = new URL(`${REDIRECT_URI}?error=access_denied&state=${state}`);
      const response = await callback(t, denied, started.cookie);
      assert.equal(response.headers.location, '/?sso_error=denied');
      for (const unsafe of ['//evil.example', '/\\evil.example', '/app/../x', 'app/links', '/v3/shorten/list', '/app/links?x=1']) {
        const other = await start(t, unsafe);
        const back = new URL(`${REDIRECT_URI}?error=access_denied&state=${other.location.searchParams.get('state')}`);
        assert.equal((await callback(t, back, other.cookie)).headers.location, '/?sso_error=denied', unsafe);
      }
    });

    it('counts each start and callback as a sign-in attempt of the address: 429 past RATE_LIMIT_SIGN_IN_ADDRESS', async () => {
      const limited = await buildTestApp(db.database, { ...provider.env, RATE_LIMIT_SIGN_IN_ADDRESS: '3' });
      try {
        const user = await addUser(t, team.id, 'member', `${uniqueName('limited')}@example.com`);
        const login = uniqueName('limited-sub');
        provider.accounts.set(login, { email: user.email, email_verified: true, name: 'Limited' });
        const started = await start(limited);
        const back = await logInAtProvider(started.location.href, login, REDIRECT_URI);
        const signedIn = await callback(limited, back, started.cookie);
        assert.equal(signedIn.statusCode, 302);
        assert.equal(errorOf(signedIn.headers.location), null, 'signed in, under the limit');
        assert.equal((await limited.app.inject({ url: '/auth/oidc/start' })).statusCode, 302);
        const over = await limited.app.inject({ url: '/auth/oidc/start' });
        assert.equal(over.statusCode, 429, over.body);
        assert.equal(over.json().code, 'E_TOO_MANY_REQUESTS');
        assert.ok(Number(over.headers['retry-after']) > 0);
        assert.equal((await limited.app.inject({ url: `/auth/oidc/callback${back.search}` })).statusCode, 429);
      } finally {
        await limited.close();
      }
    });

    it('documents its two routes in the API document, which stays valid OpenAPI 3.1', async () => {
      const doc = (await t.app.inject({ url: '/v2/openapi.json' })).json();
      for (const path of ['/auth/oidc/start', '/auth/oidc/callback']) {
        assert.ok(doc.paths[path]?.get?.responses?.['302'], path);
        assert.deepEqual(doc.paths[path].get.security, [], `${path} needs no authentication`);
      }
      const validator = new Validator();
      assert.deepEqual(await validator.validate(structuredClone(doc)), { valid: true });
    });

    it('tells the web app that SSO is on, in a meta element of its page', async () => {
      const index = Buffer.from('<!doctype html><html><head><title>Brief</title></head><body></body></html>');
      const html = withServerFacts({ dir: '.', index }, t.config).index!.toString();
      assert.match(html, /<meta name="brief-sso" content="on"><\/head>/);
      const page = await t.app.inject({ url: '/' });
      if (page.statusCode === 200) assert.match(page.body, /<meta name="brief-sso" content="on">/, 'the built page says it too');
    });
  });
}

describe('single sign-on with a provider that is down', () => {
  let db: TestDatabase;
  let t: TestApp;

  before(async () => {
    db = await openTestDatabase('sqlite');
    const port = await freePort(); // nothing listens there
    t = await buildTestApp(db.database, { OIDC_ISSUER: `http://127.0.0.1:${port}`, OIDC_CLIENT_ID: 'brief-test' });
  });

  after(async () => {
    await t?.close();
    await db?.cleanup();
  });

  it('starts and serves anyway, and sends a sign-in back as unavailable (each time: it asks again)', async () => {
    const account = await t.account('down');
    const made = await t.app.inject({ url: '/v3/shorten?url=https://example.com/while-sso-is-down', headers: account.headers });
    assert.equal(made.statusCode, 200, made.body);
    assert.equal((await t.app.inject({ url: `/${made.json().slug}` })).statusCode, 301);
    for (let i = 0; i < 2; i++) {
      const response = await t.app.inject({ url: '/auth/oidc/start?return=/app/overview' });
      assert.equal(response.statusCode, 302);
      assert.equal(response.headers.location, '/app/overview?sso_error=unavailable');
      assert.equal(response.headers['set-cookie'], undefined);
    }
  });

  it('has no SSO routes when SSO is off', async () => {
    const plain = await buildTestApp(db.database);
    try {
      const response = await plain.app.inject({ url: '/auth/oidc/start' });
      assert.equal(response.statusCode, 404);
      const page = await plain.app.inject({ url: '/' });
      assert.doesNotMatch(page.body, /brief-sso/);
    } finally {
      await plain.close();
    }
  });
});

if (TEST_REDIS_URL) {
  describe('single sign-on on two instances sharing Redis', { timeout: 120_000 }, () => {
    let provider: TestProvider;
    let db: TestDatabase;
    let first: TestApp;
    let second: TestApp;

    before(async () => {
      provider = await startProvider([REDIRECT_URI]);
      db = await openTestDatabase('sqlite');
      const shared = { ...provider.env, REDIS_URL: TEST_REDIS_URL!, REDIS_PREFIX: `${uniqueName('sso')}:` };
      first = await buildTestApp(db.database, shared);
      second = await buildTestApp(db.database, shared);
    });

    after(async () => {
      await first?.close();
      await second?.close();
      await db?.cleanup();
      await provider?.close();
    });

    it('refuses on one instance a callback already used on the other, before asking the provider', async () => {
      const team = await first.account('sso-shared');
      const user = await addUser(first, team.id, 'member');
      const login = uniqueName('shared');
      provider.accounts.set(login, { email: user.email, email_verified: true });
      const { response, back, cookie } = await ssoSignIn(first, login);
      assert.ok(sessionSetBy(response.headers['set-cookie']), 'signed in on the first');
      // Not `failed` (the provider refusing a used code): the state is known as used on every instance.
      assert.equal((await callback(second, back, cookie)).headers.location, '/?sso_error=state');
    });
  });
}
