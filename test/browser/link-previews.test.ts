// Issue 40's card for chat apps in real Chromium (decision 0041): the edit form's card fields draw the card as they are
// typed (image place, domain, title, description), the server's 422 for an http image shows at its field, the card saved
// with one PATCH is on the link's page and is what a preview fetcher gets from the built server; emptied, it is gone.
// Axe clean at both widths.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, openPage, screenshot, suiteWithToken, WIDTHS } from './browser.js';

const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

describe('a link’s card for chat apps (Chromium)', { timeout: 180_000 }, () => {
  const suite = suiteWithToken('brief-browser-previews-', 'carder');

  it('sets a card in the edit form with a live preview, shows it on the link’s page, and removes it', async () => {
    const { server, browser, value: token } = suite;
    const auth = { authorization: `Bearer ${token}` };
    const made = await fetch(`${server.origin}/v3/shorten?url=${encodeURIComponent('https://example.com/spring')}`, { headers: auth });
    assert.equal(made.status, 200);
    const { slug, domain } = (await made.json()) as { slug: string; domain: string };
    const stored = async () => {
      const answer = await fetch(`${server.origin}/v3/shorten/${encodeURIComponent(domain)}/${slug}`, { headers: auth });
      return ((await answer.json()) as { preview: unknown }).preview;
    };

    const { context, page } = await openPage(browser, server.origin, WIDTHS[1]);
    await page.addInitScript((t) => localStorage.setItem('brief.token', t), token);
    try {
      await page.goto(`${server.origin}/app/links`);
      const edit = await openEdit(page, `${server.origin}/${slug}`);
      const card = edit.getByRole('figure', { name: 'Card preview' });
      await edit.getByText('Give the card a title to see it here.').waitFor();

      // The card is drawn as the fields are typed: a small card, then a large one once it has an image.
      await edit.getByLabel('Card title').fill('Spring sale');
      await card.getByText('Spring sale').waitFor();
      await card.getByText(domain, { exact: true }).waitFor();
      assert.equal(await card.getAttribute('class'), 'preview-card', 'no image: the small card');
      await edit.getByLabel('Card description').fill('Until Sunday, everywhere.');
      await card.getByText('Until Sunday, everywhere.').waitFor();
      await edit.getByLabel('Card image').fill('http://img.example.com/banners/sale.jpg');
      await card.getByRole('img', { name: 'Image from img.example.com/…/sale.jpg' }).waitFor();
      assert.equal(await card.getAttribute('class'), 'preview-card large');

      // The server refuses an http image: its message at the image's field, which says it is invalid; nothing saved.
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.locator('#edit-preview-image-error').getByText('The preview.image field must be an https URL').waitFor();
      assert.equal(await edit.getByLabel('Card image').getAttribute('aria-invalid'), 'true');
      assert.equal(await stored(), null);
      for (const size of WIDTHS) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await assertAccessible(page, `edit form with a card (${size.name})`);
        await screenshot(page, `preview-fields-${size.name}`);
      }

      await edit.getByLabel('Card image').fill('https://img.example.com/banners/sale.jpg');
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByText(`Saved ${server.origin}/${slug}.`).waitFor();
      const card1 = { title: 'Spring sale', description: 'Until Sunday, everywhere.', image: 'https://img.example.com/banners/sale.jpg' };
      assert.deepEqual(await stored(), card1);

      // A preview fetcher gets that card from the built server; a person the redirect.
      const fetched = await fetch(`${server.origin}/${slug}`, { headers: { 'user-agent': SLACK }, redirect: 'manual' });
      assert.equal(fetched.status, 200);
      assert.match(await fetched.text(), /<meta property="og:title" content="Spring sale">/);
      const person = await fetch(`${server.origin}/${slug}`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 Chrome/131.0' } });
      assert.equal(person.headers.get('location'), 'https://example.com/spring');

      // The link's page shows the card as chats will.
      await page.goto(`${server.origin}/app/links/${encodeURIComponent(domain)}/${slug}`);
      const section = page.getByRole('region', { name: 'Card in chats' });
      const shown = section.getByRole('figure', { name: 'Card preview' });
      await shown.getByText('Spring sale').waitFor();
      await shown.getByText('Until Sunday, everywhere.').waitFor();
      await shown.getByRole('img', { name: 'Image from img.example.com/…/sale.jpg' }).waitFor();
      for (const size of WIDTHS) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await assertAccessible(page, `link page with its card (${size.name})`);
        await screenshot(page, `preview-card-${size.name}`);
      }

      // Emptied in the form: the card is gone (PATCH null), and the link's page says what apps show instead.
      await page.goto(`${server.origin}/app/links`);
      const again = await openEdit(page, `${server.origin}/${slug}`);
      assert.equal(await again.getByLabel('Card title').inputValue(), 'Spring sale', 'the form starts from the card');
      for (const label of ['Card title', 'Card description', 'Card image']) await again.getByLabel(label).fill('');
      await again.getByRole('button', { name: 'Save' }).click();
      await page.getByText(`Saved ${server.origin}/${slug}.`).waitFor();
      assert.equal(await stored(), null);
      await page.goto(`${server.origin}/app/links/${encodeURIComponent(domain)}/${slug}`);
      await page
        .getByRole('region', { name: 'Card in chats' })
        .getByText(/No card: chat apps show the destination's own preview/)
        .waitFor();
    } finally {
      if (!page.isClosed()) await page.close();
      await context.close();
    }
  });
});

/** The edit dialog of a link, opened from My links. */
async function openEdit(page: Page, shortUrl: string) {
  await page.getByRole('button', { name: `Edit ${shortUrl}` }).click();
  return page.getByRole('dialog', { name: 'Edit link' });
}
