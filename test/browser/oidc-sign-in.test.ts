// Single sign-on in real Chromium against the built server as a process and a real OpenID Connect
// provider (oidc-provider) on 127.0.0.1: "Sign in with SSO" leads to the provider's login page, and
// logging in there brings the person back to the page they left, signed in (the header names them);
// an email the provider has not verified comes back as an error in the dialog (role="alert").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startProvider, type TestProvider } from '../support/oidc-provider.js';
import type { ServerProcess } from '../support/process.js';
import { assertAccessible, firstPerson, openPage, screenshot, serverEnv, startServerAndChromium, WIDTHS } from './browser.js';

const EMAIL = 'ada@example.com';

describe('single sign-on in Chromium', { timeout: 300_000 }, () => {
  let dir: string;
  let provider: TestProvider;
  let server: ServerProcess;
  let browser: Browser;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-browser-sso-'));
    const { env, origin } = await serverEnv(dir);
    provider = await startProvider([`${origin}/auth/oidc/callback`]);
    provider.accounts.set('ada', { email: 'Ada@Example.com', email_verified: true, name: 'Ada at the provider' });
    provider.accounts.set('mallory', { email: EMAIL, email_verified: false });
    Object.assign(env, provider.env);
    const accept = await firstPerson(env, EMAIL, 'acme');
    ({ server, browser } = await startServerAndChromium(env));
    await accept(server.origin, 'a long enough password', 'Ada');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs in at the provider and comes back to the page it left, signed in', async () => {
    const { context, page } = await openPage(browser, server.origin, WIDTHS[1]);
    try {
      await page.goto(`${server.origin}/app/overview`);
      await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      await dialog.getByRole('button', { name: 'Sign in with SSO' }).click();
      await page.getByRole('heading', { name: 'Test provider' }).waitFor();
      assert.equal(new URL(page.url()).origin, provider.issuer);
      await page.getByLabel('Account').fill('ada');
      await page.getByRole('button', { name: 'Log in' }).click();
      const banner = page.getByRole('banner');
      await banner.getByText('Signed in as').waitFor();
      assert.match((await banner.textContent()) ?? '', /Signed in as Ada in acme \(owner\)/);
      assert.equal(new URL(page.url()).href, `${server.origin}/app/overview`, 'back on the page it left');
      const cookies = await context.cookies(server.origin);
      assert.ok(cookies.find((c) => c.name === 'brief_session')?.httpOnly, 'the session cookie a password opens');
      assert.equal(
        cookies.find((c) => c.name === 'brief_oidc'),
        undefined,
        'the pending sign-in cookie is gone',
      );
      assert.equal(await page.evaluate(() => localStorage.getItem('brief.token')), null, 'no token kept for a person');
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('says in the dialog why a sign-in was refused (an unverified email)', async () => {
    const { context, page } = await openPage(browser, server.origin, WIDTHS[0]);
    try {
      await page.goto(`${server.origin}/`);
      await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign in with SSO' }).click();
      await page.getByLabel('Account').fill('mallory');
      await page.getByRole('button', { name: 'Log in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      const alert = dialog.getByRole('alert');
      await alert.waitFor();
      assert.match((await alert.textContent()) ?? '', /did not confirm a verified email address/);
      assert.equal(new URL(page.url()).search, '', 'the error code leaves the address bar');
      await assertAccessible(page, 'sign-in dialog with SSO and its error');
      await screenshot(page, 'sign-in-sso-error-phone');
    } finally {
      await context.close();
    }
  });
});
