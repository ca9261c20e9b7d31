// Settings → Password in real Chromium against the built server as a process (issue 37, item 8): a wrong
// current password and two new ones that differ are announced and change nothing; the right one changes it,
// this browser stays signed in, a session elsewhere ends and the old password stops working. A reset link
// printed by `brief user reset` sets a new password on its page, once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from '../support/process.js';
import { assertAccessible, openPage, screenshot, signInOver, signInWithDialog, suiteWithFirstPerson, WIDTHS } from './browser.js';

const EMAIL = 'ada@example.com';
const PASSWORD = 'a long enough password';
const NEW_PASSWORD = 'an even longer password';

describe('Settings → Password in Chromium', { timeout: 300_000 }, () => {
  // Many sign-ins of one email in a minute here: the per-email limit is the HTTP tests' to check.
  const suite = suiteWithFirstPerson('brief-browser-password-', EMAIL, PASSWORD, { RATE_LIMIT_SIGN_IN: '100' });

  const signInAs = (password: string) => signInOver(suite.server.origin, EMAIL, password);
  const meWith = async (cookie: string) => (await fetch(`${suite.server.origin}/auth/me`, { headers: { cookie } })).status;

  it('changes the password from Settings: other sessions end, this one stays, the old password stops', async () => {
    const elsewhere = await signInAs(PASSWORD);
    assert.equal(elsewhere.status, 200);
    const { context, page } = await openPage(suite.browser, suite.server.origin, WIDTHS[1]);
    try {
      await signInWithDialog(page, suite.server.origin, EMAIL, PASSWORD);
      await page.getByRole('banner').getByText('Signed in as').waitFor();

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Password' }).waitFor();
      await page.getByRole('link', { name: 'Change your password' }).click();
      await page.getByRole('heading', { name: 'Change your password' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/app/settings/password');

      await page.getByLabel('Current password').fill('not my password');
      await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('New password, again').fill('something else entirely');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('The two new passwords are not the same.').waitFor();

      await page.getByLabel('New password, again').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('alert').filter({ hasText: 'The current password is wrong' }).waitFor();
      await assertAccessible(page, 'Settings → Password, with an error');
      assert.equal(await meWith(elsewhere.cookie!), 200, 'nothing changed yet');

      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('status').filter({ hasText: 'Your password is changed' }).waitFor();
      await screenshot(page, 'settings-password');
      assert.equal(await page.getByLabel('Current password').inputValue(), '', 'the form is emptied');

      assert.equal(await meWith(elsewhere.cookie!), 401, 'the other session ended');
      const session = (await context.cookies()).find((c) => c.name === 'brief_session');
      assert.equal(await meWith(`brief_session=${session!.value}`), 200, 'this one stays');
      await page.reload();
      await page.getByRole('banner').getByText('Signed in as').waitFor();
      assert.equal((await signInAs(PASSWORD)).status, 401, 'the old password stops working');
      assert.equal((await signInAs(NEW_PASSWORD)).status, 200);
    } finally {
      await context.close();
    }
  });

  it('sets a new password on a reset link’s page, once', async () => {
    const printed = await runCli(suite.env, 'user', 'reset', EMAIL);
    assert.equal(printed.code, 0, printed.stderr);
    const link = printed.stdout.trim().split('\n').at(-1)!;
    assert.match(link, /\/app\/reset-password#brf_/);
    const { context, page } = await openPage(suite.browser, suite.server.origin, WIDTHS[0]);
    try {
      await page.goto(link);
      await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
      await page.getByLabel('New password', { exact: true }).fill('short');
      await page.getByLabel('New password, again').fill('short');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('The newPassword field must be at least 10 characters').waitFor();
      await assertAccessible(page, 'reset password page');
      await page.getByLabel('New password', { exact: true }).fill('the password after a reset');
      await page.getByLabel('New password, again').fill('the password after a reset');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByRole('status').filter({ hasText: 'Your new password is set' }).waitFor();
      assert.equal(new URL(page.url()).hash, '', 'the secret leaves the address bar');
      assert.equal((await signInAs(NEW_PASSWORD)).status, 401);
      assert.equal((await signInAs('the password after a reset')).status, 200);
      // Used once: the same link, opened again (a fresh load: only its fragment differs from this page), says so.
      await page.goto('about:blank');
      await page.goto(link);
      await page.getByLabel('New password', { exact: true }).fill('yet another password');
      await page.getByLabel('New password, again').fill('yet another password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByRole('alert').filter({ hasText: 'used already' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
