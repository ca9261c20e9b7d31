// Passkeys over HTTP on every dialect, with a software authenticator (test/support/software-authenticator.ts):
// registration by a signed-in person and sign-in with the passkey alone (the same session cookie as a
// password sign-in); a replayed or expired challenge refused; an unknown credential, another person's,
// a wrong signature, origin or user handle all refused with the one answer; the signature counter; no
// registration without a session (a token, nobody, another site); removal; the sign-in limits; an
// invitation accepted with a passkey instead of a password, once, making nothing when it fails.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { workspaceUuid } from '../../../src/accounts/ids.js';
import { PASSKEY_REFUSED } from '../../../src/people/passkeys/passkey-service.js';
import { hashToken } from '../../../src/tokens/token-secrets.js';
import { BASE_PREFIX, type TestAccount, type TestApp, uniqueName, useTestApp } from '../../support/app.js';
import { dialects } from '../../support/database.js';
import { addUser, member, SAME_ORIGIN, type SignedIn, sessionSetBy } from '../../support/people.js';
import { type AuthenticationOptions, type RegistrationOptions, SoftwareCredential } from '../../support/software-authenticator.js';

const REFUSED = { code: 'E_UNAUTHORIZED_ACCESS', message: PASSKEY_REFUSED };

async function registrationOptions(t: TestApp, person: SignedIn): Promise<RegistrationOptions> {
  const response = await t.app.inject({ method: 'POST', url: '/auth/passkeys/registration/options', headers: person.headers });
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

function register(t: TestApp, person: SignedIn, response: unknown, name?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/auth/passkeys/registration',
    headers: person.headers,
    payload: { response, ...(name !== undefined && { name }) },
  });
}

/** A new passkey of the person's, registered through the API. */
async function addPasskey(t: TestApp, person: SignedIn, credential = new SoftwareCredential(BASE_PREFIX), name?: string) {
  const answer = await register(t, person, credential.register(await registrationOptions(t, person)), name);
  assert.equal(answer.statusCode, 200, answer.body);
  return credential;
}

async function signInOptions(t: TestApp): Promise<AuthenticationOptions> {
  const response = await t.app.inject({ method: 'POST', url: '/auth/passkeys/sign-in/options', headers: SAME_ORIGIN });
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

function signIn(t: TestApp, response: unknown, headers: Record<string, string> = SAME_ORIGIN) {
  return t.app.inject({ method: 'POST', url: '/auth/passkeys/sign-in', headers, payload: { response } });
}

interface Invited {
  email: string;
  secret: string;
}

async function invite(t: TestApp, owner: SignedIn, email: string, role: string): Promise<Invited> {
  const made = await t.app.inject({ method: 'POST', url: '/auth/invitations', headers: owner.headers, payload: { email, role } });
  assert.equal(made.statusCode, 200, made.body);
  const link: string = made.json().link;
  return { email, secret: link.slice(link.indexOf('#') + 1) };
}

async function invitationOptions(t: TestApp, invited: Invited): Promise<RegistrationOptions> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/auth/invitation/passkey/options',
    headers: SAME_ORIGIN,
    payload: { token: invited.secret },
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

function acceptWithPasskey(t: TestApp, secret: string, response: unknown, extra: { displayName?: string; name?: string } = {}) {
  return t.app.inject({ method: 'POST', url: '/auth/invitation/passkey', headers: SAME_ORIGIN, payload: { token: secret, response, ...extra } });
}

for (const dialect of dialects) {
  describe(`passkeys (${dialect})`, () => {
    // The sign-in limits have a test of their own below; here one address makes every attempt.
    const ctx = useTestApp(dialect, { RATE_LIMIT_SIGN_IN_ADDRESS: '0' });
    let team: TestAccount;

    before(async () => {
      team = await ctx.t.account('team');
    });

    it('registers a passkey for a signed-in person, then signs in with it alone: the same session cookie as a password', async () => {
      const person = await member(ctx.t, team.id, 'member');
      const options = await registrationOptions(ctx.t, person);
      // The relying party is BASE_URL's host; the credential is discoverable and the user verified.
      assert.deepEqual(options.rp, { id: 'short.test', name: 'Brief' });
      assert.equal(options.user.name, person.email);
      // The user handle is random: nothing of the person (not even the id) is in it.
      assert.equal(Buffer.from(options.user.id, 'base64url').length, 16);
      assert.deepEqual(options.authenticatorSelection, { residentKey: 'required', requireResidentKey: true, userVerification: 'required' });
      const credential = new SoftwareCredential(BASE_PREFIX);
      const added = await register(ctx.t, person, credential.register(options), 'Laptop');
      assert.equal(added.statusCode, 200, added.body);
      assert.equal(added.json().name, 'Laptop');
      assert.equal(added.json().lastUsedAt, null);

      const login = await signIn(ctx.t, credential.assert(await signInOptions(ctx.t)));
      assert.equal(login.statusCode, 200, login.body);
      const cookie = String(login.headers['set-cookie']);
      assert.match(cookie, /^brief_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
      const session = sessionSetBy(cookie)!;
      const stored = await ctx.t.database.db.selectFrom('sessions').select('user_id').where('id_hash', '=', hashToken(session)).execute();
      assert.deepEqual(stored, [{ user_id: person.userId }]);
      const workspace = { id: workspaceUuid(team.id), name: team.name, role: 'member' };
      assert.deepEqual(login.json(), { user: { email: person.email, displayName: null }, workspace, workspaces: [workspace] });
      const listed = await ctx.t.app.inject({ url: '/v3/shorten/list', headers: { cookie: `brief_session=${session}` } });
      assert.equal(listed.statusCode, 200, 'the new session works for the API');

      const mine = await ctx.t.app.inject({ url: '/auth/passkeys', headers: person.headers });
      assert.equal(mine.statusCode, 200);
      assert.equal(mine.json().length, 1);
      assert.equal(mine.json()[0].name, 'Laptop');
      assert.ok(Date.parse(mine.json()[0].lastUsedAt) > 0, 'the sign-in is recorded');
    });

    it('names a passkey when the person does not, and refuses a second registration of the same credential', async () => {
      const person = await member(ctx.t, team.id, 'viewer');
      const credential = await addPasskey(ctx.t, person);
      const options = await registrationOptions(ctx.t, person);
      assert.deepEqual(
        options.excludeCredentials?.map((c) => c.id),
        [credential.id],
        'the authenticator is told what it holds already',
      );
      assert.equal(options.user.id, credential.userHandle, "a person's passkeys share one user handle");
      const again = await register(ctx.t, person, credential.register(options));
      assert.equal(again.statusCode, 422);
      assert.equal(again.json().message, 'This passkey is registered already');
      const mine = await ctx.t.app.inject({ url: '/auth/passkeys', headers: person.headers });
      assert.deepEqual(
        mine.json().map((p: { name: string }) => p.name),
        ['Passkey 1'],
      );
    });

    it('refuses a replayed or expired challenge, for sign-in and for registration', async () => {
      const person = await member(ctx.t, team.id, 'member');
      const credential = await addPasskey(ctx.t, person);
      const options = await signInOptions(ctx.t);
      const first = credential.assert(options);
      assert.equal((await signIn(ctx.t, first)).statusCode, 200);
      // The same answer again, and a fresh signature over the same challenge: the challenge is used.
      for (const replay of [first, credential.assert(options)]) {
        const again = await signIn(ctx.t, replay);
        assert.equal(again.statusCode, 401);
        assert.deepEqual(again.json(), REFUSED);
        assert.equal(again.headers['set-cookie'], undefined);
      }

      const late = await signInOptions(ctx.t);
      await ctx.t.database.db
        .updateTable('passkey_challenges')
        .set({ expires_at: Date.now() - 1 })
        .where('challenge', '=', late.challenge)
        .execute();
      const expired = await signIn(ctx.t, credential.assert(late));
      assert.equal(expired.statusCode, 401);
      assert.deepEqual(expired.json(), REFUSED);

      const registration = await registrationOptions(ctx.t, person);
      const answer = new SoftwareCredential(BASE_PREFIX).register(registration);
      assert.equal((await register(ctx.t, person, answer)).statusCode, 200);
      const replayed = await register(ctx.t, person, answer);
      assert.equal(replayed.statusCode, 422);
      assert.match(replayed.json().message, /expired or was used already/);
    });

    it("refuses with the one answer an unknown credential, another person's, a wrong key, origin, RP ID or user handle", async () => {
      const ada = await member(ctx.t, team.id, 'member');
      const grace = await member(ctx.t, team.id, 'member');
      const adas = await addPasskey(ctx.t, ada);
      const graces = await addPasskey(ctx.t, grace);
      const unknown = new SoftwareCredential(BASE_PREFIX);
      unknown.userHandle = adas.userHandle;
      const attempts = [
        // A credential nobody registered.
        unknown.assert(await signInOptions(ctx.t)),
        // Ada's credential id, signed by Grace's key.
        adas.assert(await signInOptions(ctx.t), { signWith: graces }),
        // Grace's credential, claiming Ada as its user.
        graces.assert(await signInOptions(ctx.t), { userHandle: adas.userHandle }),
        // Made on another site (a phishing page relaying the challenge).
        adas.assert(await signInOptions(ctx.t), { origin: 'https://evil.example' }),
        // For another relying party.
        adas.assert({ ...(await signInOptions(ctx.t)), rpId: 'evil.example' }),
      ];
      for (const [i, attempt] of attempts.entries()) {
        const answer = await signIn(ctx.t, attempt);
        assert.equal(answer.statusCode, 401, `attempt ${i}: ${answer.body}`);
        assert.deepEqual(answer.json(), REFUSED, `attempt ${i}`);
        assert.equal(answer.headers['set-cookie'], undefined);
      }
      // A challenge made up by the client, and a body that is no credential.
      const madeUp = await signIn(ctx.t, adas.assert({ challenge: 'bm90LW91cnM', rpId: 'short.test' }));
      assert.deepEqual([madeUp.statusCode, madeUp.json()], [401, REFUSED]);
      const junk = await signIn(ctx.t, { id: 'x', rawId: 'x', type: 'public-key', response: {}, clientExtensionResults: {} });
      assert.equal(junk.statusCode, 422);
      assert.equal(junk.json().code, 'E_VALIDATION_ERROR');
      // Both still sign in with their own.
      assert.equal((await signIn(ctx.t, adas.assert(await signInOptions(ctx.t)))).statusCode, 200);
      assert.equal((await signIn(ctx.t, graces.assert(await signInOptions(ctx.t)))).statusCode, 200);
    });

    it('refuses a registration for another person or from another origin', async () => {
      const ada = await member(ctx.t, team.id, 'member');
      const grace = await member(ctx.t, team.id, 'member');
      // Grace presents the answer to a challenge made for Ada.
      const forAda = new SoftwareCredential(BASE_PREFIX).register(await registrationOptions(ctx.t, ada));
      const stolen = await register(ctx.t, grace, forAda);
      assert.equal(stolen.statusCode, 422);
      assert.match(stolen.json().message, /expired or was used already/);
      const elsewhere = new SoftwareCredential('https://evil.example').register(await registrationOptions(ctx.t, ada));
      const refused = await register(ctx.t, ada, elsewhere);
      assert.equal(refused.statusCode, 422);
      assert.match(refused.json().message, /could not be verified/);
      assert.equal((await ctx.t.app.inject({ url: '/auth/passkeys', headers: ada.headers })).json().length, 0);
    });

    it('keeps the signature counter: a counter that does not move on is refused, one that stays 0 is fine', async () => {
      const person = await member(ctx.t, team.id, 'member');
      const counting = await addPasskey(ctx.t, person, new SoftwareCredential(BASE_PREFIX, 1, 10));
      assert.equal((await signIn(ctx.t, counting.assert(await signInOptions(ctx.t)))).statusCode, 200);
      const row = await ctx.t.database.db.selectFrom('passkeys').select('counter').where('credential_id', '=', counting.id).executeTakeFirstOrThrow();
      assert.equal(Number(row.counter), 11);
      // A clone of the authenticator, behind the counter the server saw.
      counting.counter = 9;
      const cloned = await signIn(ctx.t, counting.assert(await signInOptions(ctx.t)));
      assert.deepEqual([cloned.statusCode, cloned.json()], [401, REFUSED]);
      counting.counter = 11;
      assert.equal((await signIn(ctx.t, counting.assert(await signInOptions(ctx.t)))).statusCode, 200);

      // Authenticators that keep no counter (many synced passkeys) answer 0 every time.
      const zero = await addPasskey(ctx.t, person, new SoftwareCredential(BASE_PREFIX, 0));
      for (let i = 0; i < 2; i++) assert.equal((await signIn(ctx.t, zero.assert(await signInOptions(ctx.t)))).statusCode, 200);
    });

    it('refuses registration and the list without a session: nobody, a bearer token, an ended session, another site', async () => {
      const person = await member(ctx.t, team.id, 'owner');
      const calls = [
        { method: 'POST' as const, url: '/auth/passkeys/registration/options' },
        { method: 'GET' as const, url: '/auth/passkeys' },
        { method: 'DELETE' as const, url: '/auth/passkeys/1' },
      ];
      for (const call of calls) {
        for (const headers of [SAME_ORIGIN, { ...SAME_ORIGIN, ...team.headers }]) {
          const answer = await ctx.t.app.inject({ ...call, headers });
          assert.equal(answer.statusCode, 401, `${call.method} ${call.url}`);
          assert.deepEqual(answer.json(), { code: 'E_UNAUTHORIZED_ACCESS', message: 'Not signed in' });
        }
        const crossSite = await ctx.t.app.inject({ ...call, headers: { cookie: person.headers.cookie, 'sec-fetch-site': 'cross-site' } });
        assert.equal(crossSite.statusCode, 403, `${call.method} ${call.url} from another site`);
        assert.equal(crossSite.json().code, 'E_FORBIDDEN');
      }
      // A registration answer without a session, with a cookie from another origin, or without Origin.
      const answer = new SoftwareCredential(BASE_PREFIX).register(await registrationOptions(ctx.t, person));
      const anonymous = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/passkeys/registration',
        headers: SAME_ORIGIN,
        payload: { response: answer },
      });
      assert.equal(anonymous.statusCode, 401);
      const foreign = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/passkeys/registration',
        headers: { cookie: person.headers.cookie, origin: 'https://evil.example' },
        payload: { response: answer },
      });
      assert.equal(foreign.statusCode, 403);
      const bare = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/passkeys/registration',
        headers: { cookie: person.headers.cookie },
        payload: { response: answer },
      });
      assert.equal(bare.statusCode, 403, 'a change with the cookie and no Origin');
      // A sign-in another site's page starts is refused too.
      const crossSignIn = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/passkeys/sign-in/options',
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      assert.equal(crossSignIn.statusCode, 403);
      const ended = await ctx.t.app.inject({ method: 'POST', url: '/auth/sign-out', headers: person.headers });
      assert.equal(ended.statusCode, 200);
      const afterSignOut = await ctx.t.app.inject({ method: 'POST', url: '/auth/passkeys/registration/options', headers: person.headers });
      assert.equal(afterSignOut.statusCode, 401);
    });

    it("removes a passkey, which then signs nobody in; another person's is not found", async () => {
      const ada = await member(ctx.t, team.id, 'member');
      const grace = await member(ctx.t, team.id, 'member');
      const credential = await addPasskey(ctx.t, ada, undefined, 'Phone');
      const [passkey] = (await ctx.t.app.inject({ url: '/auth/passkeys', headers: ada.headers })).json();
      const byGrace = await ctx.t.app.inject({ method: 'DELETE', url: `/auth/passkeys/${passkey.id}`, headers: grace.headers });
      assert.equal(byGrace.statusCode, 404);
      assert.deepEqual(byGrace.json(), { code: 'E_NOT_FOUND', message: 'Passkey not found' });
      const removed = await ctx.t.app.inject({ method: 'DELETE', url: `/auth/passkeys/${passkey.id}`, headers: ada.headers });
      assert.equal(removed.statusCode, 200);
      assert.deepEqual(removed.json(), { success: true });
      assert.deepEqual((await ctx.t.app.inject({ url: '/auth/passkeys', headers: ada.headers })).json(), []);
      const after = await signIn(ctx.t, credential.assert(await signInOptions(ctx.t)));
      assert.deepEqual([after.statusCode, after.json()], [401, REFUSED]);
      const again = await ctx.t.app.inject({ method: 'DELETE', url: `/auth/passkeys/${passkey.id}`, headers: ada.headers });
      assert.equal(again.statusCode, 404);
      const bad = await ctx.t.app.inject({ method: 'DELETE', url: '/auth/passkeys/abc', headers: ada.headers });
      assert.equal(bad.statusCode, 422);
    });

    it('accepts an invitation with a passkey instead of a password: made, joined and signed in at once, then signs in with it', async () => {
      const owner = await member(ctx.t, team.id, 'owner');
      const token = await invite(ctx.t, owner, `${uniqueName('new')}@example.com`, 'viewer');
      const options = await invitationOptions(ctx.t, token);
      assert.equal(options.user.name, token.email);
      assert.deepEqual(options.authenticatorSelection, { residentKey: 'required', requireResidentKey: true, userVerification: 'required' });
      const credential = new SoftwareCredential(BASE_PREFIX);
      const joined = await acceptWithPasskey(ctx.t, token.secret, credential.register(options), { displayName: 'Grace', name: 'Phone' });
      assert.equal(joined.statusCode, 200, joined.body);
      const workspace = { id: workspaceUuid(team.id), name: team.name, role: 'viewer' };
      assert.deepEqual(joined.json(), { user: { email: token.email, displayName: 'Grace' }, workspace, workspaces: [workspace] });
      const session = sessionSetBy(joined.headers['set-cookie'])!;
      const mine = await ctx.t.app.inject({ url: '/auth/passkeys', headers: { cookie: `brief_session=${session}`, ...SAME_ORIGIN } });
      assert.deepEqual(
        mine.json().map((p: { name: string }) => p.name),
        ['Phone'],
      );
      const user = await ctx.t.database.people.userByEmail(token.email);
      assert.equal(user?.passwordHash, null, 'no password was set');
      // Used once: the link is spent, and the passkey signs in alone.
      const again = await acceptWithPasskey(ctx.t, token.secret, new SoftwareCredential(BASE_PREFIX).register(options));
      assert.equal(again.statusCode, 422);
      assert.match(again.json().message, /used already/);
      const login = await signIn(ctx.t, credential.assert(await signInOptions(ctx.t)));
      assert.equal(login.statusCode, 200, login.body);
      assert.equal(login.json().user.email, token.email);

      // Invited elsewhere, a link cannot give this person a password: its holder would get into their account.
      const elsewhere = await ctx.t.account('elsewhere');
      const admin = await member(ctx.t, elsewhere.id, 'owner');
      const again2 = await invite(ctx.t, admin, token.email, 'member');
      const withPassword = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/invitation/accept',
        headers: SAME_ORIGIN,
        payload: { token: again2.secret, password: 'a password of the holder' },
      });
      // The person exists without a password (a passkey only): they sign in first (decision 0028), so a 401.
      assert.equal(withPassword.statusCode, 401);
      assert.match(withPassword.json().message, /signs in without a password: sign in first/);
      assert.equal((await ctx.t.database.people.userByEmail(token.email))?.passwordHash, null);
      assert.deepEqual(
        (await ctx.t.database.people.membershipsOf(user!.id)).map((m) => m.accountId),
        [team.id],
      );
    });

    it('makes nothing when an invitation with a passkey fails: another invitation’s challenge, a bad answer, an email that can sign in', async () => {
      const owner = await member(ctx.t, team.id, 'owner');
      const first = await invite(ctx.t, owner, `${uniqueName('a')}@example.com`, 'member');
      const second = await invite(ctx.t, owner, `${uniqueName('b')}@example.com`, 'member');
      // The answer to the first invitation's challenge, presented with the second's link.
      const crossed = await acceptWithPasskey(
        ctx.t,
        second.secret,
        new SoftwareCredential(BASE_PREFIX).register(await invitationOptions(ctx.t, first)),
      );
      assert.equal(crossed.statusCode, 422);
      assert.match(crossed.json().message, /expired or was used already/);
      const foreign = await acceptWithPasskey(
        ctx.t,
        second.secret,
        new SoftwareCredential('https://evil.example').register(await invitationOptions(ctx.t, second)),
      );
      assert.equal(foreign.statusCode, 422);
      assert.match(foreign.json().message, /could not be verified/);
      for (const email of [first.email, second.email]) assert.equal(await ctx.t.database.people.userByEmail(email), undefined);
      // An email with a password already: refused, nothing made, the invitation still unused.
      const existing = await addUser(ctx.t, (await ctx.t.account('other')).id, 'member');
      const forExisting = await invite(ctx.t, owner, existing.email, 'member');
      const taken = await acceptWithPasskey(
        ctx.t,
        forExisting.secret,
        new SoftwareCredential(BASE_PREFIX).register(await invitationOptions(ctx.t, forExisting)),
      );
      assert.equal(taken.statusCode, 422);
      assert.match(taken.json().message, /can sign in already/);
      assert.equal(taken.headers['set-cookie'], undefined);
      assert.deepEqual(await ctx.t.database.passkeys.listOf(existing.id), []);
      assert.deepEqual((await ctx.t.database.people.membershipsOf(existing.id)).map((m) => m.accountId).includes(team.id), false);
      // Unknown and expired invitations are refused as the password acceptance refuses them.
      const unknown = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/invitation/passkey/options',
        headers: SAME_ORIGIN,
        payload: { token: 'nope' },
      });
      assert.equal(unknown.statusCode, 404);
      await ctx.t.database.db
        .updateTable('invitations')
        .set({ expires_at: Date.now() - 1 })
        .where('token_hash', '=', hashToken(first.secret))
        .execute();
      const expired = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/invitation/passkey/options',
        headers: SAME_ORIGIN,
        payload: { token: first.secret },
      });
      assert.equal(expired.statusCode, 422);
      assert.match(expired.json().message, /expired/);
    });

    it('removes a person’s passkeys with the person', async () => {
      const user = await addUser(ctx.t, team.id, 'member');
      const person = await member(ctx.t, team.id, 'member');
      await addPasskey(ctx.t, person);
      await ctx.t.database.people.removeUser(person.userId);
      const left = await ctx.t.database.db.selectFrom('passkeys').select('id').where('user_id', '=', person.userId).execute();
      assert.deepEqual(left, []);
      assert.ok(await ctx.t.database.people.userById(user.id), 'others stay');
    });
  });

  describe(`passkey sign-in limits (${dialect})`, () => {
    const ctx = useTestApp(dialect, { RATE_LIMIT_SIGN_IN_ADDRESS: '4' });

    it('counts passkey sign-in calls on the sign-in limit per address', async () => {
      const from = { ...SAME_ORIGIN };
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const answer = await ctx.t.app.inject({ method: 'POST', url: '/auth/passkeys/sign-in/options', headers: from, remoteAddress: '203.0.113.9' });
        statuses.push(answer.statusCode);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
      const verify = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/passkeys/sign-in',
        headers: from,
        remoteAddress: '203.0.113.9',
        payload: { response: new SoftwareCredential(BASE_PREFIX).assert({ challenge: 'eA', rpId: 'short.test' }) },
      });
      assert.equal(verify.statusCode, 429);
      assert.equal(verify.json().code, 'E_TOO_MANY_REQUESTS');
      const elsewhere = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/passkeys/sign-in/options',
        headers: from,
        remoteAddress: '198.51.100.7',
      });
      assert.equal(elsewhere.statusCode, 200);
    });
  });
}
