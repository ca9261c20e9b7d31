// The session cookie under https and the Origin check's whole origin (issue 37's small items), on every
// dialect. Under https (BASE_URL https, or X-Forwarded-Proto from a proxy TRUST_PROXY trusts) the cookie is
// `__Host-brief_session` (Secure, Path=/, no Domain) and a `brief_session` is not read, so a cookie a
// plain-http page or a sibling subdomain set cannot sign anyone in; over plain http it stays
// `brief_session`. The Origin check compares scheme, host and port: an http:// page is not an https
// Brief's own origin.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type TestAccount, type TestApp, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { addUser, PASSWORD, sessionSetBy } from '../support/people.js';

const SESSION = /^__Host-brief_session=([A-Za-z0-9_-]{43}); Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure$/;

async function signInWith(t: TestApp, email: string, headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'POST', url: '/auth/sign-in', headers, payload: { email, password: PASSWORD } });
  assert.equal(response.statusCode, 200, response.body);
  return String(response.headers['set-cookie']);
}

/** A cookie-authenticated change: a bulk create of one link. */
const change = (t: TestApp, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers, payload: [{ url: 'https://example.com/origin-check' }] });

for (const dialect of dialects) {
  describe(`the session cookie and the Origin check with BASE_URL https (${dialect})`, () => {
    const ctx = useTestApp(dialect, { BASE_URL: 'https://short.test' });
    const ORIGIN = { origin: 'https://short.test' };
    let team: TestAccount;
    let email: string;

    before(async () => {
      team = await ctx.t.account('team');
      email = (await addUser(ctx.t, team.id, 'owner')).email;
    });

    it('is named __Host-brief_session: Secure, Path=/, no Domain', async () => {
      const setCookie = await signInWith(ctx.t, email, ORIGIN);
      assert.match(setCookie, SESSION);
      assert.doesNotMatch(setCookie, /Domain=/i);
      assert.ok(sessionSetBy(setCookie), 'the tests read either name');
    });

    it('reads only that name: a brief_session (plantable over http or from a sibling subdomain) signs nobody in', async () => {
      const session = sessionSetBy(await signInWith(ctx.t, email, ORIGIN))!;
      const me = await ctx.t.app.inject({ url: '/auth/me', headers: { cookie: `__Host-brief_session=${session}` } });
      assert.equal(me.statusCode, 200, me.body);
      assert.equal(me.json().user.email, email);
      // The same live session under the plain name is not read: no session, not signed in.
      const planted = await ctx.t.app.inject({ url: '/auth/me', headers: { cookie: `brief_session=${session}` } });
      assert.equal(planted.statusCode, 401, planted.body);
      const listed = await ctx.t.app.inject({ url: '/v3/shorten/list', headers: { cookie: `brief_session=${session}`, ...ORIGIN } });
      assert.equal(listed.statusCode, 401, 'an account call is anonymous with it');
      // Planted beside a real one, first or second, it changes nothing.
      const victim = sessionSetBy(await signInWith(ctx.t, email, ORIGIN))!;
      for (const cookie of [`brief_session=${session}; __Host-brief_session=${victim}`, `__Host-brief_session=${victim}; brief_session=x`]) {
        const both = await ctx.t.app.inject({ url: '/auth/me', headers: { cookie } });
        assert.equal(both.statusCode, 200, cookie);
      }
    });

    it('is cleared under its own name on sign-out', async () => {
      const session = sessionSetBy(await signInWith(ctx.t, email, ORIGIN))!;
      const out = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/sign-out',
        headers: { cookie: `__Host-brief_session=${session}`, ...ORIGIN },
      });
      assert.equal(out.statusCode, 200, out.body);
      assert.match(String(out.headers['set-cookie']), /^__Host-brief_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0; Secure$/);
      assert.equal((await ctx.t.app.inject({ url: '/auth/me', headers: { cookie: `__Host-brief_session=${session}` } })).statusCode, 401);
    });

    it('refuses an http:// Origin (403), and takes https:// on the same host', async () => {
      const cookie = `__Host-brief_session=${sessionSetBy(await signInWith(ctx.t, email, ORIGIN))!}`;
      for (const origin of ['http://short.test', 'http://short.test:443', 'https://short.test:8443']) {
        const refused = await change(ctx.t, { cookie, origin, host: 'short.test' });
        assert.equal(refused.statusCode, 403, origin);
        assert.equal(refused.json().code, 'E_FORBIDDEN', origin);
      }
      for (const origin of ['https://short.test', 'https://SHORT.test:443']) {
        assert.equal((await change(ctx.t, { cookie, origin, host: 'short.test' })).statusCode, 200, origin);
      }
      // Another Host of the same server (decision 0015): its own https origin, not its http one.
      const lan = { cookie, host: 'brief.internal:8443' };
      assert.equal((await change(ctx.t, { ...lan, origin: 'https://brief.internal:8443' })).statusCode, 200);
      assert.equal((await change(ctx.t, { ...lan, origin: 'http://brief.internal:8443' })).statusCode, 403);
    });
  });

  describe(`the session cookie and the Origin check behind a trusted proxy (${dialect})`, () => {
    // app.inject comes from 127.0.0.1: a proxy on loopback is trusted; BASE_URL stays http.
    const ctx = useTestApp(dialect, { TRUST_PROXY: 'loopback' });
    const host = 'brief.internal:8443';
    let email: string;

    before(async () => {
      const team = await ctx.t.account('proxied');
      email = (await addUser(ctx.t, team.id, 'owner')).email;
    });

    it('is __Host-brief_session when the proxy says https, brief_session when it does not', async () => {
      const overHttps = await signInWith(ctx.t, email, { host, origin: `https://${host}`, 'x-forwarded-proto': 'https' });
      assert.match(overHttps, SESSION);
      const overHttp = await signInWith(ctx.t, email, { host, origin: `http://${host}` });
      assert.match(overHttp, /^brief_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
      // Each scheme reads its own name only.
      const secure = sessionSetBy(overHttps)!;
      const https = { host, 'x-forwarded-proto': 'https' };
      assert.equal((await ctx.t.app.inject({ url: '/auth/me', headers: { ...https, cookie: `__Host-brief_session=${secure}` } })).statusCode, 200);
      assert.equal((await ctx.t.app.inject({ url: '/auth/me', headers: { ...https, cookie: `brief_session=${secure}` } })).statusCode, 401);
      assert.equal((await ctx.t.app.inject({ url: '/auth/me', headers: { host, cookie: `__Host-brief_session=${secure}` } })).statusCode, 401);
      assert.equal((await ctx.t.app.inject({ url: '/auth/me', headers: { host, cookie: `brief_session=${secure}` } })).statusCode, 200);
    });

    it('refuses an http:// Origin to a request the proxy says came over https (403); the same origin passes', async () => {
      const session = sessionSetBy(await signInWith(ctx.t, email, { host, origin: `https://${host}`, 'x-forwarded-proto': 'https' }))!;
      const headers = { cookie: `__Host-brief_session=${session}`, host, 'x-forwarded-proto': 'https' };
      const refused = await change(ctx.t, { ...headers, origin: `http://${host}` });
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(refused.json().code, 'E_FORBIDDEN');
      assert.equal((await change(ctx.t, { ...headers, origin: 'https://brief.internal:8080' })).statusCode, 403, 'another port');
      assert.equal((await change(ctx.t, { ...headers, origin: `https://${host}` })).statusCode, 200);
    });
  });

  describe(`the session cookie and the Origin check over plain http (${dialect})`, () => {
    // No TRUST_PROXY: X-Forwarded-Proto is anybody's word, and not believed.
    const ctx = useTestApp(dialect);
    const host = 'brief.internal:8080';
    let email: string;

    before(async () => {
      const team = await ctx.t.account('plain');
      email = (await addUser(ctx.t, team.id, 'owner')).email;
    });

    it('stays brief_session, believes no X-Forwarded-Proto, and compares the http origin', async () => {
      const setCookie = await signInWith(ctx.t, email, { host, origin: `http://${host}`, 'x-forwarded-proto': 'https' });
      assert.match(setCookie, /^brief_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
      const session = sessionSetBy(setCookie)!;
      assert.equal((await ctx.t.app.inject({ url: '/auth/me', headers: { cookie: `__Host-brief_session=${session}` } })).statusCode, 401);
      const cookie = `brief_session=${session}`;
      assert.equal((await change(ctx.t, { cookie, host, origin: `http://${host}` })).statusCode, 200);
      assert.equal((await change(ctx.t, { cookie, host, origin: `https://${host}` })).statusCode, 403, 'https is another origin');
      assert.equal((await change(ctx.t, { cookie, host, origin: 'http://brief.internal:8081' })).statusCode, 403, 'another port');
    });
  });
}
