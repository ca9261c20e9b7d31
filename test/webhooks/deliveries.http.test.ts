// Webhook deliveries through the app (issue 41): a link made through the API reaches a subscribed receiver, signed
// (verified by standardwebhooks); "Send test event" delivers webhook.test at once; the deliveries list shows each
// with its status, attempts and answer; another workspace's webhook is not found. The app's own worker sends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { eventually, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

for (const dialect of dialects) {
  describe(`webhook deliveries (${dialect})`, () => {
    const ctx = useTestApp(dialect, { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
    let status = 200;
    let receiver: Receiver;
    let url = '';
    before(async () => {
      receiver = await startReceiver({ answer: (_request, response) => response.writeHead(status).end() });
      url = receiver.url;
    });
    after(() => receiver.close());
    const call = (headers: Record<string, string>, method: string, path: string, body?: unknown) =>
      ctx.t.app.inject({
        method: method as 'GET',
        url: path,
        headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });

    it('delivers link.created for a link made through the API, signed, and lists the delivery', async () => {
      const owner = await ctx.t.account('deliver');
      const hook = (await call(owner.headers, 'POST', '/v3/webhooks', { url, events: ['link.created'] })).json();
      const made = await call(owner.headers, 'POST', '/v3/shorten/bulk', [{ url: 'https://example.com/delivered' }]);
      assert.equal(made.statusCode, 200, made.body);
      const arrived = await eventually(async () => receiver.received.some(({ body }) => body.includes('https://example.com/delivered')), 150);
      assert.ok(arrived, 'the receiver got the event');
      const delivery = receiver.received.find(({ body }) => body.includes('https://example.com/delivered'))!;
      const event = new Webhook(hook.secret).verify(delivery.body, delivery.headers) as { type: string; data: { id: string; shortUrl: string } };
      assert.equal(event.type, 'link.created');
      assert.equal(event.data.id, made.json()[0].id);
      assert.equal(event.data.shortUrl, made.json()[0].shortLink);
      const listed = await eventually(async () => {
        const list = (await call(owner.headers, 'GET', `/v3/webhooks/${hook.id}/deliveries`)).json();
        return list.length === 1 && list[0].status === 'delivered';
      }, 150);
      assert.ok(listed);
      const [entry] = (await call(owner.headers, 'GET', `/v3/webhooks/${hook.id}/deliveries`)).json();
      assert.equal(entry.eventId, delivery.headers['webhook-id']);
      assert.deepEqual(
        [entry.type, entry.attempts, entry.responseStatus, entry.lastError, entry.nextAttemptAt],
        ['link.created', 1, 200, null, null],
      );
    });

    it('delivers link.clicked with the stored visits, folded, bots only to an endpoint that asked for them', async () => {
      const owner = await ctx.t.account('clicks');
      const people = (await call(owner.headers, 'POST', '/v3/webhooks', { url: `${url}?people`, events: ['link.clicked'] })).json();
      const everyone = (
        await call(owner.headers, 'POST', '/v3/webhooks', { url: `${url}?everyone`, events: ['link.clicked'], includeBots: true })
      ).json();
      const made = (await call(owner.headers, 'POST', '/v3/shorten/bulk', [{ url: 'https://example.com/clicked' }])).json()[0];
      const key = new URL(made.shortLink).pathname.slice(1);
      const visit = (agent: string) => ctx.t.app.inject({ url: `/${key}`, headers: { host: new URL(made.shortLink).host, 'user-agent': agent } });
      const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
      assert.equal((await visit(browser)).statusCode, 301);
      assert.equal((await visit(browser)).statusCode, 301);
      assert.equal((await visit('Googlebot/2.1 (+http://www.google.com/bot.html)')).statusCode, 301);
      const clicksTo = (secret: string) =>
        receiver.received
          .filter(({ body }) => body.includes('"link.clicked"'))
          .flatMap(({ headers, body }) => {
            try {
              return [
                (new Webhook(secret).verify(body, headers) as { data: { clicks: Array<{ linkId: string; bot: string | null; clicks: number }> } })
                  .data.clicks,
              ];
            } catch {
              return []; // another endpoint's delivery
            }
          })
          .flat()
          .filter((click) => click.linkId === made.id);
      const total = (clicks: Array<{ clicks: number }>) => clicks.reduce((sum, click) => sum + click.clicks, 0);
      assert.ok(await eventually(async () => total(clicksTo(people.secret)) === 2 && total(clicksTo(everyone.secret)) === 3, 250));
      assert.ok(
        clicksTo(people.secret).every((click) => click.bot === null),
        'no bot for the people-only endpoint',
      );
      assert.ok(clicksTo(everyone.secret).some((click) => click.bot !== null));
    });

    it('sends a test event at once; a failing answer shows as pending with its status', async () => {
      const owner = await ctx.t.account('test-event');
      const hook = (await call(owner.headers, 'POST', '/v3/webhooks', { url, events: ['link.deleted'] })).json();
      status = 500;
      try {
        const sent = await call(owner.headers, 'POST', `/v3/webhooks/${hook.id}/test`);
        assert.equal(sent.statusCode, 200, sent.body);
        assert.equal(sent.json().type, 'webhook.test');
        assert.equal(sent.json().status, 'pending');
        const failed = await eventually(async () => {
          const [entry] = (await call(owner.headers, 'GET', `/v3/webhooks/${hook.id}/deliveries`)).json();
          return entry?.attempts === 1;
        }, 150);
        assert.ok(failed);
        const [entry] = (await call(owner.headers, 'GET', `/v3/webhooks/${hook.id}/deliveries`)).json();
        assert.deepEqual([entry.status, entry.responseStatus, entry.lastError], ['pending', 500, 'answered 500']);
        assert.ok(Date.parse(entry.nextAttemptAt) > Date.now());
        const test = receiver.received.find(({ headers }) => headers['webhook-id'] === entry.eventId)!;
        const body = new Webhook(hook.secret).verify(test.body, test.headers) as { type: string; data: { webhookId: number } };
        assert.equal(body.type, 'webhook.test');
        assert.equal(body.data.webhookId, hook.id);
      } finally {
        status = 200;
      }
    });

    it('counts attempts by outcome and shows the queue in GET /metrics', async () => {
      const scrape = async () => (await ctx.t.app.inject({ url: '/metrics', headers: { host: 'short.test' } })).body;
      const sample = (text: string, name: string) => Number(new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
      const text = await scrape();
      // The tests above delivered one event and saw one answered 500 (now pending a retry).
      assert.ok(sample(text, 'brief_webhook_deliveries_total{outcome="delivered"}') >= 1, text);
      assert.ok(sample(text, 'brief_webhook_deliveries_total{outcome="retried"}') >= 1);
      assert.equal(sample(text, 'brief_webhook_deliveries_total{outcome="failed"}'), 0);
      assert.ok(sample(text, 'brief_webhook_queue_depth') >= 1);
      assert.ok(sample(text, 'brief_webhook_oldest_undelivered_seconds') > 0);
    });

    it('answers 404 for another workspace’s webhook', async () => {
      const owner = await ctx.t.account('mine');
      const other = await ctx.t.account('theirs');
      const hook = (await call(owner.headers, 'POST', '/v3/webhooks', { url, events: ['link.created'] })).json();
      for (const [method, path] of [
        ['POST', `/v3/webhooks/${hook.id}/test`],
        ['GET', `/v3/webhooks/${hook.id}/deliveries`],
      ] as const) {
        const answer = await call(other.headers, method, path);
        assert.equal(answer.statusCode, 404, `${method} ${path}`);
        assert.equal(answer.json().message, 'Webhook not found');
      }
      assert.deepEqual((await call(owner.headers, 'GET', `/v3/webhooks/${hook.id}/deliveries`)).json(), []);
    });
  });
}
