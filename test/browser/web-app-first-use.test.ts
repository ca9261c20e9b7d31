// The web app's first-use edges (issue 25, item 8) in real Chromium at a phone's and a desktop's width: a URL
// typed without a scheme, a password and an expiry under "More options", long values in My links cut with an
// ellipsis and whole on hover or focus, a link's page saying what each of its numbers counts, and a server with
// ANALYTICS=off saying so on the link page and the Overview instead of drawing empty charts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { freePort, runCli, type ServerProcess, startServer } from '../support/process.js';
import { assertAccessible, eventually, launchChromium, openPage, personUserAgent, screenshot, startDestination, WIDTHS } from './browser.js';

interface Started {
  env: Record<string, string>;
  server: ServerProcess;
  token: string;
  dir: string;
}

/** A server of its own on a fresh database, with an account and its token. */
async function startBrief(extra: Record<string, string>): Promise<Started> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-browser-first-use-'));
  const port = await freePort();
  const env = {
    DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    CLICK_FLUSH_MS: '100',
    REDIRECT_STATUS: '302',
    ...extra,
  };
  assert.equal((await runCli(env, 'account', 'create', 'firstuse')).code, 0);
  const created = await runCli(env, 'token', 'create', 'firstuse', '--label', 'browser test');
  assert.equal(created.code, 0, created.stderr);
  const token = created.stdout.trim().split('\n').at(-1)!.trim();
  return { env, server: await startServer(env), token, dir };
}

async function stopBrief(started: Started | undefined): Promise<void> {
  await started?.server.stop();
  if (started) fs.rmSync(started.dir, { recursive: true, force: true });
}

/** One line, cut: its text wider than its box, an ellipsis, no wrapping. */
async function clipped(element: Locator): Promise<{ cut: boolean; lines: number; ellipsis: boolean }> {
  return element.evaluate((node) => {
    const style = getComputedStyle(node);
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    return { cut: node.scrollWidth > node.clientWidth, lines, ellipsis: style.textOverflow === 'ellipsis' && style.whiteSpace === 'nowrap' };
  });
}

async function signIn(page: Page, origin: string, token: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.evaluate((t) => localStorage.setItem('brief.token', t), token);
}

describe('web app in Chromium: first use', { timeout: 540_000 }, () => {
  let brief: Started;
  let browser: Browser;
  let destination: Awaited<ReturnType<typeof startDestination>>;

  before(async () => {
    const started = await Promise.allSettled([
      startBrief({ ANALYTICS: 'full' }).then((s) => (brief = s)),
      launchChromium().then((b) => (browser = b)),
      startDestination().then((d) => (destination = d)),
    ]);
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
  });

  after(async () => {
    await browser?.close();
    await stopBrief(brief);
    await destination?.close();
  });

  const authorized = () => ({ authorization: `Bearer ${brief.token}` });
  async function stored(shortUrl: string): Promise<{ originalUrl: string; hasPassword: boolean; expiresAt: string | null; statsClicks: number }> {
    const url = new URL(shortUrl);
    const answer = await fetch(`${brief.server.origin}/v3/shorten/${encodeURIComponent(url.host)}/${url.pathname.slice(1)}`, {
      headers: authorized(),
    });
    assert.equal(answer.status, 200);
    return (await answer.json()) as never;
  }

  for (const size of WIDTHS) {
    it(`adds https:// to a URL typed without one, and sets a password and an expiry under More options (${size.width} px)`, async () => {
      const { context, page, urls } = await openPage(browser, brief.server.origin, size);
      const tag = `s${size.width}x${Date.now().toString(36)}`;
      try {
        await signIn(page, brief.server.origin, brief.token);
        await page.goto(`${brief.server.origin}/`);

        // The API stays strict; the form completes what a person types.
        const strict = await fetch(`${brief.server.origin}/v3/shorten?url=${encodeURIComponent(`example.com/${tag}`)}`);
        assert.equal(strict.status, 422, 'the API refuses a URL without a scheme');
        const field = page.getByLabel('URL to shorten');
        await field.fill(`example.com/${tag}?q=1`);
        await page.getByRole('button', { name: 'Shorten', exact: true }).click();
        await page.getByRole('heading', { name: 'Your short link' }).waitFor();
        assert.equal(await page.locator('.destination .break').textContent(), `https://example.com/${tag}?q=1`);
        const typed = (await page.locator('.short-url a').textContent())!;
        assert.equal((await stored(typed)).originalUrl, `https://example.com/${tag}?q=1`);
        await page.getByRole('button', { name: 'Shorten another' }).click();

        // "More options" is a disclosure, closed at first: password and expiry inside it.
        const more = page.locator('details.more');
        const summary = more.locator('summary', { hasText: 'More options' });
        assert.equal(await more.getAttribute('open'), null, 'closed at first');
        assert.equal(await page.getByLabel('Password', { exact: true }).isVisible(), false);
        await summary.click();
        await page.getByLabel('Password', { exact: true }).waitFor();
        assert.ok(await page.getByLabel('Expires').isVisible());
        await field.fill('example.com/spring-sale/early-access');
        await page.getByLabel('Password', { exact: true }).fill('open-sesame');
        await page.getByLabel('Expires').fill('2099-12-31T23:30');
        await assertAccessible(page, 'home, More options open');
        await screenshot(page, `home-more-options-${size.name}`);

        // A password the API refuses: its words under the field, the field focused.
        await page.getByLabel('Password', { exact: true }).fill('abc');
        await page.getByRole('button', { name: 'Shorten', exact: true }).click();
        const passwordError = page.locator('#shorten-password-error');
        await passwordError.waitFor();
        assert.match((await passwordError.textContent()) ?? '', /password field must be at least 6 characters/);
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'shorten-password');
        // Closed again, the next refusal opens it.
        await summary.click();
        assert.equal(await more.getAttribute('open'), null);
        await page.getByRole('button', { name: 'Shorten', exact: true }).click();
        await page.waitForFunction(() => document.activeElement?.id === 'shorten-password');
        assert.notEqual(await more.getAttribute('open'), null, 'opened to show the field in error');
        await assertAccessible(page, 'home, More options with an error');

        await page.getByLabel('Password', { exact: true }).fill('open-sesame');
        await page.getByRole('button', { name: 'Shorten', exact: true }).click();
        await page.getByRole('heading', { name: 'Your short link' }).waitFor();
        const guardedUrl = (await page.locator('.short-url a').textContent())!;
        const guarded = await stored(guardedUrl);
        assert.equal(guarded.originalUrl, 'https://example.com/spring-sale/early-access');
        assert.equal(guarded.hasPassword, true);
        assert.equal(guarded.expiresAt, await page.evaluate(() => new Date('2099-12-31T23:30').toISOString()), 'the local time entered');
        assert.equal((await fetch(guardedUrl, { redirect: 'manual' })).status, 200, 'the password form, not a redirect');
        assert.deepEqual(
          urls.filter((url) => url.includes('open-sesame')),
          [],
          'the password is never in a URL',
        );
      } catch (error) {
        await screenshot(page, `failed-first-use-form-${size.name}`);
        throw error;
      } finally {
        await context.close();
      }
    });

    it(`cuts long short links and destinations in My links with an ellipsis, whole on hover or focus, dates on one line (${size.width} px)`, async () => {
      const tag = `clip${size.width}x${Date.now().toString(36)}`;
      const slug = `${tag}-${'a-rather-long-custom-slug-'.repeat(2)}`.slice(0, 64);
      const longUrl = `${destination.origin}/${tag}/${'a-very-long-path-segment/'.repeat(12)}?utm_source=newsletter&utm_campaign=first-use`;
      const made = await fetch(`${brief.server.origin}/v3/shorten/bulk`, {
        method: 'POST',
        headers: { ...authorized(), 'content-type': 'application/json' },
        body: JSON.stringify([
          { url: longUrl, slug, comment: tag },
          { url: `${destination.origin}/${tag}/short`, comment: tag },
        ]),
      });
      assert.equal(made.status, 200);
      const [long] = (await made.json()) as Array<{ shortLink: string }>;
      const { context, page } = await openPage(browser, brief.server.origin, size);
      try {
        await signIn(page, brief.server.origin, brief.token);
        await page.goto(`${brief.server.origin}/app/links`);
        await page.getByLabel('Search').fill(tag);
        await page.waitForFunction(() => document.querySelectorAll('table.links tbody tr').length === 2);
        const row = page.getByRole('row').filter({ hasText: slug });
        const key = row.locator('td.key a.clip');
        const goesTo = row.locator('td.destination .clip');
        assert.equal(await key.getAttribute('title'), long!.shortLink);
        assert.equal(await goesTo.getAttribute('title'), longUrl);
        for (const [what, element] of [
          ['short link', key],
          ['destination', goesTo],
        ] as const) {
          assert.deepEqual(await clipped(element), { cut: true, lines: 1, ellipsis: true }, `${what}: one line, cut with an ellipsis`);
        }
        // Nothing mid-word at rest: the other row's short link and every date on one line.
        for (const date of await page.locator('td.date').all()) assert.equal((await clipped(date)).lines, 1, 'a date on one line');
        assert.equal((await clipped(page.getByRole('row').filter({ hasText: '/short' }).locator('td.key a.clip'))).lines, 1);
        await assertAccessible(page, 'My links with long values');
        await screenshot(page, `links-long-${size.name}`);

        // Whole on focus (the keyboard) and on hover (the mouse).
        await key.focus();
        const focused = await clipped(key);
        assert.equal(focused.cut, false, 'the short link whole on focus');
        assert.ok(focused.lines >= 1);
        await goesTo.hover();
        assert.equal((await clipped(goesTo)).cut, false, 'the destination whole on hover');
        assert.ok((await clipped(goesTo)).lines > 1, 'wrapped, to show it all');
        await screenshot(page, `links-long-shown-${size.name}`);
      } catch (error) {
        await screenshot(page, `failed-first-use-links-${size.name}`);
        throw error;
      } finally {
        await context.close();
      }
    });
  }

  it("says what each of a link's numbers counts: all its visits, bots too, and the chart's people in the range", async () => {
    const made = await fetch(`${brief.server.origin}/v3/shorten?url=${encodeURIComponent(`${destination.origin}/counted`)}`, {
      headers: authorized(),
    });
    const shortUrl = ((await made.json()) as { shortened: string }).shortened;
    const person = { 'user-agent': personUserAgent(browser) };
    for (const headers of [person, person, { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' }]) {
      assert.equal((await fetch(shortUrl, { redirect: 'manual', headers })).status, 302);
    }
    for (const size of WIDTHS) {
      const { context, page } = await openPage(browser, brief.server.origin, size);
      try {
        await signIn(page, brief.server.origin, brief.token);
        const url = new URL(shortUrl);
        await page.goto(`${brief.server.origin}/app/links/${encodeURIComponent(url.host)}/${url.pathname.slice(1)}`);
        const allTime = page.locator('.facts dd').last();
        await eventually(
          page,
          async () =>
            (await page.locator('.chart .total').textContent({ timeout: 15_000 })) === '2' &&
            /^3\b/.test((await allTime.textContent()) ?? '') &&
            ((await page.getByRole('region', { name: 'Bots (not counted above)' }).textContent()) ?? '').includes('Slackbot'),
          'all time 3 (a bot among them), the chart 2',
        );
        assert.equal(await page.locator('.facts dt').last().textContent(), 'Clicks, all time');
        assert.match((await allTime.textContent()) ?? '', /every visit since it was made, bots included/);
        assert.match((await page.locator('.chart figcaption').textContent()) ?? '', /^2 clicks by people in this range$/);
        const counts = (await page.locator('.counts').textContent()) ?? '';
        assert.match(counts, /counts visits by people in the chosen range/);
        assert.match(counts, /bots/);
        assert.match(counts, /before this server recorded analytics/);
        await assertAccessible(page, 'link page saying what it counts');
        await screenshot(page, `link-counts-${size.name}`);
      } finally {
        await context.close();
      }
    }
  });

  it('says analytics is off on the link page and the Overview of a server with ANALYTICS=off, and asks for no figures', async () => {
    let off: Started | undefined;
    try {
      off = await startBrief({ ANALYTICS: 'off' });
      const page0 = await fetch(`${off.server.origin}/`);
      assert.match(await page0.text(), /<meta name="brief-analytics" content="off">/);
      const made = await fetch(`${off.server.origin}/v3/shorten?url=${encodeURIComponent(`${destination.origin}/off`)}`, {
        headers: { authorization: `Bearer ${off.token}` },
      });
      const shortUrl = ((await made.json()) as { shortened: string }).shortened;
      assert.equal((await fetch(shortUrl, { redirect: 'manual' })).status, 302);
      for (const size of WIDTHS) {
        const { context, page, urls } = await openPage(browser, off.server.origin, size);
        try {
          await signIn(page, off.server.origin, off.token);
          const url = new URL(shortUrl);
          await page.goto(`${off.server.origin}/app/links/${encodeURIComponent(url.host)}/${url.pathname.slice(1)}`);
          await page.getByText('Analytics is off on this server').waitFor();
          await eventually(page, async () => /^1\b/.test((await page.locator('.facts dd').last().textContent()) ?? ''), 'the click counted');
          await page.getByText('Analytics is off on this server').waitFor();
          assert.equal(await page.locator('.chart').count(), 0, 'no empty chart');
          assert.equal(await page.locator('.top-list').count(), 0, 'no empty lists');
          assert.equal(await page.getByLabel('Range').count(), 0, 'no range to choose');
          await assertAccessible(page, 'link page, analytics off');
          await screenshot(page, `link-analytics-off-${size.name}`);

          await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
          await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
          await page.getByText('Analytics is off on this server').waitFor();
          assert.equal(await page.locator('.chart').count(), 0);
          assert.equal(await page.locator('.top-list').count(), 0);
          assert.deepEqual(await page.locator('.totals dt').allTextContents(), ['Links']);
          await page.waitForFunction(() => document.querySelector('.totals dd')?.textContent === '1');
          await assertAccessible(page, 'overview, analytics off');
          await screenshot(page, `overview-analytics-off-${size.name}`);
          assert.deepEqual(
            urls.filter((u) => u.includes('/analytics/')),
            [],
            'no analytics call',
          );
        } finally {
          await context.close();
        }
      }
    } finally {
      await stopBrief(off);
    }
  });

  it('shows the chart and the bots but says which lists are not recorded on a server with ANALYTICS=minimal', async () => {
    let minimal: Started | undefined;
    try {
      minimal = await startBrief({ ANALYTICS: 'minimal' });
      const made = await fetch(`${minimal.server.origin}/v3/shorten?url=${encodeURIComponent(`${destination.origin}/minimal`)}`, {
        headers: { authorization: `Bearer ${minimal.token}` },
      });
      const shortUrl = ((await made.json()) as { shortened: string }).shortened;
      assert.equal((await fetch(shortUrl, { redirect: 'manual', headers: { 'user-agent': personUserAgent(browser) } })).status, 302);
      const { context, page, urls } = await openPage(browser, minimal.server.origin, WIDTHS[1]);
      try {
        await signIn(page, minimal.server.origin, minimal.token);
        const url = new URL(shortUrl);
        await page.goto(`${minimal.server.origin}/app/links/${encodeURIComponent(url.host)}/${url.pathname.slice(1)}`);
        await eventually(page, async () => (await page.locator('.chart .total').textContent({ timeout: 15_000 })) === '1', 'the visit charted');
        await page.getByText('This server records only when each visit happened and whether a bot made it').waitFor();
        assert.deepEqual(await page.locator('.top-list h3').allTextContents(), ['Bots (not counted above)']);
        assert.deepEqual(
          urls.filter((u) => /\/analytics\/top-(?!bots)/.test(u)),
          [],
          'no call for a list the server does not record',
        );
        await assertAccessible(page, 'link page, analytics minimal');
      } finally {
        await context.close();
      }
    } finally {
      await stopBrief(minimal);
    }
  });
});
