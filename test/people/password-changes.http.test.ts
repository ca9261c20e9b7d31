// Passwords changed and reset (issue 37, item 8) over HTTP on every dialect: a signed-in person changes
// theirs with the current one (a counted check; wrong is 401), every other session ends and the old password
// stops working at once; the operator's reset link sets a new one once, within the hour, and ends every
// session; used, expired and unknown links get clear errors; the operator sets one (brief user password).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PasswordPool } from '../../src/passwords/password-pool.js';
import { PasswordChanges } from '../../src/people/password-changes.js';
import { uncountedUserPasswords } from '../../src/people/user-passwords.js';
import { hashToken } from '../../src/tokens/token-secrets.js';
import { BASE_PREFIX, type TestAccount, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { addUser, PASSWORD, SAME_ORIGIN, type SignedIn, signIn } from '../support/people.js';

const NEW_PASSWORD = 'a brand new password';

for (const dialect of dialects) {
  describe(`password change and reset (${dialect})`, () => {
    const ctx = useTestApp(dialect, { RATE_LIMIT_SIGN_IN: '6', RATE_LIMIT_SIGN_IN_ADDRESS: '0' });
    let team: TestAccount;
    /** The CLI's side: `brief user reset` and `brief user password` call these. */
    let operator: PasswordChanges;

    before(async () => {
      team = await ctx.t.account('team');
      operator = new PasswordChanges(ctx.t.database.people, ctx.t.database.passwords, uncountedUserPasswords(new PasswordPool()), BASE_PREFIX);
    });

    const change = (who: SignedIn, body: object, headers: Record<string, string> = who.headers) =>
      ctx.t.app.inject({ method: 'POST', url: '/auth/password', headers, payload: body });
    const me = (who: SignedIn) => ctx.t.app.inject({ url: '/auth/me', headers: who.headers });
    const signInAnswer = (email: string, password: string) =>
      ctx.t.app.inject({ method: 'POST', url: '/auth/sign-in', headers: SAME_ORIGIN, payload: { email, password } });
    const reset = (token: string, newPassword = NEW_PASSWORD) =>
      ctx.t.app.inject({ method: 'POST', url: '/auth/password/reset', headers: SAME_ORIGIN, payload: { token, newPassword } });

    it('changes a signed-in person’s password: other sessions end, this one stays, the old password stops at once', async () => {
      const user = await addUser(ctx.t, team.id, 'member');
      const here = await signIn(ctx.t, user.email);
      const elsewhere = await signIn(ctx.t, user.email);
      const wrong = await change(here, { currentPassword: 'not my password', newPassword: NEW_PASSWORD });
      assert.equal(wrong.statusCode, 401);
      assert.deepEqual(wrong.json(), { code: 'E_UNAUTHORIZED_ACCESS', message: 'The current password is wrong' });
      const short = await change(here, { currentPassword: PASSWORD, newPassword: 'short' });
      assert.equal(short.statusCode, 422);
      assert.deepEqual(short.json().errors, [
        { field: 'newPassword', rule: 'minLength', message: 'The newPassword field must be at least 10 characters' },
      ]);
      assert.equal((await me(elsewhere)).statusCode, 200, 'nothing changed yet');

      const changed = await change(here, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json(), { success: true });
      assert.equal((await me(here)).statusCode, 200, 'the session that changed it stays');
      assert.equal((await me(elsewhere)).statusCode, 401, 'every other session ends');
      assert.equal((await signInAnswer(user.email, PASSWORD)).statusCode, 401, 'the old password stops working');
      assert.equal((await signInAnswer(user.email, NEW_PASSWORD)).statusCode, 200);
    });

    it('needs a session (a token is not enough) from Brief’s own pages, and counts the check against the email', async () => {
      const user = await addUser(ctx.t, team.id, 'owner');
      const here = await signIn(ctx.t, user.email);
      const token = await change(here, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, team.headers);
      assert.equal(token.statusCode, 401);
      const crossSite = await change(
        here,
        { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
        { ...here.headers, origin: 'https://evil.example' },
      );
      assert.equal(crossSite.statusCode, 403);
      // 6 checks a minute per email: sign-in's above is one; four wrong changes, a wrong sign-in, then 429.
      for (let i = 0; i < 4; i++) assert.equal((await change(here, { currentPassword: `guess ${i}!!`, newPassword: NEW_PASSWORD })).statusCode, 401);
      assert.equal((await signInAnswer(user.email, 'guess again')).statusCode, 401);
      const over = await change(here, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
      assert.equal(over.statusCode, 429);
      assert.equal(over.json().code, 'E_TOO_MANY_REQUESTS');
      assert.ok(over.headers['retry-after']);
      assert.equal((await signInAnswer(user.email, PASSWORD)).statusCode, 429, 'sign-in shares the count');
    });

    it('resets through a one-time link valid an hour: every session ends, the new password signs in, once', async () => {
      const user = await addUser(ctx.t, team.id, 'member');
      const session = await signIn(ctx.t, user.email);
      const made = await operator.resetLink(user.email);
      assert.match(made.link, /^http:\/\/short\.test\/app\/reset-password#brf_[A-Za-z0-9_-]{43}$/);
      const minutes = (made.expiresAt - Date.now()) / 60_000;
      assert.ok(minutes > 59 && minutes <= 60, `${minutes} minutes`);
      const token = made.link.slice(made.link.indexOf('#') + 1);
      const stored = await ctx.t.database.passwords.passwordResetByHash(hashToken(token));
      assert.equal(stored?.userId, user.id, 'stored by the hash of its secret');
      assert.equal(await ctx.t.database.passwords.passwordResetByHash(token), undefined, 'never by the secret itself');

      const short = await reset(token, 'short');
      assert.equal(short.statusCode, 422);
      assert.equal(short.json().errors[0].field, 'newPassword');
      const done = await reset(token);
      assert.equal(done.statusCode, 200, done.body);
      assert.equal((await me(session)).statusCode, 401, 'every session ends');
      assert.equal((await signInAnswer(user.email, PASSWORD)).statusCode, 401);
      assert.equal((await signInAnswer(user.email, NEW_PASSWORD)).statusCode, 200);
      const again = await reset(token, 'yet another password');
      assert.equal(again.statusCode, 422);
      assert.deepEqual(again.json().errors, [{ field: 'token', rule: 'used', message: 'This reset link has been used already; ask for a new one' }]);
    });

    it('refuses an expired, an unknown and a replaced link with clear errors, changing nothing', async () => {
      const user = await addUser(ctx.t, team.id, 'viewer');
      const first = await operator.resetLink(user.email);
      const second = await operator.resetLink(user.email);
      const secret = (link: string) => link.slice(link.indexOf('#') + 1);
      const replaced = await reset(secret(first.link));
      assert.equal(replaced.statusCode, 404, 'a newer link replaces an older one');
      const unknown = await reset('brf_not-a-real-link');
      assert.equal(unknown.statusCode, 404);
      assert.deepEqual(unknown.json(), { code: 'E_NOT_FOUND', message: 'No such reset link: check that the whole link was copied' });
      await ctx.t.database.db
        .updateTable('password_resets')
        .set({ expires_at: Date.now() - 1 })
        .where('token_hash', '=', hashToken(secret(second.link)))
        .execute();
      const expired = await reset(secret(second.link));
      assert.equal(expired.statusCode, 422);
      assert.deepEqual(expired.json().errors, [{ field: 'token', rule: 'expired', message: 'This reset link has expired; ask for a new one' }]);
      assert.equal((await signInAnswer(user.email, PASSWORD)).statusCode, 200, 'the password is unchanged');
      await assert.rejects(operator.resetLink('nobody@example.com'), /No user with the email nobody@example.com/);
    });

    it('lets the operator set a password (brief user password): every session ends, the old password stops', async () => {
      const user = await addUser(ctx.t, team.id, 'admin');
      const session = await signIn(ctx.t, user.email);
      await assert.rejects(operator.set(user.email, 'short'), /at least 10 characters/);
      assert.equal((await me(session)).statusCode, 200);
      await operator.set(` ${user.email.toUpperCase()} `, NEW_PASSWORD);
      assert.equal((await me(session)).statusCode, 401);
      assert.equal((await signInAnswer(user.email, PASSWORD)).statusCode, 401);
      assert.equal((await signInAnswer(user.email, NEW_PASSWORD)).statusCode, 200);
      await assert.rejects(operator.set('nobody@example.com', NEW_PASSWORD), /No user with the email nobody@example.com/);
    });
  });
}
