// Issue 25 item 7 in real Chromium (decision 0015): the web app's edit form turns a link's query forwarding off and on
// again (its checkbox, v3 `forwardQuery`), and the redirect follows.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { hostRequest, runCli, type ServerProcess } from '../support/process.js';
import { axeViolations, serverEnv, startServerAndChromium } from './browser.js';

describe('query forwarding in the web app’s edit form (Chromium)', { timeout: 240_000 }, () => {
  let dir: string;
  let server: ServerProcess;
  let browser: Browser;
  let token: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-browser-forward-'));
    const { env } = await serverEnv(dir);
    assert.equal((await runCli(env, 'account', 'create', 'forwarder')).code, 0);
    const created = await runCli(env, 'token', 'create', 'forwarder');
    assert.equal(created.code, 0, created.stderr);
    token = created.stdout.trim().split('\n').at(-1)!.trim();
    ({ server, browser } = await startServerAndChromium(env));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('unticks and ticks “Pass a visitor’s query string”, and the redirect drops and forwards it', async () => {
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
