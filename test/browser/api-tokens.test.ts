// Settings → API tokens in real Chromium (decision 0029): the list, New token (Name, scopes as
// checkboxes, an optional expiry; Create; the token shown once with Copy), Revoke, errors in an
// element with the alert role, and no serious axe violation at a phone's and a desktop's width.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { runCli, type ServerProcess } from '../support/process.js';
import { assertAccessible, openPage, screenshot, serverEnv, startServerAndChromium, WIDTHS } from './browser.js';

describe('web app in Chromium: API tokens', { timeout: 300_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-browser-tokens-'));
  let env: Record<string, string>;
  let origin: string;
  let server: ServerProcess;
  let browser: Browser;
  let token: string;

  const cliToken = async (...args: string[]) => {
    const created = await runCli(env, 'token', 'create', 'settings', ...args);
    assert.equal(created.code, 0, created.stderr);
    return created.stdout.trim().split('\n').at(-1)!.trim();
  };
  const apiStatus = async (secret: string, url: string) =>
    (await fetch(`${origin}${url}`, { headers: { authorization: `Bearer ${secret}` } })).status;

  before(async () => {
    ({ env, origin } = await serverEnv(dir));
    assert.equal((await runCli(env, 'account', 'create', 'settings')).code, 0);
    token = await cliToken('--label', 'browser test');
    ({ server, browser } = await startServerAndChromium(env));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function settings(page: Page, secret: string): Promise<void> {
    await page.goto(`${origin}/`);
    await page.evaluate((t) => localStorage.setItem('brief.token', t), secret);
    await page.goto(`${origin}/app/settings`);
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  }

  it('creates a token with chosen scopes, shows it once with Copy, and revokes it', async () => {
    const { page } = await openPage(browser, origin, WIDTHS[1]);
    await settings(page, token);
    // Signed in with a token, the header names it and its workspace (a person's session names the person).
    await page.getByRole('banner').getByText('Signed in with the token browser test in settings as owner').waitFor();
    const rows = page.locator('table.tokens tbody tr');
    await rows.filter({ hasText: 'browser test' }).waitFor();
    // Its role and maker (the CLI's: the operator), and every scope.
    assert.match((await rows.filter({ hasText: 'browser test' }).textContent())!, /owner.*Operator \(CLI\).*All/);

    // Bad input: no name, then an expiry in the past (the server's answer), each said in an alert.
    await page.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New token' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    assert.match((await dialog.getByRole('alert').textContent())!, /Enter a name/);
    await dialog.getByLabel('Name').fill('ci deploy');
    await dialog.getByLabel('Expires (optional)').fill('2020-01-01');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'in the future' }).waitFor();
    await assertAccessible(page, 'the New token dialog with an error');
    await screenshot(page, 'api-tokens-new');

    const nextYear = `${new Date().getFullYear() + 1}-06-30`;
    await dialog.getByLabel('Expires (optional)').fill(nextYear);
    await dialog.getByRole('checkbox', { name: /analytics:read/ }).uncheck();
    await dialog.getByRole('checkbox', { name: /domains:write/ }).uncheck();
    await dialog.getByRole('button', { name: 'Create' }).click();

    const shown = page.getByRole('dialog', { name: 'Token created' });
    const secret = await shown.getByRole('textbox').inputValue();
    assert.match(secret, /^brf_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByText('Copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await assertAccessible(page, 'the token, shown once');
    await screenshot(page, 'api-tokens-created');
    await shown.getByRole('button', { name: 'Done' }).click();

    const row = rows.filter({ hasText: 'ci deploy' });
    await row.waitFor();
    const text = (await row.textContent())!;
    assert.match(text, /links:read, links:write/);
    assert.match(text, /Never/, 'not used yet');
    assert.match(text, new RegExp(`${new Date().getFullYear() + 1}`), 'its expiry');
    assert.ok(!(await page.content()).includes(secret), 'the secret is not on the page once its dialog is closed');
    assert.equal(await apiStatus(secret, '/v3/shorten/list'), 200);
    assert.equal(await apiStatus(secret, '/v3/shorten/analytics/clicks'), 403);
    await assertAccessible(page, 'the token list');
    await screenshot(page, 'api-tokens');

    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this token?' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('status').filter({ hasText: 'Revoked “ci deploy”' }).waitFor();
    await row.waitFor({ state: 'detached' });
    assert.equal(await apiStatus(secret, '/v3/shorten/list'), 401);
    await page.close();
  });

  it('says, in an alert, that a token without every scope cannot manage tokens', async () => {
    const narrow = await cliToken('--scope', 'links:read', '--scope', 'links:write');
    const { page } = await openPage(browser, origin, WIDTHS[0]);
    await settings(page, narrow);
    const alert = page.getByRole('alert').filter({ hasText: 'every scope' });
    await alert.waitFor();
    assert.match((await alert.textContent())!, /every scope.*lacks the scopes analytics:read, domains:write, members:read, webhooks:write/);
    // Without members:read the Members list, which names people's emails, says so too (issue 37).
    await page.getByRole('alert').filter({ hasText: 'the scope members:read' }).waitFor();
    await assertAccessible(page, 'Settings with a narrow token, on a phone');
    await page.close();
  });

  it("offers a token's own role, not the owner's, in Members (issue 37: a token acts with at most its maker's role)", async () => {
    const inviteRoles = async (secret: string) => {
      const { page } = await openPage(browser, origin, WIDTHS[1]);
      await settings(page, secret);
      await page.getByRole('button', { name: 'Invite' }).click();
      const options = await page.getByRole('dialog', { name: 'Invite someone' }).getByLabel('Role').locator('option').allTextContents();
      await page.close();
      return options.map((label) => label.split(':')[0]);
    };
    assert.deepEqual(await inviteRoles(await cliToken('--role', 'admin')), ['Admin', 'Member', 'Viewer']);
    assert.deepEqual(await inviteRoles(token), ['Owner', 'Admin', 'Member', 'Viewer']);
  });

  it('lays the list and the New token dialog out on a phone without an axe violation', async () => {
    const { page } = await openPage(browser, origin, WIDTHS[0]);
    await settings(page, token);
    await page.locator('table.tokens tbody tr').first().waitFor();
    await assertAccessible(page, 'the token list on a phone');
    await page.getByRole('button', { name: 'New token' }).click();
    await page.getByRole('dialog', { name: 'New token' }).getByLabel('Name').waitFor();
    await assertAccessible(page, 'the New token dialog on a phone');
    await screenshot(page, 'api-tokens-phone');
    await page.close();
  });
});
