// Every check of a person's password is counted per email and per address, and bounded (issue 37,
// items 3 and 4), on every dialect: an invitation's acceptance counts against the invitee's email on the
// same counters as sign-in (an email locked out of sign-in gets no fresh guesses there, and the other way
// round), five wrong passwords use the invitation up, and a full queue of password hashes answers a
// sign-in 503 with Retry-After, without a hash.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { REFUSAL_PAUSE_MS } from '../../src/http/rate-limits.js';
import { PasswordPool } from '../../src/passwords/password-pool.js';
import { eventually, TEST_ENV, type TestAccount, uniqueName, useTestApp } from '../support/app.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';
import { asAnswered, heldChecks } from '../support/held-checks.js';
import { addUser, member, PASSWORD, SAME_ORIGIN, type SignedIn } from '../support/people.js';

const secretOf = (link: string) => link.slice(link.indexOf('#') + 1);

for (const dialect of dialects) {
  describe(`password checks counted per email (${dialect})`, () => {
    const ctx = useTestApp(dialect, { RATE_LIMIT_SIGN_IN: '3', RATE_LIMIT_SIGN_IN_ADDRESS: '100' });
    let team: TestAccount;
    let admin: SignedIn;
    let from = 0;
    /** Each call from an address of its own: only the per-email limit is under test. */
    const post = (url: string, payload: object) =>
      ctx.t.app.inject({ method: 'POST', url, remoteAddress: `10.1.0.${++from}`, headers: SAME_ORIGIN, payload });
    /** Someone who signs in already, invited to another workspace: the link takes their own password. */
    const invited = async () => {
      const user = await addUser(ctx.t, (await ctx.t.account('home')).id, 'owner');
      const made = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/invitations',
        headers: admin.headers,
        payload: { email: user.email, role: 'member' },
      });
      assert.equal(made.statusCode, 200, made.body);
      return { email: user.email, token: secretOf(made.json().link) };
    };

    before(async () => {
      team = await ctx.t.account('team');
      admin = await member(ctx.t, team.id, 'admin');
    });

    it('refuses an acceptance with 429 once the invitee’s email is locked out of sign-in, even with the right password', async () => {
      const { email, token } = await invited();
      const tries = [];
      for (let i = 0; i < 3; i++) tries.push((await post('/auth/sign-in', { email, password: 'wrong password!' })).statusCode);
      assert.deepEqual(tries, [401, 401, 401]);
      const asked = Date.now();
      const accepted = await post('/auth/invitation/accept', { token, password: PASSWORD });
      assert.equal(accepted.statusCode, 429, accepted.body);
      // A refusal is answered after a pause (a lower bound, not a speed): a guesser's loop gets few a second.
      assert.ok(Date.now() - asked >= REFUSAL_PAUSE_MS - 5, `answered after ${Date.now() - asked} ms`);
      assert.equal(accepted.json().code, 'E_TOO_MANY_REQUESTS');
      assert.match(String(accepted.headers['retry-after']), /^[1-9]\d*$/);
      assert.equal((await post('/auth/sign-in', { email, password: PASSWORD })).statusCode, 429);
    });

    it('counts wrong passwords given at acceptance against sign-in with that email', async () => {
      const { email, token } = await invited();
      const tries = [];
      for (let i = 0; i < 3; i++) tries.push((await post('/auth/invitation/accept', { token, password: 'wrong password!' })).statusCode);
      assert.deepEqual(tries, [401, 401, 401]);
      const signIn = await post('/auth/sign-in', { email: email.toUpperCase(), password: PASSWORD });
      assert.equal(signIn.statusCode, 429, 'the same email, whatever its case');
      assert.ok(signIn.headers['retry-after']);
    });

    it('does not count an acceptance that checks no password (a new person setting one)', async () => {
      const email = `${uniqueName('new')}@example.com`;
      const made = await ctx.t.app.inject({ method: 'POST', url: '/auth/invitations', headers: admin.headers, payload: { email, role: 'viewer' } });
      for (let i = 0; i < 3; i++) assert.equal((await post('/auth/sign-in', { email, password: 'wrong password!' })).statusCode, 401);
      const accepted = await post('/auth/invitation/accept', { token: secretOf(made.json().link), password: 'a long enough password' });
      assert.equal(accepted.statusCode, 200, accepted.body);
    });
  });

  describe(`an invitation used up by wrong passwords (${dialect})`, () => {
    const ctx = useTestApp(dialect, { RATE_LIMIT_SIGN_IN: '0', RATE_LIMIT_SIGN_IN_ADDRESS: '0' });

    /** Someone who signs in already, invited by an admin of a team to join it as `role`: the invitation's secret. */
    const invitation = async (role: string) => {
      const team = await ctx.t.account('team');
      const admin = await member(ctx.t, team.id, 'admin');
      const user = await addUser(ctx.t, (await ctx.t.account('home')).id, 'owner');
      const made = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/invitations',
        headers: admin.headers,
        payload: { email: user.email, role },
      });
      return { team, user, token: secretOf(made.json().link) };
    };
    const acceptWith = (token: string, password: string) =>
      ctx.t.app.inject({ method: 'POST', url: '/auth/invitation/accept', headers: SAME_ORIGIN, payload: { token, password } });

    it('takes 5 wrong passwords, then is used up: the right one, and its page, get 422 usedUp', async () => {
      const { team, user, token } = await invitation('admin');
      const accept = (password: string) => acceptWith(token, password);
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await accept(`wrong password ${i}`));
      assert.deepEqual(
        answers.map((a) => a.statusCode),
        [401, 401, 401, 401, 401],
      );
      assert.match(answers[3]!.json().message, /^Wrong password for .*: give the password you sign in with$/);
      assert.match(answers[4]!.json().message, /this invitation is used up; ask for a new one/);
      const right = await accept(PASSWORD);
      assert.equal(right.statusCode, 422);
      assert.deepEqual(right.json().errors, [
        { field: 'token', rule: 'usedUp', message: 'This invitation is used up: 5 wrong passwords were given with it; ask for a new one' },
      ]);
      const page = await ctx.t.app.inject({ method: 'POST', url: '/auth/invitation', payload: { token } });
      assert.equal(page.statusCode, 422);
      assert.equal(page.json().errors[0].rule, 'usedUp');
      assert.equal(await ctx.t.database.people.roleIn(user.id, team.id), undefined, 'never joined');
    });

    it('keeps an invitation given fewer than 5 wrong passwords: the right one still joins', async () => {
      const { team, user, token } = await invitation('member');
      for (let i = 0; i < 4; i++) assert.equal((await acceptWith(token, 'nope nope nope')).statusCode, 401);
      const right = await acceptWith(token, PASSWORD);
      assert.equal(right.statusCode, 200, right.body);
      assert.equal(await ctx.t.database.people.roleIn(user.id, team.id), 'member');
    });
  });
}

describe('sign-in while the password threads are busy', () => {
  let db: TestDatabase;
  let app: ReturnType<typeof buildApp>;
  // Each check is held until the test releases it: what runs at once is counted, not timed.
  const { run, counts, held, drain } = heldChecks(PASSWORD);
  before(async () => {
    db = await openTestDatabase('sqlite');
    app = buildApp(loadConfig({ ...TEST_ENV, RATE_LIMIT_SIGN_IN: '0', RATE_LIMIT_SIGN_IN_ADDRESS: '0' }), {
      database: db.database,
      passwords: new PasswordPool({ run }),
    });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await db?.cleanup();
  });

  it('answers 503 E_SERVICE_UNAVAILABLE with Retry-After beyond 2 running and 16 waiting, without a hash', async () => {
    const account = await db.database.accounts.create(uniqueName('busy'));
    const user = await addUser({ database: db.database } as never, account!.id, 'member');
    const { answers, all } = asAnswered(
      Array.from({ length: 20 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/auth/sign-in',
          remoteAddress: `192.0.2.${i + 1}`,
          headers: SAME_ORIGIN,
          payload: { email: user.email, password: i === 0 ? PASSWORD : 'wrong password!' },
        }),
      ),
    );
    assert.ok(await eventually(async () => answers.length === 2 && held.length === 2));
    for (const busy of answers) {
      assert.equal(busy.statusCode, 503);
      assert.equal(busy.headers['retry-after'], '1');
      assert.deepEqual(JSON.parse(busy.body), {
        code: 'E_SERVICE_UNAVAILABLE',
        message: 'Too many passwords are being checked right now: try again in a moment',
      });
    }
    await drain();
    const statuses = (await all).map((res) => res.statusCode);
    assert.equal(counts.most, 2);
    assert.equal(counts.ran, 18);
    assert.deepEqual(statuses, [200, ...Array<number>(17).fill(401), 503, 503]);
    const doc = (await app.inject({ url: '/v2/openapi.json' })).json();
    assert.match(doc.paths['/auth/sign-in'].post.responses['503'].description, /too many passwords are being checked/);
    assert.ok(doc.paths['/auth/sign-in'].post.responses['503'].headers['Retry-After']);
  });
});
