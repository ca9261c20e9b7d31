// Settings → Members and Domains, and the header's workspace switcher, in real Chromium against the built
// server as a process: an owner invites (the one-time link shown with Copy), a second browser context opens
// the link and joins, the owner sees the new member, changes the role (the member's header says so) and
// removes them (their session ends); the Domains page adds a domain, shows its DNS TXT record, says in an
// alert why Verify failed, verifies once the record is published (the tests' own DNS server), sets a
// redirect and removes the domain; the switcher moves the session to the other workspace; axe finds no
// serious violation on either section, at a phone's and a desktop's width.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { runCli, type ServerProcess } from '../support/process.js';
import { assertAccessible, firstPerson, openPage, screenshot, serverEnv, signInWithDialog, startServerAndChromium, WIDTHS } from './browser.js';

const OWNER = 'olive@example.com';
const PASSWORD = 'a long enough password';

describe('web app in Chromium: members, domains and the workspace switcher', { timeout: 300_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-browser-members-'));
  let origin: string;
  let server: ServerProcess;
  let browser: Browser;
  let dns: TestDnsServer;

  before(async () => {
    dns = await startDnsServer();
    const made = await serverEnv(dir, { DNS_SERVERS: dns.address });
    origin = made.origin;
    const env = made.env;
    const accept = await firstPerson(env, OWNER, 'acme');
    ({ server, browser } = await startServerAndChromium(env));
    await accept(origin, PASSWORD, 'Olive');
    // The same person, already a user, joins a second workspace from the CLI.
    const second = await runCli(env, 'user', 'create', OWNER, '--workspace', 'beta', '--role', 'admin');
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /added existing user/);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await dns?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    const dialog = await signInWithDialog(page, origin, email, password);
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('banner').getByText('Signed in as').waitFor();
  }

  async function settings(page: Page): Promise<void> {
    await page.getByRole('banner').getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Members' }).waitFor();
  }

  it('invites, lets a second browser join, changes the role and removes the member', async () => {
    const { page } = await openPage(browser, origin, WIDTHS[1]);
    await signIn(page, OWNER, PASSWORD);
    assert.match((await page.getByRole('banner').textContent())!, /Signed in as Olive in acme \(owner\)/);
    await settings(page);
    const members = page.getByRole('region', { name: 'Members' });
    await members.locator('tbody tr').filter({ hasText: OWNER }).waitFor();

    // A bad email: the server's word, in an alert.
    await members.getByRole('button', { name: 'Invite' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite someone' });
    await dialog.getByLabel('Email').fill('not an email');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'must be an email address' }).waitFor();
    await assertAccessible(page, 'the Invite dialog with an error');

    await dialog.getByLabel('Email').fill('grace@example.com');
    await dialog.getByLabel('Role').selectOption('viewer');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    const made = page.getByRole('dialog', { name: 'Invitation made' });
    const link = await made.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    assert.match(link, new RegExp(`^${origin}/app/invitation#brf_`));
    await made.getByRole('button', { name: 'Copy' }).click();
    await made.getByText('Copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    await assertAccessible(page, 'the invitation link, shown once');
    await screenshot(page, 'members-invited');
    await made.getByRole('button', { name: 'Done' }).click();

    // A second browser (another person) opens the link and joins.
    const guest = await openPage(browser, origin, WIDTHS[0]);
    await guest.page.goto(link);
    await guest.page.getByLabel('Name (optional)').fill('Grace');
    await guest.page.getByLabel('Password').fill('graces long password');
    await guest.page.getByRole('button', { name: 'Join', exact: true }).click();
    const guestBanner = guest.page.getByRole('banner');
    await guestBanner.getByText('Signed in as').waitFor();
    assert.match((await guestBanner.textContent())!, /Signed in as Grace in acme \(viewer\)/);
    // A viewer sees the members but no control to change them.
    await settings(guest.page);
    const theirView = guest.page.getByRole('region', { name: 'Members' });
    await theirView.locator('tbody tr').filter({ hasText: OWNER }).waitFor();
    assert.equal(await theirView.getByRole('button', { name: 'Invite' }).count(), 0);
    assert.equal(await theirView.getByRole('combobox').count(), 0);
    assert.equal(await guest.page.getByRole('region', { name: 'Domains' }).getByRole('button', { name: 'Add domain' }).count(), 0);
    await assertAccessible(guest.page, 'Members as a viewer, on a phone');

    // The owner sees Grace, and makes her an admin.
    await page.reload();
    const row = members.locator('tbody tr').filter({ hasText: 'grace@example.com' });
    await row.waitFor();
    assert.match((await row.textContent())!, /Grace/);
    await row.getByRole('combobox', { name: 'Role of grace@example.com' }).selectOption('admin');
    await page.getByRole('status').filter({ hasText: 'grace@example.com is now admin.' }).waitFor();
    await assertAccessible(page, 'the member list');
    await screenshot(page, 'members');
    await guest.page.reload();
    await guestBanner.getByText('(admin)').waitFor();

    // The owner cannot be demoted while they are the last one: the server's refusal in an alert.
    await members
      .locator('tbody tr')
      .filter({ hasText: OWNER })
      .getByRole('combobox', { name: `Role of ${OWNER}` })
      .selectOption('viewer');
    await members.getByRole('alert').filter({ hasText: 'last owner' }).waitFor();

    // Removed: her session ends at once.
    await row.getByRole('button', { name: 'Remove grace@example.com' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this member?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('status').filter({ hasText: 'Removed grace@example.com.' }).waitFor();
    await row.waitFor({ state: 'detached' });
    assert.equal((await guest.page.request.get(`${origin}/auth/me`)).status(), 401);
    await guest.page.close();

    // Invited back: she signs in already, so the link asks for her own password, not a new one.
    await members.getByRole('button', { name: 'Invite' }).click();
    await dialog.getByLabel('Email').fill('grace@example.com');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    const again = await made.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    await made.getByRole('button', { name: 'Done' }).click();
    const back = await openPage(browser, origin, WIDTHS[1]);
    await back.page.goto(again);
    await back.page.getByText('signs in to Brief already').waitFor();
    assert.equal(await back.page.getByLabel('Name (optional)').count(), 0);
    await back.page.getByLabel('Password').fill('not her password');
    await back.page.getByRole('button', { name: 'Join', exact: true }).click();
    await back.page.getByRole('alert').filter({ hasText: 'Wrong password' }).waitFor();
    await assertAccessible(back.page, 'the invitation page of someone who signs in already');
    await back.page.getByLabel('Password').fill('graces long password');
    await back.page.getByRole('button', { name: 'Join', exact: true }).click();
    await back.page.getByRole('banner').getByText('Signed in as').waitFor();
    assert.match((await back.page.getByRole('banner').textContent())!, /Signed in as Grace in acme \(member\)/);
    await back.page.close();
    await page.close();
  });

  it('adds a domain, shows its DNS record, verifies it, sets a redirect and removes it', async () => {
    const { page } = await openPage(browser, origin, WIDTHS[1]);
    await signIn(page, OWNER, PASSWORD);
    await settings(page);
    const domains = page.getByRole('region', { name: 'Domains' });
    await domains.getByText('No domains of this workspace yet.').waitFor();

    await domains.getByRole('button', { name: 'Add domain' }).click();
    const add = page.getByRole('dialog', { name: 'Add a domain' });
    await add.getByLabel('Domain').fill('not a domain!');
    await add.getByRole('button', { name: 'Add' }).click();
    await add.getByRole('alert').filter({ hasText: 'host name' }).waitFor();
    await add.getByLabel('Domain').fill('go.example.com');
    await add.getByRole('button', { name: 'Add' }).click();
    await add.waitFor({ state: 'hidden' });

    const item = domains.getByRole('listitem').filter({ hasText: 'go.example.com' });
    await item.getByText('Not verified yet').waitFor();
    const record = item.locator('.dns-record');
    assert.match((await record.textContent())!, /TXT/);
    assert.match((await record.textContent())!, /_brief-verify\.go\.example\.com/);
    const value = (await record.locator('code').nth(2).textContent())!;
    assert.match(value, /^brief-verify=[A-Za-z0-9_-]+$/);
    await assertAccessible(page, 'Domains with an unverified domain');
    await screenshot(page, 'domains');

    // Verify before the record exists: why, in an alert; then with it published, verified.
    await item.getByRole('button', { name: 'Verify go.example.com' }).click();
    await item.getByRole('alert').filter({ hasText: 'no TXT record' }).waitFor();
    dns.txt.set('_brief-verify.go.example.com', [[value]]);
    await item.getByRole('button', { name: 'Verify go.example.com' }).click();
    await item.getByText('Verified', { exact: true }).waitFor();
    assert.equal(await item.locator('.dns-record').count(), 0);

    await item.getByRole('button', { name: 'Redirects of go.example.com' }).click();
    const redirects = page.getByRole('dialog', { name: 'Redirects of go.example.com' });
    await redirects.getByLabel('Home page redirect').fill('ftp://example.com/');
    await redirects.getByRole('button', { name: 'Save' }).click();
    await redirects.getByRole('alert').waitFor();
    await redirects.getByLabel('Home page redirect').fill('https://example.com/welcome');
    await redirects.getByRole('button', { name: 'Save' }).click();
    await redirects.waitFor({ state: 'hidden' });
    await item.getByText('https://example.com/welcome').waitFor();

    await item.getByRole('button', { name: 'Remove go.example.com' }).click();
    await page.getByRole('dialog', { name: 'Remove this domain?' }).getByRole('button', { name: 'Remove' }).click();
    await domains.getByText('No domains of this workspace yet.').waitFor();
    await page.close();
  });

  it('switches the workspace from the header', async () => {
    const { page } = await openPage(browser, origin, WIDTHS[0]);
    await signIn(page, OWNER, PASSWORD);
    const banner = page.getByRole('banner');
    assert.match((await banner.textContent())!, /in acme \(owner\)/);
    await assertAccessible(page, 'the header with a workspace switcher, on a phone');
    await banner.getByRole('combobox', { name: 'Workspace' }).selectOption({ label: 'beta (admin)' });
    await banner.getByRole('button', { name: 'Switch' }).click();
    await banner.getByText('in beta (admin)').waitFor();
    // The session moved on the server: a reload stays in beta.
    await page.reload();
    await banner.getByText('Signed in as').waitFor();
    assert.match((await banner.textContent())!, /Signed in as Olive in beta \(admin\)/);
    await settings(page);
    await assertAccessible(page, 'Members and Domains, on a phone');
    await screenshot(page, 'settings-phone');
    await page.close();
  });
});
