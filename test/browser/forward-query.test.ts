// Issue 25 item 7 in real Chromium (decision 0015): the web app's edit form turns a link's query forwarding off and on
// again (its checkbox, v3 `forwardQuery`), and the redirect follows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostRequest } from '../support/process.js';
import { axeViolations, suiteWithToken } from './browser.js';

describe('query forwarding in the web app’s edit form (Chromium)', { timeout: 240_000 }, () => {
  const suite = suiteWithToken('brief-browser-forward-', 'forwarder');

  it('unticks and ticks “Pass a visitor’s query string”, and the redirect drops and forwards it', async () => {
    const { server, browser, token } = suite;
    const auth = { authorization: `Bearer ${token}` };
    const made = await fetch(`${server.origin}/v3/shorten?url=${encodeURIComponent('https://example.com/landing')}`, { headers: auth });
    assert.equal(made.status, 200);
    const { slug, domain } = (await made.json()) as { slug: string; domain: string };
    const location = async () => (await hostRequest(server.port, domain, `/${slug}?utm_source=news`)).headers.location;
    assert.equal(await location(), 'https://example.com/landing?utm_source=news');

    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    await page.addInitScript((t) => localStorage.setItem('brief.token', t), token);
    const toggle = async (checked: boolean) => {
      await page.goto(`${server.origin}/app/links`);
      await page.getByRole('button', { name: `Edit ${server.origin}/${slug}` }).click();
      const edit = page.getByRole('dialog', { name: 'Edit link' });
      const box = edit.getByLabel(/Pass a visitor's query string/);
      assert.equal(await box.isChecked(), !checked, 'the form shows the link’s setting');
      assert.deepEqual(
        (await axeViolations(page)).map((v) => v.id),
        [],
      );
      await box.setChecked(checked);
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByText(`Saved ${server.origin}/${slug}.`).waitFor();
    };
    try {
      await toggle(false);
      const stored = await fetch(`${server.origin}/v3/shorten/${encodeURIComponent(domain)}/${slug}`, { headers: auth });
      assert.equal(((await stored.json()) as { forwardQuery: boolean }).forwardQuery, false);
      assert.equal(await location(), 'https://example.com/landing');
      await toggle(true);
      assert.equal(await location(), 'https://example.com/landing?utm_source=news');
    } finally {
      await page.close();
    }
  });
});
