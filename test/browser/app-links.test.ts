// Settings → Domains → App links in real Chromium against the built server (issue 40, decision 0042): a domain's card
// says which of its two files are set; Upload opens a box for the file's text, the server's 422 shows at the box,
// a good file is saved and the domain serves it byte for byte; Replace shows the file as it is; Remove asks first.
// No serious axe violation in the dialog.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { hostRequest, runCli } from '../support/process.js';
import { assertAccessible, openPage, screenshot, signInWithDialog, suiteWithFirstPerson, WIDTHS } from './browser.js';

const EMAIL = 'ada@example.com';
const PASSWORD = 'a long enough password';
const DOMAIN = 'apps.example';
const ANDROID_FILE =
  '[\n  {"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app"}}\n]';

describe('web app in Chromium: app links on the Domains page', { timeout: 300_000 }, () => {
  const suite = suiteWithFirstPerson('brief-browser-app-links-', EMAIL, PASSWORD);

  before(async () => {
    const added = await runCli(suite.env, 'domain', 'add', DOMAIN, '--account', 'acme');
    assert.equal(added.code, 0, added.stderr);
  });

  async function domainsSection(page: Page) {
    const dialog = await signInWithDialog(page, suite.server.origin, EMAIL, PASSWORD);
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('banner').getByRole('link', { name: 'Settings' }).click();
    return page.getByRole('region', { name: 'Domains' });
  }

  it('uploads a file (the server’s 422 at the box first), shows it set, replaces it as it is, and removes it', async () => {
    const { page } = await openPage(suite.browser, suite.server.origin, WIDTHS[1]);
    const domains = await domainsSection(page);
    const item = domains.getByRole('listitem').filter({ hasText: DOMAIN }).first();
    const line = item.locator('[data-file="assetlinks.json"]');
    await line.getByText('Not set').waitFor();
    assert.equal(await item.locator('[data-file="apple-app-site-association"]').getByText('Not set').count(), 1);

    await item.getByRole('button', { name: `Upload assetlinks.json of ${DOMAIN}` }).click();
    const upload = page.getByRole('dialog', { name: `assetlinks.json of ${DOMAIN}` });
    const box = upload.getByRole('textbox', { name: 'assetlinks.json' });
    await box.fill('{"not": "a list"}');
    await upload.getByRole('button', { name: 'Upload' }).click();
    await upload.locator('.field.invalid .error').filter({ hasText: 'must be a JSON array' }).waitFor();
    assert.equal(await box.getAttribute('aria-invalid'), 'true');
    await screenshot(page, 'app-link-dialog');
    await assertAccessible(page, 'the app link dialog with the server’s error');

    await box.fill(ANDROID_FILE);
    await upload.getByRole('button', { name: 'Upload' }).click();
    await upload.waitFor({ state: 'hidden' });
    await line.getByText(`Set, ${Buffer.byteLength(ANDROID_FILE)} bytes`).waitFor();
    await screenshot(page, 'domains-app-links');
    const served = await hostRequest(suite.server.port, DOMAIN, '/.well-known/assetlinks.json');
    assert.equal(served.status, 200);
    assert.equal(served.body, ANDROID_FILE);

    await line.getByRole('button', { name: `Replace assetlinks.json of ${DOMAIN}` }).click();
    const replace = page.getByRole('dialog', { name: `assetlinks.json of ${DOMAIN}` });
    const current = replace.getByRole('textbox', { name: 'assetlinks.json' });
    await page.waitForFunction(() => !(document.querySelector('textarea.app-link-text') as HTMLTextAreaElement | null)?.disabled);
    assert.equal(await current.inputValue(), ANDROID_FILE);
    await replace.getByRole('button', { name: 'Cancel' }).click();

    await line.getByRole('button', { name: `Remove assetlinks.json of ${DOMAIN}` }).click();
    await page.getByRole('dialog', { name: 'Remove assetlinks.json?' }).getByRole('button', { name: 'Remove' }).click();
    await line.getByText('Not set').waitFor();
    assert.equal((await hostRequest(suite.server.port, DOMAIN, '/.well-known/assetlinks.json')).status, 404);
    await page.close();
  });
});
