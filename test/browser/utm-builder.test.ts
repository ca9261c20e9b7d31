// Issue 40's UTM builder in real Chromium: the shorten form's "UTM parameters" write source, medium and campaign into
// the URL (the preview and the created link's destination carry them), follow the URL typed by hand and wait while
// it cannot be read; the edit form starts them filled from the link's URL, and a change or a cleared field is saved.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { hostRequest } from '../support/process.js';
import { assertAccessible, openPage, screenshot, suiteWithToken, WIDTHS } from './browser.js';

describe('the UTM builder in the shorten and edit forms (Chromium)', { timeout: 240_000 }, () => {
  const suite = suiteWithToken('brief-browser-utm-', 'marketing');

  const auth = () => ({ authorization: `Bearer ${suite.value}` });
  const stored = async (shortUrl: string) => {
    const { host, pathname } = new URL(shortUrl);
    const answer = await fetch(`${suite.server.origin}/v3/shorten/${encodeURIComponent(host)}${pathname}`, { headers: auth() });
    assert.equal(answer.status, 200);
    return ((await answer.json()) as { originalUrl: string }).originalUrl;
  };
  const signedIn = async (size: (typeof WIDTHS)[number]) => {
    const opened = await openPage(suite.browser, suite.server.origin, size);
    await opened.page.addInitScript((t) => localStorage.setItem('brief.token', t), suite.value);
    return opened;
  };
  const isOpen = (page: Page) => page.locator('details.utm').evaluate((details) => (details as HTMLDetailsElement).open);

  for (const size of WIDTHS) {
    it(`builds the URL from source, medium and campaign in the shorten form, and the link goes there (${size.width} px)`, async () => {
      const { context, page } = await signedIn(size);
      try {
        await page.goto(`${suite.server.origin}/`);
        const url = page.getByLabel('URL to shorten');
        await url.waitFor();
        assert.equal(await isOpen(page), false, 'closed at first');
        assert.equal(await page.getByLabel('Source', { exact: true }).isVisible(), false);

        // Opened from the keyboard; with no URL yet the fields wait for one.
        await page.locator('details.utm > summary').focus();
        await page.keyboard.press('Enter');
        const source = page.getByLabel('Source', { exact: true });
        const medium = page.getByLabel('Medium', { exact: true });
        const campaign = page.getByLabel('Campaign', { exact: true });
        await source.waitFor();
        assert.ok(await source.isDisabled());
        await page.getByText('Type the URL first').waitFor();

        // A URL that cannot be read: its utm_source is shown, the fields stay disabled, no preview, the URL as typed.
        await url.fill('https://[oops/?utm_source=held');
        assert.equal(await source.inputValue(), 'held');
        assert.ok(await source.isDisabled());
        await page.getByText('cannot be read as a web address').waitFor();
        assert.equal(await page.locator('#shorten-utm-final').count(), 0);
        assert.equal(await url.inputValue(), 'https://[oops/?utm_source=held');

        // Typed by hand without a scheme, with another parameter, a fragment and a key in capitals: read back.
        await url.fill('example.com/landing?ref=home&UTM_Source=old#plans');
        assert.equal(await source.inputValue(), 'old');
        assert.ok(await source.isEnabled());
        assert.equal(await page.locator('#shorten-utm-final').textContent(), 'https://example.com/landing?ref=home&UTM_Source=old#plans');

        await source.fill('newsletter');
        await medium.fill('email');
        await campaign.pressSequentially('spring sale & more');
        const built = 'example.com/landing?ref=home&utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale%20%26%20more#plans';
        assert.equal(await url.inputValue(), built, 'each written into the URL, the rest of it kept');
        const preview = `https://${built}`;
        assert.equal(await page.locator('#shorten-utm-final').textContent(), preview, 'the preview: what the link will go to');
        assert.equal(await campaign.inputValue(), 'spring sale & more');
        await assertAccessible(page, 'home, UTM parameters filled');
        await screenshot(page, `utm-shorten-${size.name}`);

        await page.getByRole('button', { name: 'Shorten', exact: true }).click();
        await page.getByRole('heading', { name: 'Your short link' }).waitFor();
        const shortUrl = (await page.locator('.short-url a').textContent())!;
        assert.equal(await stored(shortUrl), preview, 'the link’s destination is the preview');
        const { host, pathname } = new URL(shortUrl);
        const redirect = await hostRequest(suite.server.port, host, pathname);
        assert.equal(redirect.headers.location, preview);
      } finally {
        await context.close();
      }
    });
  }

  it('starts the edit form’s fields from the link’s URL; a changed field and a cleared one are saved', async () => {
    const original = 'https://example.com/offer?id=7&utm_source=news&utm_medium=email&utm_campaign=launch#top';
    const made = await fetch(`${suite.server.origin}/v3/shorten?url=${encodeURIComponent(original)}`, { headers: auth() });
    assert.equal(made.status, 200);
    const { shortened: shortUrl } = (await made.json()) as { shortened: string };
    assert.equal(await stored(shortUrl), original);

    const { context, page } = await signedIn(WIDTHS[1]);
    try {
      await page.goto(`${suite.server.origin}/app/links`);
      await page.getByRole('button', { name: `Edit ${shortUrl}` }).click();
      const edit = page.getByRole('dialog', { name: 'Edit link' });
      const destination = edit.getByLabel('Destination', { exact: true });
      await destination.waitFor();
      assert.equal(await isOpen(page), true, 'open: the URL has UTM parameters');
      assert.deepEqual(
        await Promise.all(['Source', 'Medium', 'Campaign', 'Term', 'Content'].map((label) => edit.getByLabel(label, { exact: true }).inputValue())),
        ['news', 'email', 'launch', '', ''],
      );

      await edit.getByLabel('Campaign', { exact: true }).fill('relaunch 2');
      await edit.getByLabel('Medium', { exact: true }).fill('');
      const saved = 'https://example.com/offer?id=7&utm_source=news&utm_campaign=relaunch%202#top';
      assert.equal(await destination.inputValue(), saved);
      assert.equal(await page.locator('#edit-utm-final').textContent(), saved);
      await assertAccessible(page, 'edit dialog, UTM parameters');
      await screenshot(page, 'utm-edit-desktop');
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByText(`Saved ${shortUrl}.`).waitFor();
      assert.equal(await stored(shortUrl), saved);

      // Opened again: the fields read the saved URL; the medium, cleared, stays gone.
      await page.getByRole('button', { name: `Edit ${shortUrl}` }).click();
      await edit.getByLabel('Campaign', { exact: true }).waitFor();
      assert.equal(await edit.getByLabel('Campaign', { exact: true }).inputValue(), 'relaunch 2');
      assert.equal(await edit.getByLabel('Medium', { exact: true }).inputValue(), '');
    } finally {
      await context.close();
    }
  });
});
