// The web app in real Chromium against the built server as a process, at a phone's and a desktop's width:
// shorten anonymously and follow the link, copy, the QR code decodes, a 422 under its field; sign in, find,
// search, edit and delete a link; its page and the overview count the clicks; sign out; a server refusing
// anonymous links (ANONYMOUS_SHORTEN=off) asks for a token. axe-core on every page
// (no serious or critical violation), a screenshot of every page (test/browser/screenshots/, ignored by git),
// and the first load's timings for docs/benchmarks.md.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import jsQRModule from 'jsqr';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { freePort, runCli, type ServerProcess, startServer } from '../support/process.js';
import { assertAccessible, eventually, launchChromium, openPage, SCREENSHOTS, STEP_MS, screenshot, startDestination, WIDTHS } from './browser.js';

// jsqr is CommonJS whose exports are the function with itself as `default`; NodeNext types see only the latter.
const jsQR = jsQRModule.default;

function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height)?.data;
}

describe('web app in Chromium', { timeout: 540_000 }, () => {
  let dir: string;
  let env: Record<string, string>;
  let server: ServerProcess;
  let browser: Browser;
  let destination: Awaited<ReturnType<typeof startDestination>>;
  let token: string;
  const firstLoads: Record<string, unknown> = {};

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-browser-'));
    const port = await freePort();
    env = {
      DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      ANALYTICS: 'full',
      CLICK_FLUSH_MS: '100',
      // A browser keeps a 301; every visit here must reach the server to count.
      REDIRECT_STATUS: '302',
    };
    assert.equal((await runCli(env, 'account', 'create', 'webapp')).code, 0);
    const created = await runCli(env, 'token', 'create', 'webapp', '--label', 'browser test');
    assert.equal(created.code, 0, created.stderr);
    token = created.stdout.trim().split('\n').at(-1)!.trim();
    // Each kept as it starts, so that `after` stops what did start when another fails (no chromium: the file must not hang).
    const started = await Promise.allSettled([
      startServer(env).then((s) => (server = s)),
      launchChromium().then((b) => (browser = b)),
      startDestination().then((d) => (destination = d)),
    ]);
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await destination?.close();
    if (Object.keys(firstLoads).length > 0) {
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      fs.writeFileSync(path.join(SCREENSHOTS, 'first-load.json'), `${JSON.stringify(firstLoads, null, 2)}\n`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const newPage = (size: (typeof WIDTHS)[number], colorScheme: 'light' | 'dark' = 'light') => openPage(browser, server.origin, size, colorScheme);

  for (const size of WIDTHS) {
    it(`shortens, copies, shows the QR code, signs in, finds, edits and deletes a link, and counts its clicks (${size.width} px)`, async () => {
      const { context, page, urls } = await newPage(size);
      const tag = `t${size.width}x${Date.now().toString(36)}`;
      try {
        // The first load of a fresh browser: the page, its script and style, until the form is there.
        await page.goto(`${server.origin}/`);
        await page.getByLabel('URL to shorten').waitFor();
        firstLoads[size.name] = await page.evaluate(() => {
          const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
          return {
            responseEndMs: Math.round(nav.responseEnd),
            domContentLoadedMs: Math.round(nav.domContentLoadedEventEnd),
            loadMs: Math.round(nav.loadEventEnd),
            formShownMs: Math.round(performance.now()),
            transferredBytes: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
            requests: 1 + resources.length,
          };
        });
        assert.equal(await page.title(), 'Shorten a link · Brief');
        await assertAccessible(page, 'home');
        await screenshot(page, `home-${size.name}`);

        // A 422 appears under the field the API names, in the API's words.
        const refused = await fetch(`${server.origin}/v3/shorten?url=${encodeURIComponent('ftp://example.com/x')}`);
        assert.equal(refused.status, 422);
        const apiMessage = ((await refused.json()) as { errors: Array<{ field: string; message: string }> }).errors[0]!;
        assert.equal(apiMessage.field, 'url');
        await page.getByLabel('URL to shorten').fill('ftp://example.com/x');
        await page.getByRole('button', { name: 'Shorten', exact: true }).click();
        const urlError = page.locator('#shorten-url-error');
        await urlError.waitFor();
        assert.equal(await urlError.textContent(), apiMessage.message);
        assert.match((await page.getByLabel('URL to shorten').getAttribute('aria-describedby')) ?? '', /shorten-url-error/);
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'shorten-url', 'focus on the field in error');
        await assertAccessible(page, 'home with an error');
        await screenshot(page, `home-error-${size.name}`);

        // Anonymous: shorten, copy, QR, follow.
        const target = `${destination.origin}/anonymous-${tag}`;
        await page.getByLabel('URL to shorten').fill(target);
        await page.getByRole('button', { name: 'Shorten', exact: true }).click();
        await page.getByRole('heading', { name: 'Your short link' }).waitFor();
        const shortLink = page.locator('.short-url a');
        const shortUrl = (await shortLink.textContent())!;
        assert.match(shortUrl, new RegExp(`^${server.origin}/[0-9A-Za-z]+$`));
        assert.equal(await shortLink.getAttribute('href'), shortUrl);

        await page.getByRole('button', { name: 'Copy' }).click();
        await page.getByText('Copied', { exact: true }).waitFor();
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), shortUrl);

        const qr = page.getByRole('img', { name: /QR code/ });
        await page.waitForFunction(() => {
          const img = document.querySelector<HTMLImageElement>('.qr img');
          return img?.complete && img.naturalWidth > 0;
        });
        assert.equal(decodeQr(await qr.screenshot()), shortUrl, 'the QR code on the page reads as the short URL');
        const png = await page.request.get(
          new URL((await page.getByRole('link', { name: 'Download PNG' }).getAttribute('href'))!, server.origin).href,
        );
        assert.equal(png.headers()['content-type'], 'image/png');
        assert.equal(decodeQr(await png.body()), shortUrl, 'the PNG download reads as the short URL');
        assert.equal(await page.getByRole('link', { name: 'Download PNG' }).getAttribute('download'), `${shortUrl.split('/').pop()}-qr.png`);
        const svg = await page.request.get(
          new URL((await page.getByRole('link', { name: 'Download SVG' }).getAttribute('href'))!, server.origin).href,
        );
        assert.match(svg.headers()['content-type'] ?? '', /^image\/svg\+xml/);
        await assertAccessible(page, 'home with a result');
        await screenshot(page, `home-result-${size.name}`);

        const visitor = await context.newPage();
        await visitor.goto(shortUrl);
        assert.equal(visitor.url(), target, 'the short URL leads to the destination');
        await visitor.close();

        // Sign in: a wrong token is refused in the API's words, the right one kept.
        await page.getByRole('button', { name: 'Shorten another' }).click();
        await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
        const dialog = page.getByRole('dialog', { name: 'Sign in' });
        await dialog.getByRole('button', { name: 'Use an API token instead' }).click();
        await dialog.getByLabel('API token').fill('not-a-token');
        await dialog.getByRole('button', { name: 'Sign in' }).click();
        await dialog.locator('#token-error').waitFor();
        assert.ok(((await dialog.locator('#token-error').textContent()) ?? '').length > 0);
        await assertAccessible(page, 'sign-in dialog');
        await screenshot(page, `sign-in-${size.name}`);
        await dialog.getByLabel('API token').fill(token);
        await dialog.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
        await dialog.waitFor({ state: 'hidden' });
        assert.equal(await page.evaluate(() => localStorage.getItem('brief.token')), token);

        // A link of the account's own, with a comment to search for.
        const mine = `${destination.origin}/mine-${tag}`;
        await page.getByLabel('URL to shorten').fill(mine);
        await page.getByLabel('Comment (optional)').fill(`note ${tag}`);
        await page.getByRole('button', { name: 'Shorten', exact: true }).click();
        await page.getByRole('heading', { name: 'Your short link' }).waitFor();
        const myShortUrl = (await page.locator('.short-url a').textContent())!;
        const key = myShortUrl.split('/').pop()!;

        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My links' }).click();
        await page.getByRole('heading', { name: 'My links', level: 1 }).waitFor();
        assert.equal(new URL(page.url()).pathname, '/app/links');
        const row = page.getByRole('row').filter({ hasText: key });
        await row.waitFor();
        assert.match((await row.textContent()) ?? '', new RegExp(`mine-${tag}`));
        assert.match((await row.textContent()) ?? '', /Active/);
        await assertAccessible(page, 'my links');
        await screenshot(page, `links-${size.name}`);

        // Search: the tag finds this link alone; nonsense finds nothing.
        await page.getByLabel('Search').fill(tag);
        await page.waitForFunction((k) => {
          const rows = document.querySelectorAll('table.links tbody tr');
          return rows.length === 1 && rows[0]!.textContent!.includes(k);
        }, key);
        await page.getByLabel('Search').fill(`${tag}-nothing`);
        await page.getByText(/No link matches/).waitFor();
        await page.getByLabel('Search').fill(tag);
        await row.waitFor();

        // Edit: a bad destination is refused under its field; a good one is saved.
        await page.getByRole('button', { name: `Edit ${myShortUrl}` }).click();
        const edit = page.getByRole('dialog', { name: 'Edit link' });
        await edit.getByLabel('Destination', { exact: true }).fill('ftp://example.com/nope');
        await edit.getByRole('button', { name: 'Save' }).click();
        await edit.locator('#edit-url-error').waitFor();
        await assertAccessible(page, 'edit dialog with an error');
        await screenshot(page, `edit-${size.name}`);
        const edited = `${destination.origin}/edited-${tag}`;
        await edit.getByLabel('Destination', { exact: true }).fill(edited);
        await edit.getByRole('button', { name: 'Save' }).click();
        await page.getByText(`Saved ${myShortUrl}.`).waitFor();
        await page
          .getByRole('row')
          .filter({ hasText: `edited-${tag}` })
          .waitFor();
        const stored = await fetch(`${server.origin}/v3/shorten/${encodeURIComponent(new URL(myShortUrl).host)}/${key}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(((await stored.json()) as { originalUrl: string }).originalUrl, edited);

        // Three visits, then the link's page and the overview count them.
        const visits = await context.newPage();
        for (let i = 0; i < 3; i++) {
          await visits.goto(myShortUrl);
          assert.equal(visits.url(), edited);
        }
        await visits.close();
        await page.getByRole('link', { name: myShortUrl.replace(/^https?:\/\//, '') }).click();
        await page.getByRole('heading', { name: `${new URL(myShortUrl).host}/${key}`, level: 1 }).waitFor();
        assert.equal(new URL(page.url()).pathname, `/app/links/${encodeURIComponent(new URL(myShortUrl).host)}/${key}`);
        const browsers = page.getByRole('region', { name: 'Browsers' });
        await eventually(
          page,
          async () => {
            await browsers.getByText('Loading…').waitFor({ state: 'detached' });
            return (await page.locator('.chart .total').textContent()) === '3' && /Chrom/.test((await browsers.textContent()) ?? '');
          },
          'the link page shows 3 clicks from Chrome',
        );
        await page.getByRole('region', { name: 'Bots (not counted above)' }).getByText('No bots in this range.').waitFor();
        await page.getByLabel('Range').selectOption('24h');
        await page.waitForFunction(() => document.querySelector('.chart svg')?.getAttribute('aria-label')?.includes('hours'));
        assert.equal(await page.locator('.chart .total').textContent(), '3');
        // The picker offers every range the server has (one list, the server's): the past month by the day, today by the hour.
        await page.getByLabel('Range').selectOption({ label: 'Past month' });
        await page.waitForFunction(() => document.querySelector('.chart svg')?.getAttribute('aria-label')?.endsWith(' days'));
        assert.equal(await page.locator('.chart .total').textContent(), '3');
        // (Today's total is not asserted: a run at midnight would have made the visits yesterday.)
        const hourlyToday = page.waitForResponse((response) => /\/analytics\/clicks\?.*range=1d.*granularity=hour/.test(response.url()));
        await page.getByLabel('Range').selectOption({ label: 'Today' });
        assert.equal((await hourlyToday).status(), 200);
        await page.waitForFunction(() => document.querySelector('.chart svg')?.getAttribute('aria-label')?.endsWith(' hours'));
        // A custom range: yesterday and today (so a run at midnight still holds the visits), by the hour (the API's from/to).
        await page.getByLabel('Range').selectOption('custom');
        const [yesterday, today] = await page.evaluate(() =>
          [-1, 0].map((days) => {
            const d = new Date();
            d.setDate(d.getDate() + days);
            return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
          }),
        );
        await page.getByLabel('From').fill(yesterday!);
        await page.getByLabel('To').fill(today!);
        await page.getByRole('button', { name: 'Show' }).click();
        await page.waitForFunction(() => document.querySelector('.chart svg')?.getAttribute('aria-label')?.endsWith('48 hours'));
        assert.equal(await page.locator('.chart .total').textContent(), '3');
        await assertAccessible(page, 'link page');
        await screenshot(page, `link-${size.name}`);

        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
        await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
        const topLinks = page.getByRole('region', { name: 'Top links' });
        await eventually(
          page,
          async () => ((await topLinks.textContent({ timeout: STEP_MS })) ?? '').includes(myShortUrl),
          'the overview lists the link',
        );
        await page.waitForFunction(() => /^\d+$/.test(document.querySelector('.totals dd')?.textContent ?? ''));
        const totalClicks = Number(await page.locator('.totals dd').first().textContent());
        assert.ok(totalClicks >= 3, `overview clicks ${totalClicks}`);
        await assertAccessible(page, 'overview');
        await screenshot(page, `overview-${size.name}`);
        await topLinks.getByRole('link', { name: myShortUrl }).click();
        await page.getByRole('heading', { name: `${new URL(myShortUrl).host}/${key}`, level: 1 }).waitFor();

        // A password and an expiry, edited in; the row says so.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My links' }).click();
        await page.getByRole('button', { name: `Edit ${myShortUrl}` }).click();
        await edit.getByLabel('Password', { exact: true }).fill('open-sesame');
        await edit.getByLabel('Expires').fill('2099-12-31T23:30');
        await edit.getByRole('button', { name: 'Save' }).click();
        await page.getByText(`Saved ${myShortUrl}.`).waitFor();
        await page.getByRole('row').filter({ hasText: key }).filter({ hasText: 'Password' }).waitFor();
        const guarded = (await (
          await fetch(`${server.origin}/v3/shorten/${encodeURIComponent(new URL(myShortUrl).host)}/${key}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as { hasPassword: boolean; expiresAt: string };
        assert.equal(guarded.hasPassword, true);
        assert.equal(guarded.expiresAt.slice(0, 4), '2099');
        assert.equal((await fetch(myShortUrl, { redirect: 'manual' })).status, 200, 'the password form now');

        // Delete, after a confirmation; the short URL then answers 404.
        await page.getByRole('button', { name: `Delete ${myShortUrl}` }).click();
        const confirm = page.getByRole('dialog', { name: 'Delete this link?' });
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await confirm.waitFor({ state: 'hidden' });
        assert.equal((await fetch(myShortUrl, { redirect: 'manual' })).status, 200, 'Cancel keeps the link');
        await page.getByRole('button', { name: `Delete ${myShortUrl}` }).click();
        await assertAccessible(page, 'delete confirmation');
        await screenshot(page, `delete-${size.name}`);
        await confirm.getByRole('button', { name: 'Delete link' }).click();
        await page.getByText(`Deleted ${myShortUrl}.`).waitFor();
        await page.getByRole('row').filter({ hasText: key }).waitFor({ state: 'detached' });
        assert.equal((await fetch(myShortUrl, { redirect: 'manual' })).status, 404);

        // Sign out: the token leaves the browser; it was never in a URL.
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
        assert.equal(await page.evaluate(() => localStorage.getItem('brief.token')), null);
        assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My links' }).count(), 0);
        assert.ok(urls.length > 10);
        assert.deepEqual(
          urls.filter((url) => url.includes(token) || url.includes(encodeURIComponent(token))),
          [],
        );
      } catch (error) {
        await screenshot(page, `failed-${size.name}`);
        throw error;
      } finally {
        await context.close();
      }
    });
  }

  it('pages through My links, 20 a page, the search counting every match', async () => {
    const tag = `page${Date.now().toString(36)}`;
    const items = Array.from({ length: 25 }, (_, i) => ({ url: `${destination.origin}/${tag}/${i}`, comment: tag }));
    const made = await fetch(`${server.origin}/v3/shorten/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(items),
    });
    assert.equal(made.status, 200);
    const { context, page } = await newPage(WIDTHS[1]);
    try {
      await page.goto(`${server.origin}/`);
      await page.evaluate((t) => localStorage.setItem('brief.token', t), token);
      await page.goto(`${server.origin}/app/links`);
      await page.getByLabel('Search').fill(tag);
      await page.waitForFunction((t) => document.querySelector('table.links caption')?.textContent?.includes(t), tag);
      await page.getByText('Page 1 of 2').waitFor();
      assert.equal(await page.locator('table.links tbody tr').count(), 20);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Page 2 of 2').waitFor();
      await page.waitForFunction(() => document.querySelectorAll('table.links tbody tr').length === 5);
      assert.equal(await page.getByRole('button', { name: 'Next' }).isDisabled(), true);
      await page.getByRole('button', { name: 'Previous' }).click();
      await page.getByText('Page 1 of 2').waitFor();
    } finally {
      await context.close();
    }
  });

  it('asks for a token, not with the API 401, on a server with ANONYMOUS_SHORTEN=off, and shortens once signed in', async () => {
    const closedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-browser-closed-'));
    const port = await freePort();
    const closedEnv = {
      ...env,
      DATABASE_URL: `sqlite:${path.join(closedDir, 'brief.db')}`,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      ANONYMOUS_SHORTEN: 'off',
    };
    assert.equal((await runCli(closedEnv, 'account', 'create', 'closed')).code, 0);
    const created = await runCli(closedEnv, 'token', 'create', 'closed', '--label', 'browser test');
    assert.equal(created.code, 0, created.stderr);
    const closedToken = created.stdout.trim().split('\n').at(-1)!.trim();
    const closed = await startServer(closedEnv);
    const { context, page } = await newPage(WIDTHS[0]);
    try {
      await page.goto(`${closed.origin}/`);
      const target = `${destination.origin}/closed-server`;
      await page.getByLabel('URL to shorten').fill(target);
      await page.getByRole('button', { name: 'Shorten', exact: true }).click();
      const needsToken = page.getByRole('alert').filter({ hasText: 'This server needs an API token to shorten links' });
      await needsToken.waitFor();
      assert.equal(await page.getByText(/send a bearer token/).count(), 0, "the API's own 401 message is not shown");
      await assertAccessible(page, 'home on a server that needs a token');
      await screenshot(page, 'home-needs-token');

      // Its Sign in opens the sign-in dialog; once signed in, the notice goes and the same form shortens.
      await needsToken.getByRole('button', { name: 'Sign in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      await dialog.getByRole('button', { name: 'Use an API token instead' }).click();
      await dialog.getByLabel('API token').fill(closedToken);
      await dialog.getByRole('button', { name: 'Sign in' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await needsToken.waitFor({ state: 'detached' });
      assert.equal(await page.getByLabel('URL to shorten').inputValue(), target, 'the form is kept');
      await page.getByRole('button', { name: 'Shorten', exact: true }).click();
      await page.getByRole('heading', { name: 'Your short link' }).waitFor();
      assert.match((await page.locator('.short-url a').textContent()) ?? '', new RegExp(`^${closed.origin}/[0-9A-Za-z]+$`));
    } catch (error) {
      await screenshot(page, 'failed-needs-token');
      throw error;
    } finally {
      await context.close();
      await closed.stop();
      fs.rmSync(closedDir, { recursive: true, force: true });
    }
  });

  it('can be used with the keyboard alone: skip link, shorten with Enter, copy, a dialog closed by Escape', async () => {
    const { context, page } = await newPage(WIDTHS[1]);
    try {
      await page.goto(`${server.origin}/`);
      await page.getByLabel('URL to shorten').waitFor();
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'shorten-url', 'after the skip link, the first field');
      await page.keyboard.type(`${destination.origin}/keyboard`);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Your short link' }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Your short link', 'focus moves to the result');
      await page.keyboard.press('Tab'); // the short link
      await page.keyboard.press('Tab'); // Copy
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Copy');
      await page.keyboard.press('Enter');
      await page.getByText('Copied', { exact: true }).waitFor();
      const signIn = page.getByRole('banner').getByRole('button', { name: 'Sign in' });
      await signIn.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Sign in' }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'email', 'the dialog takes focus (its first field)');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Sign in' }).waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.activeElement?.textContent === 'Sign in'); // focus back on its button
    } finally {
      await context.close();
    }
  });

  it('shows the pages a visitor of a short link can meet in the same look, accessible at both widths, light and dark', async () => {
    const made = await fetch(`${server.origin}/v3/shorten/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify([
        { url: `${destination.origin}/protected`, password: 'secret-words' },
        { url: `${destination.origin}/soon-gone`, expiredAt: new Date(Date.now() + 1000).toISOString() },
      ]),
    });
    const [protectedLink, expiring] = (await made.json()) as Array<{ shortLink: string }>;
    await new Promise((r) => setTimeout(r, 1100));
    for (const size of WIDTHS) {
      for (const scheme of ['light', 'dark'] as const) {
        const { context, page } = await newPage(size, scheme);
        const pages: Array<[string, string]> = [
          ['not-found', `${server.origin}/no-such-link-here`],
          ['password', protectedLink!.shortLink],
          ['expired', expiring!.shortLink],
        ];
        for (const [name, url] of pages) {
          await page.goto(url);
          const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
          assert.equal(background, scheme === 'light' ? 'rgb(246, 247, 249)' : 'rgb(15, 18, 22)', `${name}: the app's background`);
          await assertAccessible(page, `${name} page (${scheme})`);
          await screenshot(page, `visitor-${name}-${size.name}-${scheme}`);
        }
        await page.goto(protectedLink!.shortLink);
        await page.getByLabel('Password').fill('wrong-words');
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByRole('alert').waitFor();
        await assertAccessible(page, `wrong password page (${scheme})`);
        await screenshot(page, `visitor-wrong-password-${size.name}-${scheme}`);
        await page.getByLabel('Password').fill('secret-words');
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.waitForURL(`${destination.origin}/protected`);
        if (scheme === 'dark') {
          await page.goto(`${server.origin}/`);
          await page.getByLabel('URL to shorten').waitFor();
          await assertAccessible(page, 'home (dark)');
          await screenshot(page, `home-${size.name}-dark`);
        }
        await context.close();
      }
    }
  });
});
