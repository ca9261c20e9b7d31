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
import { freePort, runCli, type ServerProcess, startServer } from '../support/process.js';
import { assertAccessible, launchChromium, openPage, screenshot, WIDTHS } from './browser.js';

const EMAIL = 'ada@example.com';

describe('single sign-on in Chromium', { timeout: 300_000 }, () => {
  let dir: string;
  let provider: TestProvider;
  let server: ServerProcess;
  let browser: Browser;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-browser-sso-'));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    provider = await startProvider([`${origin}/auth/oidc/callback`]);
    provider.accounts.set('ada', { email: 'Ada@Example.com', email_verified: true, name: 'Ada at the provider' });
    provider.accounts.set('mallory', { email: EMAIL, email_verified: false });
    const env = {
      DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: origin,
      LOG_LEVEL: 'warn',
      ...provider.env,
    };
    const invited = await runCli(env, 'user', 'create', EMAIL, '--workspace', 'acme');
    assert.equal(invited.code, 0, invited.stderr);
    const link = invited.stdout.trim().split('\n').at(-1)!;
    const started = await Promise.allSettled([startServer(env).then((s) => (server = s)), launchChromium().then((b) => (browser = b))]);
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
    const accepted = await fetch(`${server.origin}/auth/invitation/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.origin },
      body: JSON.stringify({ token: link.slice(link.indexOf('#') + 1), password: 'a long enough password', displayName: 'Ada' }),
    });
    assert.equal(accepted.status, 200, await accepted.text());
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
