// Issue 39's web editor in real Chromium (decision 0039): a link's redirect rules added through the form's controls,
// a bad value's 422 shown at its field, moved by the keyboard, saved with one PATCH and shown again after a reload;
// "Test a visit" answers by the server's evaluation for two visitors; a rule removed, another made an A/B split;
// the visits' "Clicks by rule" on the link's page; a visit limit set in the edit form (its 422 at the field) and
// shown on the link's page; axe clean at both widths.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { hostRequest, runCli, type ServerProcess } from '../support/process.js';
import { assertAccessible, openPage, screenshot, serverEnv, startServerAndChromium, WIDTHS } from './browser.js';

describe('redirect rules on a link’s page (Chromium)', { timeout: 240_000 }, () => {
  let dir: string;
  let server: ServerProcess;
  let browser: Browser;
  let token: string;
  let viewerToken: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-browser-rules-'));
    const { env } = await serverEnv(dir);
    assert.equal((await runCli(env, 'account', 'create', 'ruler')).code, 0);
    const created = await runCli(env, 'token', 'create', 'ruler');
    assert.equal(created.code, 0, created.stderr);
    token = created.stdout.trim().split('\n').at(-1)!.trim();
    const reader = await runCli(env, 'token', 'create', 'ruler', '--role', 'viewer');
    assert.equal(reader.code, 0, reader.stderr);
    viewerToken = reader.stdout.trim().split('\n').at(-1)!.trim();
    ({ server, browser } = await startServerAndChromium(env));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('adds, moves, saves, tries and removes rules through the form', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const made = await fetch(`${server.origin}/v3/shorten?url=${encodeURIComponent('https://example.com/landing')}`, { headers: auth });
    assert.equal(made.status, 200);
    const { slug, domain } = (await made.json()) as { slug: string; domain: string };
    const stored = async () => {
      const answer = await fetch(`${server.origin}/v3/shorten/${encodeURIComponent(domain)}/${slug}`, { headers: auth });
      return ((await answer.json()) as { rules: unknown[] }).rules;
    };
    const linkPage = `${server.origin}/app/links/${encodeURIComponent(domain)}/${slug}`;

    const { context, page } = await openPage(browser, server.origin, WIDTHS[1]);
    await page.addInitScript((t) => localStorage.setItem('brief.token', t), token);
    try {
      await page.goto(linkPage);
      const section = page.getByRole('region', { name: 'Redirect rules' });
      await section.getByText('No rules: every visitor goes to the destination.').waitFor();
      await section.getByRole('button', { name: 'Edit rules' }).click();

      // Two rules through the controls: a device from its select, a language as text.
      await section.getByRole('button', { name: 'Add a rule' }).click();
      const rule = (n: number) => section.getByRole('group', { name: `Rule ${n}`, exact: true });
      await rule(1).getByLabel('Type').selectOption('device');
      await rule(1).getByLabel('Device').selectOption('ios');
      await rule(1).getByLabel('Rule 1 target').fill('https://example.com/ios');
      await section.getByRole('button', { name: 'Add a rule' }).click();
      await rule(2).getByLabel('Type').selectOption('language');
      await rule(2).getByLabel('Value').fill('not a language!');
      await rule(2).getByLabel('Rule 2 target').fill('https://example.com/fr');

      // The server's 422 names `rules.1.conditions.0.value`: the message is at that input, which says it is invalid.
      await section.getByRole('button', { name: 'Save rules' }).click();
      const value = rule(2).getByLabel('Value');
      await rule(2)
        .getByText(/A language condition's value must be a language tag/)
        .waitFor();
      assert.equal(await value.getAttribute('aria-invalid'), 'true');
      assert.deepEqual(await stored(), [], 'nothing is saved while a rule is refused');
      await value.fill('fr');
      for (const size of WIDTHS) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await assertAccessible(page, `rules editor (${size.name})`);
        await screenshot(page, `rules-editor-${size.name}`);
      }

      // Rule 2 moved up by the keyboard: the focus stays on the moved rule (its up button is now disabled, so its down one).
      await rule(2).getByRole('button', { name: 'Move up (rule 2)' }).focus();
      await page.keyboard.press('Enter');
      assert.equal(await rule(1).getByLabel('Rule 1 target').inputValue(), 'https://example.com/fr');
      assert.equal(await rule(2).getByLabel('Rule 2 target').inputValue(), 'https://example.com/ios');
      await focused(page, 'Move down (rule 1)');
      await page.keyboard.press('Enter');
      assert.equal(await rule(1).getByLabel('Rule 1 target').inputValue(), 'https://example.com/ios');
      await focused(page, 'Move up (rule 2)');
      await page.keyboard.press('Enter');
      await focused(page, 'Move down (rule 1)');
      assert.equal(await rule(1).getByLabel('Rule 1 target').inputValue(), 'https://example.com/fr');

      await section.getByRole('button', { name: 'Save rules' }).click();
      await section.getByText('Saved the rules.').waitFor();
      assert.deepEqual(await stored(), [
        { url: 'https://example.com/fr', conditions: [{ type: 'language', value: 'fr' }] },
        { url: 'https://example.com/ios', conditions: [{ type: 'device', value: 'ios' }] },
      ]);

      await page.reload();
      const items = section.getByRole('listitem');
      await items.first().waitFor();
      assert.deepEqual(
        (await items.allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim()),
        ['If visitor reads fr → https://example.com/fr', 'If device is iPhone or iPad (iOS) → https://example.com/ios'],
      );

      // Test a visit: the server's answer for an iPhone, then for a French reader on Windows, then for neither.
      const trial = page.getByRole('region', { name: 'Test a visit' });
      const tryVisit = async (device: string, languages: string) => {
        await trial.getByLabel('Device').selectOption({ label: device });
        await trial.getByLabel('Languages').fill(languages);
        await trial.getByRole('button', { name: 'Try this visit' }).click();
        const outcome = trial.getByRole('status');
        await outcome.getByText(/matches/).waitFor();
        return (await outcome.textContent())?.replace(/\s+/g, ' ').trim();
      };
      assert.equal(await tryVisit('iPhone (Safari)', 'en-GB'), 'Rule 2 matches. Goes to https://example.com/ios');
      assert.equal(await tryVisit('Windows computer (Chrome)', 'fr-CH, en;q=0.5'), 'Rule 1 matches. Goes to https://example.com/fr');
      assert.equal(await tryVisit('Windows computer (Chrome)', 'de'), 'No rule matches: the destination. Goes to https://example.com/landing');
      for (const size of WIDTHS) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await assertAccessible(page, `link page with rules and a tried visit (${size.name})`);
        await screenshot(page, `rules-and-visit-test-${size.name}`);
      }

      // A rule removed.
      await section.getByRole('button', { name: 'Edit rules' }).click();
      await rule(1).getByRole('button', { name: 'Remove rule 1' }).click();
      await section.getByRole('button', { name: 'Save rules' }).click();
      await section.getByText('Saved the rules.').waitFor();
      assert.deepEqual(await stored(), [{ url: 'https://example.com/ios', conditions: [{ type: 'device', value: 'ios' }] }]);
      assert.equal(await items.count(), 1);

      // The rule left made an A/B split: its target kept as the first, a second added, the weights given.
      await section.getByRole('button', { name: 'Edit rules' }).click();
      await rule(1).getByRole('button', { name: "Split rule 1's visitors between targets (A/B)" }).click();
      assert.equal(await rule(1).getByLabel('Target 1').inputValue(), 'https://example.com/ios');
      await rule(1).getByLabel('Target 2').fill('https://example.com/ios-b');
      await rule(1).getByLabel('Weight 1').fill('30');
      await rule(1).getByLabel('Weight 2').fill('70');
      await section.getByRole('button', { name: 'Save rules' }).click();
      await section.getByText('Saved the rules.').waitFor();
      const split = [
        { url: 'https://example.com/ios', weight: 30 },
        { url: 'https://example.com/ios-b', weight: 70 },
      ];
      assert.deepEqual(await stored(), [{ split, conditions: [{ type: 'device', value: 'ios' }] }]);
      assert.equal(
        (await items.first().textContent())?.replace(/\s+/g, ' ').trim(),
        'If device is iPhone or iPad (iOS) → A/B split: 30% https://example.com/ios, 70% https://example.com/ios-b',
      );

      // The other kinds of controls (a zone with days, hours, a date and time, a query key and value) pass axe at both
      // widths too; cancelled, nothing changes.
      await section.getByRole('button', { name: 'Edit rules' }).click();
      for (const type of ['weekday', 'hours', 'after', 'query']) {
        await rule(1).getByRole('button', { name: 'Add a condition to rule 1' }).click();
        await rule(1)
          .getByRole('group', { name: /^Condition/ })
          .last()
          .getByLabel('Type')
          .selectOption(type);
      }
      await rule(1).getByRole('group', { name: 'Days' }).getByLabel('Sat').check();
      for (const size of WIDTHS) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await assertAccessible(page, `rules editor with every kind of control (${size.name})`);
        await screenshot(page, `rules-editor-controls-${size.name}`);
      }
      await section.getByRole('button', { name: 'Cancel' }).click();
      assert.deepEqual(await stored(), [{ split, conditions: [{ type: 'device', value: 'ios' }] }]);

      // Visits, and what they took on the link's page: two iPhones kept in the split's first target, one in its second,
      // a computer sent to the link's own URL.
      const visit = async (agent: string, cookie?: string) => {
        const answer = await hostRequest(server.port, domain, `/${slug}`, 'GET', { 'user-agent': agent, ...(cookie && { cookie }) });
        assert.equal(answer.status, 302);
      };
      await visit(IPHONE, 'brief_split=10');
      await visit(IPHONE, 'brief_split=20');
      await visit(IPHONE, 'brief_split=90');
      await visit(COMPUTER);
      const byRule = page.getByRole('region', { name: 'Clicks by rule' });
      const counted = async () =>
        Promise.all(
          (await byRule.getByRole('listitem').all()).map(async (item) => [
            (await item.locator('.top-label').textContent())?.replace(/\s+/g, ' ').trim(),
            await item.locator('.top-count').textContent(),
          ]),
        );
      // The events are written every CLICK_FLUSH_MS: the page is read again until they are in.
      let rows: unknown[] = [];
      for (let attempt = 0; attempt < 20 && rows.length < 3; attempt++) {
        await page.reload();
        await byRule
          .getByText(/No clicks by people|Rule 1/)
          .first()
          .waitFor();
        rows = await counted();
        if (rows.length < 3) await page.waitForTimeout(500);
      }
      assert.deepEqual(rows, [
        ['Rule 1, target 1 https://example.com/ios', '2'],
        ['Rule 1, target 2 https://example.com/ios-b', '1'],
        ["Link's own URL https://example.com/landing", '1'],
      ]);
      for (const size of WIDTHS) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await assertAccessible(page, `link page with its clicks by rule (${size.name})`);
        await screenshot(page, `rule-clicks-${size.name}`);
      }

      // A visit limit, from the edit form: the server's 422 at the field, then a limit saved and shown on the link's page.
      await page.goto(`${server.origin}/app/links`);
      await page.getByRole('button', { name: `Edit ${server.origin}/${slug}` }).click();
      const edit = page.getByRole('dialog', { name: 'Edit link' });
      const limit = edit.getByLabel('Visit limit');
      assert.equal(await limit.inputValue(), '', 'no limit yet');
      await limit.fill('0');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit
        .locator('#edit-max-visits-error')
        .getByText(/maxVisits/)
        .waitFor();
      assert.equal(await limit.getAttribute('aria-invalid'), 'true');
      await assertAccessible(page, 'edit form with a refused visit limit');
      await limit.fill('500');
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByText(`Saved ${server.origin}/${slug}.`).waitFor();
      const limited = await fetch(`${server.origin}/v3/shorten/${encodeURIComponent(domain)}/${slug}`, { headers: auth });
      assert.equal(((await limited.json()) as { maxVisits: number | null }).maxVisits, 500);
      await page.goto(linkPage);
      await page.getByRole('region', { name: 'The link' }).getByText('500 visits').waitFor();
    } finally {
      await closePage(page);
      await context.close();
    }

    // A viewer reads the rules and tries visits, but is offered no editor.
    const viewer = await openPage(browser, server.origin, WIDTHS[0]);
    await viewer.page.addInitScript((t) => localStorage.setItem('brief.token', t), viewerToken);
    try {
      await viewer.page.goto(linkPage);
      await viewer.page
        .getByRole('banner')
        .getByText(/as viewer/)
        .waitFor();
      const section = viewer.page.getByRole('region', { name: 'Redirect rules' });
      await section.getByRole('listitem').first().waitFor();
      assert.equal(await section.getByRole('button', { name: 'Edit rules' }).count(), 0);
      const trial = viewer.page.getByRole('region', { name: 'Test a visit' });
      await trial.getByLabel('Device').selectOption({ label: 'iPad (Safari)' });
      await trial.getByRole('button', { name: 'Try this visit' }).click();
      await trial.getByRole('status').getByText('Rule 1 matches.').waitFor();
    } finally {
      await closePage(viewer.page);
      await viewer.context.close();
    }
  });
});

/** Waits until the focus is on the button named `name` (the focus moves once the list is drawn again). */
async function focused(page: Page, name: string): Promise<void> {
  await page.waitForFunction((text) => document.activeElement?.textContent === text, name);
}

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const COMPUTER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

async function closePage(page: Page): Promise<void> {
  if (!page.isClosed()) await page.close();
}
