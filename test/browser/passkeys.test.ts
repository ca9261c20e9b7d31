// Passkeys in real Chromium (decision 0030), with the DevTools protocol's virtual authenticator (the
// WebAuthn domain: ctap2, internal, resident keys, user verification): sign in with a password, add a
// passkey in Settings → Passkeys, sign out, sign in with the passkey alone; remove it, and the same
// authenticator's passkey is then refused in an element with the alert role; an invited person joins
// with a passkey instead of a password. axe on the changed pages.
// BASE_URL is http://localhost:PORT: WebAuthn wants a domain for its RP ID (never an IP address), and
// localhost is a secure context over plain http.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ServerProcess } from '../support/process.js';
import { assertAccessible, firstPerson, openPage, screenshot, serverEnv, signInOver, startServerAndChromium, WIDTHS } from './browser.js';

const EMAIL = 'ada@example.com';
const PASSWORD = 'a long enough password';

describe('passkeys in Chromium', { timeout: 300_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-browser-passkeys-'));
  let origin: string;
  let server: ServerProcess;
  let browser: Browser;

  before(async () => {
    const made = await serverEnv(dir, {}, 'localhost');
    origin = made.origin;
    const accept = await firstPerson(made.env, EMAIL, 'acme');
    ({ server, browser } = await startServerAndChromium(made.env));
    await accept(server.origin, PASSWORD, 'Ada', origin);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const banner = (page: Page) => page.getByRole('banner');

  /** A platform authenticator that holds discoverable credentials and verifies its user, answering at once. */
  async function virtualAuthenticator(context: BrowserContext, page: Page) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { cdp, authenticatorId };
  }

  async function signOut(page: Page) {
    await banner(page).getByRole('button', { name: 'Sign out' }).click();
    await banner(page).getByRole('button', { name: 'Sign in' }).waitFor();
  }

  it('adds a passkey in Settings, then signs in with it alone; a removed passkey is refused', async () => {
    const { context, page } = await openPage(browser, origin, WIDTHS[1]);
    try {
      const { cdp, authenticatorId } = await virtualAuthenticator(context, page);

      await page.goto(`${origin}/`);
      await banner(page).getByRole('button', { name: 'Sign in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      await dialog.getByLabel('Email').fill(EMAIL);
      await dialog.getByLabel('Password').fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      await banner(page).getByText('Signed in as').waitFor();

      await banner(page).getByRole('link', { name: 'Settings' }).click();
      const section = page.getByRole('region', { name: 'Passkeys' });
      await section.getByText('No passkeys yet.').waitFor();
      await section.getByLabel('Name (optional)').fill('This laptop');
      await section.getByRole('button', { name: 'Add a passkey' }).click();
      await section.getByRole('status').filter({ hasText: 'Added the passkey “This laptop”.' }).waitFor();
      const row = section.getByRole('row').filter({ hasText: 'This laptop' });
      await row.waitFor();
      assert.match((await row.textContent())!, /Never/);
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      assert.equal(credentials.length, 1);
      assert.equal(credentials[0]!.isResidentCredential, true, 'a discoverable credential');
      assert.equal(credentials[0]!.rpId, 'localhost');
      await assertAccessible(page, 'Settings with a passkey');
      await screenshot(page, 'settings-passkeys');

      // Signed out, the passkey alone signs in: no email typed.
      await signOut(page);
      await banner(page).getByRole('button', { name: 'Sign in' }).click();
      await assertAccessible(page, 'the sign-in dialog with its passkey button');
      await screenshot(page, 'sign-in-passkey');
      await dialog.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await banner(page).getByText('Signed in as').waitFor();
      assert.match((await banner(page).textContent()) ?? '', /Signed in as Ada in acme \(owner\)/);
      const session = (await context.cookies()).find((c) => c.name === 'brief_session');
      assert.ok(session?.httpOnly, 'the same HttpOnly session cookie as a password sign-in');
      assert.equal(await page.evaluate(() => localStorage.getItem('brief.token')), null, 'no token kept');

      // The sign-in shows in Settings; then the passkey is removed there (after a confirmation).
      await page.goto(`${origin}/app/settings`);
      await row.waitFor();
      assert.doesNotMatch((await row.textContent())!, /Never/);
      await row.getByRole('button', { name: 'Remove This laptop' }).click();
      const confirm = page.getByRole('dialog', { name: 'Remove this passkey?' });
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await section.getByText('No passkeys yet.').waitFor();

      // The authenticator still holds it, but the server no longer knows it: one answer, in an alert.
      await signOut(page);
      await banner(page).getByRole('button', { name: 'Sign in' }).click();
      await dialog.getByRole('button', { name: 'Sign in with a passkey' }).click();
      const alert = dialog.getByRole('alert');
      await alert.waitFor();
      assert.match((await alert.textContent())!, /The passkey was not accepted/);
      await assertAccessible(page, 'the sign-in dialog after a refused passkey');
      await banner(page).getByRole('button', { name: 'Sign in' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('shows Settings → Passkeys on a phone without a serious axe violation', async () => {
    const { context, page } = await openPage(browser, origin, WIDTHS[0]);
    try {
      const signedIn = await page.request.post(`${origin}/auth/sign-in`, {
        headers: { origin },
        data: { email: EMAIL, password: PASSWORD },
      });
      assert.equal(signedIn.status(), 200);
      await page.goto(`${origin}/app/settings`);
      await page.getByRole('region', { name: 'Passkeys' }).getByRole('button', { name: 'Add a passkey' }).waitFor();
      await assertAccessible(page, 'Settings → Passkeys on a phone');
      await screenshot(page, 'settings-passkeys-phone');
    } finally {
      await context.close();
    }
  });

  it('lets an invited person join with a passkey instead of a password, then sign in with it', async () => {
    const cookie = (await signInOver(server.origin, EMAIL, PASSWORD, origin)).cookie!;
    const made = await fetch(`${server.origin}/auth/invitations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, cookie },
      body: JSON.stringify({ email: 'grace@example.com', role: 'member' }),
    });
    assert.equal(made.status, 200);
    const { link } = (await made.json()) as { link: string };
    const { context, page } = await openPage(browser, origin, WIDTHS[0]);
    try {
      const { cdp, authenticatorId } = await virtualAuthenticator(context, page);
      await page.goto(link);
      await page.getByText('Join acme as member').waitFor();
      await assertAccessible(page, 'the invitation page with its passkey choice');
      await page.getByLabel('Name (optional)').fill('Grace');
      await page.getByRole('button', { name: 'Join with a passkey instead' }).click();
      await banner(page).getByText('Signed in as').waitFor();
      assert.match((await banner(page).textContent()) ?? '', /Signed in as Grace in acme \(member\)/);
      assert.equal((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length, 1);

      await signOut(page);
      await banner(page).getByRole('button', { name: 'Sign in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      await dialog.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.match((await banner(page).textContent()) ?? '', /Signed in as Grace in acme \(member\)/);
    } finally {
      await context.close();
    }
  });
});
