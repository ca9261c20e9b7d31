// Settings → Webhooks in real Chromium (issue 41): New webhook (URL, events as checkboxes; the secret shown once with
// Copy), the list, "Send test event" and its delivery shown with status, attempts and response, a disabled webhook's
// reason and Re-enable, an error under its field, Remove; no serious axe violation at a phone's and a desktop's width.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { assertAccessible, openPage, screenshot, suiteWithToken, WIDTHS } from './browser.js';

describe('web app in Chromium: webhooks', { timeout: 300_000 }, () => {
  const suite = suiteWithToken('brief-browser-webhooks-', 'hooks', { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
  let receiver: Receiver;
  let hookUrl = '';
  before(async () => {
    receiver = await startReceiver();
    hookUrl = receiver.url;
  });
  after(() => receiver.close());

  for (const width of WIDTHS) {
    it(`adds a webhook, sends it a test event and shows the delivery, removes it (${width.name})`, async () => {
      const { server, browser, value: token } = suite;
      const { page } = await openPage(browser, server.origin, width);
      try {
        await page.addInitScript((t) => localStorage.setItem('brief.token', t), token);
        await page.goto(`${server.origin}/app/settings`);
        await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
        await page.getByText('No webhooks.').waitFor();

        await page.getByRole('button', { name: 'New webhook' }).click();
        const dialog = page.getByRole('dialog', { name: 'New webhook' });
        await dialog.getByLabel('Endpoint URL').fill('http://hooks.example.com/plain');
        await dialog.getByRole('button', { name: 'Add' }).click();
        await dialog.getByRole('alert').filter({ hasText: 'only https' }).waitFor();
        await assertAccessible(page, `the New webhook dialog with an error (${width.name})`);
        await dialog.getByLabel('Endpoint URL').fill(`${hookUrl}?${width.name}`);
        await dialog.getByRole('button', { name: 'Add' }).click();

        const shown = page.getByRole('dialog', { name: 'Webhook added' });
        const secret = await shown.getByRole('textbox').inputValue();
        assert.match(secret, /^whsec_/);
        await screenshot(page, `webhooks-secret-${width.name}`);
        await shown.getByRole('button', { name: 'Done' }).click();
        await page.getByRole('heading', { name: `${hookUrl}?${width.name}` }).waitFor();
        assert.ok(!(await page.content()).includes(secret), 'the secret is not on the page once its dialog is closed');

        const before = receiver.received.length;
        await page.getByRole('button', { name: `Send test event to ${hookUrl}?${width.name}` }).click();
        await page.getByRole('status').filter({ hasText: 'Test event sent.' }).waitFor();
        const row = page.locator('table.tokens tbody tr').filter({ hasText: 'webhook.test' });
        await row.filter({ hasText: 'delivered' }).waitFor();
        assert.match((await row.textContent())!, /webhook\.test\s*delivered\s*1\s*204/);
        assert.equal(receiver.received.length, before + 1);
        const event = new Webhook(secret).verify(receiver.received.at(-1)!.body, receiver.received.at(-1)!.headers) as { type: string };
        assert.equal(event.type, 'webhook.test');
        await assertAccessible(page, `Settings with a webhook and its deliveries (${width.name})`);
        await screenshot(page, `webhooks-${width.name}`);

        // Turned off (as after 3 days of failures), the card shows why and Re-enable puts it back.
        const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const hooks = (await (await fetch(`${server.origin}/v3/webhooks`, { headers: auth })).json()) as Array<{ id: number; url: string }>;
        const { id } = hooks.find((hook) => hook.url === `${hookUrl}?${width.name}`)!;
        const off = await fetch(`${server.origin}/v3/webhooks/${id}`, { method: 'PATCH', headers: auth, body: JSON.stringify({ enabled: false }) });
        assert.equal(off.status, 200);
        await page.reload();
        await page.getByText('Turned off by an admin of the workspace.').waitFor();
        await page.getByRole('button', { name: `Re-enable ${hookUrl}?${width.name}` }).click();
        await page.getByRole('status').filter({ hasText: 'Re-enabled the webhook' }).waitFor();
        await page.getByRole('button', { name: `Re-enable ${hookUrl}?${width.name}` }).waitFor({ state: 'detached' });
        assert.equal(
          ((await (await fetch(`${server.origin}/v3/webhooks`, { headers: auth })).json()) as Array<{ disabledAt: null }>)[0]!.disabledAt,
          null,
        );

        await page.getByRole('button', { name: `Remove ${hookUrl}?${width.name}` }).click();
        await page.getByRole('dialog', { name: 'Remove this webhook?' }).getByRole('button', { name: 'Remove' }).click();
        await page.getByText('No webhooks.').waitFor();
      } finally {
        await page.close();
      }
    });
  }
});
