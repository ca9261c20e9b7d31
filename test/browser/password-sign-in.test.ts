// Password sign-in in real Chromium against the built server as a process: a wrong password is
// announced (role="alert") and keeps nobody signed in; the right one signs in with the session cookie
// (no token kept in the browser), the header says who and in which workspace, the app's own API calls
// work with the cookie, a reload stays signed in, and Sign out ends the session on the server. An
// invitation's link, opened in a second browser context, sets a password and signs its person in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertAccessible, openPage, screenshot, signInOver, signInWithDialog, suiteWithFirstPerson, WIDTHS } from './browser.js';

const EMAIL = 'ada@example.com';
const PASSWORD = 'a long enough password';

describe('password sign-in in Chromium', { timeout: 300_000 }, () => {
  const suite = suiteWithFirstPerson('brief-browser-people-', EMAIL, PASSWORD);

  it('signs in with an email and password, uses the cookie, and signs out on the server', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.origin, WIDTHS[1]);
    try {
      const dialog = await signInWithDialog(page, suite.server.origin, EMAIL, 'not the password');
      const alert = dialog.getByRole('alert');
      await alert.waitFor();
      assert.equal(await alert.textContent(), 'Wrong email or password');
      await assertAccessible(page, 'password sign-in dialog');
      await screenshot(page, 'sign-in-password');

      await dialog.getByLabel('Password').fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      const banner = page.getByRole('banner');
      await banner.getByText('Signed in as').waitFor();
      assert.match((await banner.textContent()) ?? '', /Signed in as Ada in acme \(owner\)/);
      assert.equal(await page.evaluate(() => localStorage.getItem('brief.token')), null, 'no token kept for a person');
      const cookies = await context.cookies();
      const session = cookies.find((c) => c.name === 'brief_session');
      assert.ok(session?.httpOnly, 'an HttpOnly session cookie');
      assert.equal(session?.sameSite, 'Lax');
      assert.equal(await page.evaluate(() => document.cookie), '', 'no script reads the cookie');

      // The app's own calls, with the cookie: a link made and listed.
      await page.getByLabel('URL to shorten').fill('https://example.com/by-ada');
      await page.getByRole('button', { name: 'Shorten', exact: true }).click();
      await page.getByRole('heading', { name: 'Your short link' }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My links' }).click();
      await page.getByRole('row').filter({ hasText: 'example.com/by-ada' }).waitFor();
      await assertAccessible(page, 'my links, signed in with a password');

      // A reload asks the server who is signed in.
      await page.reload();
      await page.getByRole('banner').getByText('Signed in as').waitFor();

      await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
      const ended = await fetch(`${suite.server.origin}/auth/me`, { headers: { cookie: `brief_session=${session!.value}` } });
      assert.equal(ended.status, 401, 'the session ended on the server');
    } finally {
      await context.close();
    }
  });

  it('lets an invited person join from the link in another browser context', async () => {
    const owner = await signInOver(suite.server.origin, EMAIL, PASSWORD);
    const cookie = owner.cookie!;
    const made = await fetch(`${suite.server.origin}/auth/invitations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: suite.server.origin, cookie },
      body: JSON.stringify({ email: 'grace@example.com', role: 'member' }),
    });
    assert.equal(made.status, 200);
    const { link } = (await made.json()) as { link: string };
    const { context, page } = await openPage(suite.browser, suite.server.origin, WIDTHS[0]);
    try {
      await page.goto(link);
      await page.getByText('Join acme as member').waitFor();
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Join', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'at least 10 characters' }).waitFor();
      await assertAccessible(page, 'invitation page');
      await screenshot(page, 'invitation-phone');
      await page.getByLabel('Name (optional)').fill('Grace');
      await page.getByLabel('Password').fill('graces long password');
      await page.getByRole('button', { name: 'Join', exact: true }).click();
      await page.getByRole('banner').getByText('Signed in as').waitFor();
      assert.match((await page.getByRole('banner').textContent()) ?? '', /Signed in as Grace in acme \(member\)/);
      assert.equal(new URL(page.url()).hash, '', 'the secret leaves the address bar');
      // Used once: the same link now says so.
      await page.goto(link);
      await page.getByRole('alert').filter({ hasText: 'used already' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
