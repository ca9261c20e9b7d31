// Password sign-in, sessions and invitations over HTTP on every dialect: the cookie's attributes,
// one answer for an unknown email and a wrong password, sessions ended on sign-out and after their
// idle and absolute lifetimes, cross-site cookie requests refused, attempts limited, and
// invitations used once, refused when expired, unknown or given a short password.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { workspaceUuid } from '../../src/accounts/ids.js';
import { hashToken } from '../../src/tokens/token-secrets.js';
import { type TestAccount, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { addUser, member, PASSWORD, SAME_ORIGIN, type SignedIn, sessionSetBy, signIn, switchWorkspace } from '../support/people.js';

for (const dialect of dialects) {
  describe(`password sign-in and sessions (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    let team: TestAccount;

    before(async () => {
      team = await ctx.t.account('team');
    });

    it('signs in with a session cookie that is HttpOnly, SameSite=Lax, not Secure over http; /auth/me says who and where', async () => {
      const user = await addUser(ctx.t, team.id, 'member', `${uniqueName('Ada')}@Example.com`);
      const response = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        headers: SAME_ORIGIN,
        payload: { email: user.email.toUpperCase(), password: PASSWORD },
      });
      assert.equal(response.statusCode, 200, response.body);
      const cookie = String(response.headers['set-cookie']);
      assert.match(cookie, /^brief_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
      const session = sessionSetBy(cookie)!;
      // The database holds the session id's hash only.
      const stored = await ctx.t.database.db.selectFrom('sessions').select('id_hash').where('user_id', '=', user.id).execute();
      assert.deepEqual(
        stored.map((row) => row.id_hash),
        [hashToken(session)],
      );
      const me = await ctx.t.app.inject({ url: '/auth/me', headers: { cookie: `brief_session=${session}` } });
      assert.equal(me.statusCode, 200);
      const workspace = { id: workspaceUuid(team.id), name: team.name, role: 'member' };
      assert.deepEqual(me.json(), { user: { email: user.email, displayName: null }, workspace, workspaces: [workspace] });
      assert.deepEqual(response.json(), me.json());
    });

    it('gives the same answer to an unknown email and a wrong password', async () => {
      const user = await addUser(ctx.t, team.id, 'viewer');
      const wrong = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        headers: SAME_ORIGIN,
        payload: { email: user.email, password: 'not the password' },
      });
      const unknown = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        headers: SAME_ORIGIN,
        payload: { email: 'nobody@example.com', password: 'not the password' },
      });
      assert.deepEqual([wrong.statusCode, unknown.statusCode], [401, 401]);
      assert.deepEqual(wrong.json(), unknown.json());
      assert.deepEqual(wrong.json(), { code: 'E_UNAUTHORIZED_ACCESS', message: 'Wrong email or password' });
      assert.equal(wrong.headers['set-cookie'], undefined);
    });

    it('refuses a sign-in body that is not an email and a password with a clear error', async () => {
      const response = await ctx.t.app.inject({ method: 'POST', url: '/auth/sign-in', headers: SAME_ORIGIN, payload: { email: 'a@example.com' } });
      assert.equal(response.statusCode, 422);
      assert.equal(response.json().code, 'E_VALIDATION_ERROR');
    });

    it('authenticates v2 and v3 calls with the cookie as a token does', async () => {
      const person = await member(ctx.t, team.id, 'member');
      const made = await ctx.t.app.inject({ url: `/v2/shorten?url=https://example.com/${uniqueName('c')}`, headers: person.headers });
      assert.equal(made.statusCode, 200, made.body);
      const listed = await ctx.t.app.inject({ url: '/v3/shorten/list', headers: { cookie: person.headers.cookie } });
      assert.equal(listed.statusCode, 200);
      const byToken = await ctx.t.app.inject({ url: '/v3/shorten/list', headers: team.headers });
      assert.deepEqual(listed.json().metadata, byToken.json().metadata);
    });

    it('ends the session on the server at sign-out: the same cookie no longer signs in', async () => {
      const person = await member(ctx.t, team.id, 'member');
      const out = await ctx.t.app.inject({ method: 'POST', url: '/auth/sign-out', headers: person.headers });
      assert.equal(out.statusCode, 200);
      assert.match(String(out.headers['set-cookie']), /^brief_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/);
      const after = await ctx.t.app.inject({ url: '/v3/shorten/list', headers: person.headers });
      assert.equal(after.statusCode, 401);
      assert.deepEqual(after.json(), { code: 'E_UNAUTHORIZED_ACCESS', message: 'The session has ended: sign in again' });
      assert.equal((await ctx.t.app.inject({ url: '/auth/me', headers: person.headers })).statusCode, 401);
    });

    it('ends a session unused for SESSION_IDLE_MINUTES, and one older than SESSION_MAX_DAYS however used', async () => {
      const idle = await member(ctx.t, team.id, 'viewer');
      const old = await member(ctx.t, team.id, 'viewer');
      const now = Date.now();
      const { sessionIdleMs, sessionMaxMs } = ctx.t.config;
      await ctx.t.database.db
        .updateTable('sessions')
        .set({ last_seen_at: now - sessionIdleMs - 1000 })
        .where('id_hash', '=', hashToken(idle.session))
        .execute();
      await ctx.t.database.db
        .updateTable('sessions')
        .set({ created_at: now - sessionMaxMs - 1000, last_seen_at: now })
        .where('id_hash', '=', hashToken(old.session))
        .execute();
      for (const person of [idle, old]) {
        assert.equal((await ctx.t.app.inject({ url: '/auth/me', headers: person.headers })).statusCode, 401);
        const left = await ctx.t.database.db.selectFrom('sessions').select('id_hash').where('id_hash', '=', hashToken(person.session)).execute();
        assert.equal(left.length, 0, 'an ended session is removed');
      }
      // A session in use is kept alive: its last use moves forward.
      const used = await member(ctx.t, team.id, 'viewer');
      await ctx.t.database.db
        .updateTable('sessions')
        .set({ last_seen_at: now - 120_000 })
        .where('id_hash', '=', hashToken(used.session))
        .execute();
      assert.equal((await ctx.t.app.inject({ url: '/auth/me', headers: used.headers })).statusCode, 200);
      const row = await ctx.t.database.db
        .selectFrom('sessions')
        .select('last_seen_at')
        .where('id_hash', '=', hashToken(used.session))
        .executeTakeFirstOrThrow();
      assert.ok(Number(row.last_seen_at) >= now);
    });

    it('counts a role changed or a membership removed from the next request', async () => {
      const person = await member(ctx.t, team.id, 'member');
      await sql`update memberships set role = 'viewer' where user_id = ${person.userId}`.execute(ctx.t.database.db);
      const made = await ctx.t.app.inject({ url: '/v3/shorten?url=https://example.com/after-demotion', headers: person.headers });
      assert.equal(made.statusCode, 403);
      await sql`delete from memberships where user_id = ${person.userId}`.execute(ctx.t.database.db);
      assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/list', headers: person.headers })).statusCode, 401);
    });

    describe('cross-site requests with the cookie', () => {
      let person: SignedIn;
      before(async () => {
        person = await member(ctx.t, team.id, 'owner');
      });
      const cookie = () => ({ cookie: person.headers.cookie });

      it('refuses a change from another origin, or one that says neither Origin nor Sec-Fetch-Site', async () => {
        const cases: Array<[string, Record<string, string>]> = [
          ['another origin', { ...cookie(), origin: 'https://evil.example' }],
          ['a sandboxed frame', { ...cookie(), origin: 'null' }],
          ['Sec-Fetch-Site cross-site', { ...cookie(), 'sec-fetch-site': 'cross-site' }],
          ['Sec-Fetch-Site same-site', { ...cookie(), 'sec-fetch-site': 'same-site' }],
          ['no Origin at all', cookie()],
        ];
        for (const [name, headers] of cases) {
          const bulk = await ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers, payload: [{ url: 'https://example.com/csrf' }] });
          assert.equal(bulk.statusCode, 403, name);
          assert.equal(bulk.json().code, 'E_FORBIDDEN', name);
          const invite = await ctx.t.app.inject({
            method: 'POST',
            url: '/auth/invitations',
            headers,
            payload: { email: 'x@example.com', role: 'admin' },
          });
          assert.equal(invite.statusCode, 403, name);
          const out = await ctx.t.app.inject({ method: 'POST', url: '/auth/sign-out', headers });
          assert.equal(out.statusCode, 403, name);
        }
        // A cross-site top-level navigation that would make a link (a GET) is refused too.
        const made = await ctx.t.app.inject({
          url: '/v3/shorten?url=https://example.com/nav',
          headers: { ...cookie(), 'sec-fetch-site': 'cross-site' },
        });
        assert.equal(made.statusCode, 403);
        const links = (await ctx.t.app.inject({ url: '/v3/shorten/list', headers: team.headers })).json() as {
          links: Array<{ originalUrl: string }>;
        };
        assert.ok(!links.links.some((l) => l.originalUrl.startsWith('https://example.com/csrf') || l.originalUrl === 'https://example.com/nav'));
        // The session is still live: none of the refused sign-outs ended it.
        assert.equal((await ctx.t.app.inject({ url: '/auth/me', headers: cookie() })).statusCode, 200);
      });

      it('allows the same requests from Brief’s own origin, or marked same-origin', async () => {
        const fromBase = await ctx.t.app.inject({
          method: 'POST',
          url: '/v3/shorten/bulk',
          headers: person.headers,
          payload: [{ url: 'https://example.com/own' }],
        });
        assert.equal(fromBase.statusCode, 200);
        const sameHost = await ctx.t.app.inject({
          method: 'PATCH',
          url: `/v3/shorten/${fromBase.json()[0].domain}/${fromBase.json()[0].slug}`,
          headers: { ...cookie(), host: 'brief.internal:8080', origin: 'http://brief.internal:8080' },
          payload: { comment: 'same host' },
        });
        assert.equal(sameHost.statusCode, 200, sameHost.body);
        const marked = await ctx.t.app.inject({
          method: 'POST',
          url: '/v3/shorten/bulk',
          headers: { ...cookie(), 'sec-fetch-site': 'same-origin' },
          payload: [{ url: 'https://example.com/own2' }],
        });
        assert.equal(marked.statusCode, 200);
      });

      it('needs no origin for a bearer token', async () => {
        const response = await ctx.t.app.inject({
          method: 'POST',
          url: '/v3/shorten/bulk',
          headers: { ...team.headers, origin: 'https://other.example' },
          payload: [{ url: 'https://example.com/token' }],
        });
        assert.equal(response.statusCode, 200);
      });
    });

    it('switches the session to another workspace of the person, and no other', async () => {
      const second = await ctx.t.account('second');
      const person = await member(ctx.t, team.id, 'viewer');
      await ctx.t.database.db
        .insertInto('memberships')
        .values({ user_id: person.userId, account_id: second.id, role: 'admin', created_at: Date.now() })
        .execute();
      const switched = await switchWorkspace(ctx.t, person.headers, workspaceUuid(second.id), '/auth/workspace');
      assert.equal(switched.statusCode, 200, switched.body);
      assert.deepEqual(switched.json().workspace, { id: workspaceUuid(second.id), name: second.name, role: 'admin' });
      assert.equal(switched.json().workspaces.length, 2);
      const made = await ctx.t.app.inject({ url: '/v3/shorten?url=https://example.com/in-second', headers: person.headers });
      assert.equal(made.statusCode, 200);
      const stranger = await ctx.t.account('stranger');
      const refused = await switchWorkspace(ctx.t, person.headers, workspaceUuid(stranger.id), '/auth/workspace');
      assert.equal(refused.statusCode, 404);
    });
  });

  describe(`invitations (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    let team: TestAccount;
    let admin: SignedIn;

    before(async () => {
      team = await ctx.t.account('team');
      admin = await member(ctx.t, team.id, 'admin');
    });

    /** An admin's invitation, answered as it comes. */
    const inviteAnswer = (email: string, role: string) =>
      ctx.t.app.inject({ method: 'POST', url: '/auth/invitations', headers: admin.headers, payload: { email, role } });
    const invite = async (email: string, role = 'member') => {
      const response = await inviteAnswer(email, role);
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as { link: string; email: string; role: string; workspace: string; expiresAt: string };
    };
    const secretOf = (link: string) => link.slice(link.indexOf('#') + 1);
    const accept = (token: string, password = 'a long enough password') =>
      ctx.t.app.inject({ method: 'POST', url: '/auth/invitation/accept', headers: SAME_ORIGIN, payload: { token, password, displayName: 'Grace' } });

    it('gives a one-time link valid 7 days; accepting it sets a password, joins with the role and signs in, once', async () => {
      const email = `${uniqueName('grace')}@example.com`;
      const made = await invite(email);
      assert.match(made.link, /^http:\/\/short\.test\/app\/invitation#brf_[A-Za-z0-9_-]{43}$/);
      assert.equal(made.workspace, team.name);
      const days = (Date.parse(made.expiresAt) - Date.now()) / 86_400_000;
      assert.ok(days > 6.99 && days <= 7, String(days));
      const shown = await ctx.t.app.inject({ method: 'POST', url: '/auth/invitation', payload: { token: secretOf(made.link) } });
      assert.deepEqual(shown.json(), { email, workspace: team.name, role: 'member', expiresAt: made.expiresAt, existingUser: false });

      const accepted = await accept(secretOf(made.link));
      assert.equal(accepted.statusCode, 200, accepted.body);
      assert.deepEqual(accepted.json().workspace.role, 'member');
      assert.deepEqual(accepted.json().user, { email, displayName: 'Grace' });
      assert.ok(sessionSetBy(accepted.headers['set-cookie']));
      await signIn(ctx.t, email, 'a long enough password');

      const again = await accept(secretOf(made.link), 'another long password');
      assert.equal(again.statusCode, 422);
      assert.deepEqual(again.json().errors, [{ field: 'token', rule: 'used', message: 'This invitation has been used already; ask for a new one' }]);
      const members = (await ctx.t.app.inject({ url: '/auth/members', headers: admin.headers })).json() as Array<{ email: string; role: string }>;
      assert.deepEqual(members.find((m) => m.email === email)?.role, 'member');
    });

    it('refuses an expired, an unknown, and a short-password acceptance, leaving nothing half-made', async () => {
      const expired = await invite(`${uniqueName('late')}@example.com`);
      await ctx.t.database.db
        .updateTable('invitations')
        .set({ expires_at: Date.now() - 1 })
        .where('token_hash', '=', hashToken(secretOf(expired.link)))
        .execute();
      const late = await accept(secretOf(expired.link));
      assert.equal(late.statusCode, 422);
      assert.equal(late.json().errors[0].rule, 'expired');

      const unknown = await accept('brf_not-a-real-invitation');
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().code, 'E_NOT_FOUND');

      const email = `${uniqueName('short')}@example.com`;
      const made = await invite(email);
      const short = await accept(secretOf(made.link), 'too short');
      assert.equal(short.statusCode, 422);
      assert.deepEqual(short.json().errors, [{ field: 'password', rule: 'minLength', message: 'The password field must be at least 10 characters' }]);
      assert.equal(await ctx.t.database.people.userByEmail(email), undefined);
      // Still usable: the refusal used nothing.
      assert.equal((await accept(secretOf(made.link))).statusCode, 200);
      for (const gone of [expired.email]) assert.equal(await ctx.t.database.people.userByEmail(gone), undefined);
    });

    it('refuses a malformed email and an unknown role with a clear error', async () => {
      const bad = await inviteAnswer('not an email', 'member');
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(bad.json().errors, [{ field: 'email', rule: 'email', message: 'The email field must be an email address' }]);
      const role = await inviteAnswer('a@example.com', 'king');
      assert.equal(role.statusCode, 422);
      assert.deepEqual(role.json().errors, [{ field: 'role', rule: 'enum', message: 'The role field must be one of viewer, member, admin, owner' }]);
      const count = await ctx.t.database.db
        .selectFrom('invitations')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('email', '=', 'a@example.com')
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0);
    });

    it('lets one of two acceptances at once win', async () => {
      const made = await invite(`${uniqueName('race')}@example.com`);
      const answers = await Promise.all([accept(secretOf(made.link)), accept(secretOf(made.link))]);
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 422]);
    });
  });

  describe(`sign-in limits (${dialect})`, () => {
    const ctx = useTestApp(dialect, { RATE_LIMIT_SIGN_IN: '3', RATE_LIMIT_SIGN_IN_ADDRESS: '5' });

    it('limits attempts per email from any address, and per address on all emails', async () => {
      const team = await ctx.t.account('team');
      const user = await addUser(ctx.t, team.id, 'member');
      const attempt = (email: string, from: string) =>
        ctx.t.app.inject({
          method: 'POST',
          url: '/auth/sign-in',
          remoteAddress: from,
          headers: SAME_ORIGIN,
          payload: { email, password: 'wrong password!' },
        });
      const perEmail = [];
      for (let i = 0; i < 4; i++) perEmail.push((await attempt(user.email, `10.0.0.${i + 1}`)).statusCode);
      assert.deepEqual(perEmail, [401, 401, 401, 429]);
      const perAddress = [];
      for (let i = 0; i < 6; i++) perAddress.push((await attempt(`p${i}@example.com`, '10.9.9.9')).statusCode);
      assert.deepEqual(perAddress, [401, 401, 401, 401, 401, 429]);
      const over = await attempt(user.email, '10.0.0.50');
      assert.equal(over.json().code, 'E_TOO_MANY_REQUESTS');
      assert.ok(over.headers['retry-after']);
    });
  });

  describe(`the cookie under https (${dialect})`, () => {
    const ctx = useTestApp(dialect, { BASE_URL: 'https://short.test' });

    it('is Secure', async () => {
      const team = await ctx.t.account('team');
      const user = await addUser(ctx.t, team.id, 'member');
      const response = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        headers: { origin: 'https://short.test' },
        payload: { email: user.email, password: PASSWORD },
      });
      assert.match(String(response.headers['set-cookie']), /; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    });
  });
}
