// The outbox and the delivery worker (decision 0045), on both dialects: a link's change writes its deliveries in the
// same write (and none when no endpoint asked); the worker sends each signed (verified by standardwebhooks), with the
// body of its event type; a failing receiver is retried with backoff and the same webhook-id until it recovers, and
// given up after 24 hours; a claim is a lease that another worker takes over once it runs out.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { linkUuid } from '../../src/accounts/ids.js';
import { OutboundClient } from '../../src/net/outbound-request.js';
import { retryDelay, WebhookDeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { newSecret } from '../../src/webhooks/webhook-signature.js';
import { createStoreLink, dialects, openTestDatabase, type TestDatabase } from '../support/database.js';
import { startReceiver } from '../support/webhook-receiver.js';

/** A receiver on loopback answering each request with the next status of `statuses` (the last one after). */
const receiver = (statuses: number[]) =>
  startReceiver({ answer: (_request, response, count) => response.writeHead(statuses[Math.min(count, statuses.length) - 1]!).end('ok') });

const quiet = { info: () => {}, warn: () => {} };

async function eventuallyTrue(check: () => boolean, timeoutMs = 5000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (check()) return true;
  }
  return check();
}
const client = new OutboundClient({ allowHosts: ['127.0.0.1'], userAgent: 'Brief-Webhooks/1 (+http://short.test)' });
const prefixes = async (hostname: string) => `http://${hostname}`;

for (const dialect of dialects) {
  describe(`webhook outbox and delivery (${dialect})`, () => {
    let test: TestDatabase;
    let accountId: number;
    let clock: number;
    before(async () => {
      test = await openTestDatabase(dialect);
    });
    after(async () => test?.cleanup());
    // Each test sees only its own deliveries (and none is ever sent anywhere but to this machine).
    beforeEach(async () => {
      await test.database.db.deleteFrom('webhook_deliveries').execute();
    });

    const worker = (options = {}) => new WebhookDeliveryWorker(test.database.webhookDeliveries, client, prefixes, quiet, options, () => clock);

    async function endpoint(url: string, events: Parameters<typeof test.database.webhooks.add>[0]['events']) {
      const account = await test.database.accounts.create(`hooks${Math.random().toString(36).slice(2, 8)}`);
      accountId = account!.id;
      const secret = newSecret();
      const record = await test.database.webhooks.add({ accountId, url, events, includeBots: false, secret });
      return { record, secret };
    }

    const pending = async () => test.database.db.selectFrom('webhook_deliveries').selectAll().where('status', '=', 'pending').execute();

    it('writes a link event with the change, and sends each type with its body, signed', async () => {
      const target = await receiver([200]);
      try {
        const { record, secret } = await endpoint(target.url, ['link.created', 'link.updated', 'link.deleted']);
        const linkId = await createStoreLink(test.database, accountId, 'hooked');
        const link = (await test.database.links.findByIds(accountId, [linkId]))[0]!;
        await test.database.links.update(link, { comment: 'changed' });
        await test.database.links.markDeleted(link);
        // Another account's change writes nothing for this endpoint.
        const stranger = await test.database.accounts.create(`other${Math.random().toString(36).slice(2, 8)}`);
        await createStoreLink(test.database, stranger!.id, 'unhooked');
        assert.deepEqual(
          (await test.database.webhookDeliveries.deliveriesOf(record.id, 10)).map((d) => d.type),
          ['link.deleted', 'link.updated', 'link.created'],
        );
        clock = Date.now();
        assert.equal(await worker().runOnce(), 3);
        assert.equal(target.received.length, 3);
        const bodies = target.received.map(({ headers, body }) => {
          // The receiver's check, by the Standard Webhooks library.
          const verified = new Webhook(secret).verify(body, headers) as Record<string, any>;
          assert.equal(headers['user-agent'], 'Brief-Webhooks/1 (+http://short.test)');
          assert.match(String(headers['webhook-id']), /^msg_[A-Za-z0-9_-]{22}$/);
          return verified;
        });
        const byType = Object.fromEntries(bodies.map((body) => [body.type, body]));
        assert.deepEqual(Object.keys(byType).sort(), ['link.created', 'link.deleted', 'link.updated']);
        const created = byType['link.created']!;
        assert.deepEqual(Object.keys(created).sort(), ['data', 'timestamp', 'type']);
        assert.equal(created.data.id, linkUuid(linkId));
        assert.equal(created.data.url, 'https://example.com/hooked');
        assert.equal(created.data.shortUrl, `http://${link.domain}/${link.key}`);
        assert.equal(created.data.deletedAt, null);
        assert.equal(byType['link.updated']!.data.comment, 'changed');
        assert.ok(byType['link.updated']!.data.updatedAt);
        assert.ok(byType['link.deleted']!.data.deletedAt);
        const statuses = (await test.database.webhookDeliveries.deliveriesOf(record.id, 10)).map((d) => [d.status, d.attempts, d.responseStatus]);
        assert.deepEqual(statuses, [
          ['delivered', 1, 200],
          ['delivered', 1, 200],
          ['delivered', 1, 200],
        ]);
        assert.equal(await worker().runOnce(), 0, 'nothing twice');
      } finally {
        await target.close();
      }
    });

    it('writes domain.verified when a private domain is verified, once', async () => {
      const { record } = await endpoint('http://127.0.0.1:9/never-sent', ['domain.verified']);
      await test.database.domains.add({
        hostname: 'hooked.example',
        urlPrefix: 'https://hooked.example',
        accountId,
        verifiedAt: null,
        verificationToken: 'tok',
      });
      assert.equal(await test.database.domains.markVerified('hooked.example'), true);
      assert.equal(await test.database.domains.markVerified('hooked.example'), true);
      assert.equal(await test.database.domains.markVerified('nosuch.example'), false);
      const deliveries = await test.database.webhookDeliveries.deliveriesOf(record.id, 10);
      assert.deepEqual(
        deliveries.map((d) => d.type),
        ['domain.verified'],
      );
      assert.equal(JSON.parse(deliveries[0]!.data).domain, 'hooked.example');
    });

    it('retries a failing receiver with backoff and the same webhook-id until it recovers', async () => {
      const target = await receiver([500, 503, 200]);
      try {
        const { record } = await endpoint(target.url, ['link.created']);
        await createStoreLink(test.database, accountId, 'retried');
        const sender = worker({ retryBaseMs: 1000 });
        clock = Date.now();
        assert.equal(await sender.runOnce(), 1);
        let [delivery] = await test.database.webhookDeliveries.deliveriesOf(record.id, 1);
        assert.deepEqual([delivery!.status, delivery!.attempts, delivery!.responseStatus, delivery!.lastError], ['pending', 1, 500, 'answered 500']);
        const firstDelay = delivery!.nextAttemptAt - clock;
        assert.ok(firstDelay >= 500 && firstDelay <= 1000, `first retry in ${firstDelay} ms`);
        assert.equal(await sender.runOnce(), 0, 'not before it is due');
        clock = delivery!.nextAttemptAt;
        assert.equal(await sender.runOnce(), 1);
        [delivery] = await test.database.webhookDeliveries.deliveriesOf(record.id, 1);
        const secondDelay = delivery!.nextAttemptAt - clock;
        assert.ok(secondDelay >= 1000 && secondDelay <= 2000, `second retry in ${secondDelay} ms`);
        clock = delivery!.nextAttemptAt;
        assert.equal(await sender.runOnce(), 1);
        [delivery] = await test.database.webhookDeliveries.deliveriesOf(record.id, 1);
        assert.deepEqual([delivery!.status, delivery!.attempts, delivery!.responseStatus, delivery!.lastError], ['delivered', 3, 200, null]);
        assert.equal(new Set(target.received.map(({ headers }) => headers['webhook-id'])).size, 1, 'one webhook-id for every attempt');
      } finally {
        await target.close();
      }
    });

    it('gives a delivery up 24 hours after its event, and records why each attempt failed', async () => {
      const { record } = await endpoint('http://127.0.0.1:9/closed', ['link.created']);
      await createStoreLink(test.database, accountId, 'given-up');
      clock = Date.now();
      const sender = worker();
      await sender.runOnce();
      let [delivery] = await test.database.webhookDeliveries.deliveriesOf(record.id, 1);
      assert.equal(delivery!.status, 'pending');
      assert.match(delivery!.lastError ?? '', /ECONNREFUSED/);
      clock = delivery!.createdAt + 24 * 3_600_000;
      await sender.runOnce();
      [delivery] = await test.database.webhookDeliveries.deliveriesOf(record.id, 1);
      assert.deepEqual([delivery!.status, delivery!.attempts], ['failed', 2]);
      assert.equal(await sender.runOnce(), 0);
    });

    it('lets a claim run out: a delivery claimed by a worker that died is taken by another after the lease', async () => {
      const target = await receiver([200]);
      try {
        const { record } = await endpoint(target.url, ['link.created']);
        await createStoreLink(test.database, accountId, 'leased');
        clock = Date.now();
        // The dead worker's claim: taken, never finished.
        const claimed = await test.database.webhookDeliveries.claimDue(clock, 60_000, 10);
        assert.equal(claimed.filter(({ endpoint: e }) => e.id === record.id).length, 1);
        assert.equal(await worker().runOnce(), 0, 'held by the claim');
        clock += 60_001;
        assert.equal(await worker().runOnce(), 1);
        assert.equal(target.received.length, 1);
        assert.deepEqual(await pending(), []);
      } finally {
        await target.close();
      }
    });

    it('disables an endpoint whose every attempt failed for 3 days, says why, and writes it no more events', async () => {
      const { record } = await endpoint('http://127.0.0.1:9/down', ['link.created']);
      const sender = worker();
      const start = Date.now();
      clock = start;
      await createStoreLink(test.database, accountId, 'down-1');
      await sender.runOnce();
      assert.equal((await test.database.webhooks.endpointOf(accountId, record.id))?.disabledAt, null, 'one failure disables nothing');
      // A success ends the run of failures.
      const up = await receiver([200]);
      await test.database.db.updateTable('webhook_endpoints').set({ url: up.url }).where('id', '=', record.id).execute();
      clock = start + 2 * 86_400_000;
      await test.database.db.updateTable('webhook_deliveries').set({ next_attempt_at: clock }).where('endpoint_id', '=', record.id).execute();
      await sender.runOnce();
      await up.close();
      assert.equal(up.received.length, 1);
      assert.equal((await test.database.webhooks.endpointOf(accountId, record.id))?.disabledAt, null);
      /** The deliveries waiting now made as of `at` (their event and due time), then one round of the sender. */
      const sendPendingAt = async (at: number) => {
        await test.database.db
          .updateTable('webhook_deliveries')
          .set({ next_attempt_at: at, created_at: at })
          .where('status', '=', 'pending')
          .execute();
        await sender.runOnce();
      };
      // Down again: failing from day 2 to day 5 disables it.
      await test.database.db.updateTable('webhook_endpoints').set({ url: 'http://127.0.0.1:9/down' }).where('id', '=', record.id).execute();
      await createStoreLink(test.database, accountId, 'down-2');
      clock = start + 2 * 86_400_000 + 1000;
      await sendPendingAt(clock);
      await createStoreLink(test.database, accountId, 'down-3');
      clock = start + 5 * 86_400_000 + 2000;
      await sendPendingAt(clock);
      const disabled = await test.database.webhooks.endpointOf(accountId, record.id);
      assert.equal(disabled?.disabledAt, clock);
      assert.match(disabled?.disabledReason ?? '', /^Every delivery failed for 3 days; the last: .*ECONNREFUSED/);
      const before = (await test.database.webhookDeliveries.deliveriesOf(record.id, 100)).length;
      await createStoreLink(test.database, accountId, 'down-4');
      assert.equal(
        (await test.database.webhookDeliveries.deliveriesOf(record.id, 100)).length,
        before,
        'no event is written for a disabled endpoint',
      );
      // What was written before it was disabled is failed, not sent.
      clock += 3_600_000;
      await test.database.db.updateTable('webhook_deliveries').set({ next_attempt_at: clock }).where('status', '=', 'pending').execute();
      await sender.runOnce();
      assert.deepEqual(await pending(), []);
      const [last] = await test.database.webhookDeliveries.deliveriesOf(record.id, 1);
      assert.deepEqual([last?.status, last?.lastError], ['failed', 'the webhook is disabled']);
    });

    it('forgets delivered and failed deliveries 7 days after their event, never a pending one', async () => {
      const { record } = await endpoint('http://127.0.0.1:9/old', ['link.created']);
      for (const name of ['old-1', 'old-2', 'old-3']) await createStoreLink(test.database, accountId, name);
      const [first, second] = await test.database.webhookDeliveries.deliveriesOf(record.id, 3);
      const week = 7 * 86_400_000;
      await test.database.db.updateTable('webhook_deliveries').set({ status: 'delivered' }).where('id', '=', first!.id).execute();
      await test.database.db.updateTable('webhook_deliveries').set({ status: 'failed' }).where('id', '=', second!.id).execute();
      // The pending one is not due in this test: only what is forgotten is looked at.
      await test.database.db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: Date.now() + 10 * week })
        .where('status', '=', 'pending')
        .execute();
      clock = Date.now() + week - 60_000;
      await worker().runOnce();
      assert.equal((await test.database.webhookDeliveries.deliveriesOf(record.id, 10)).length, 3, 'kept for 7 days');
      clock = Date.now() + week + 60_000;
      await test.database.db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: clock + 3_600_000 })
        .where('status', '=', 'pending')
        .execute();
      await worker().runOnce();
      const left = await test.database.webhookDeliveries.deliveriesOf(record.id, 10);
      assert.deepEqual(
        left.map((d) => d.status),
        ['pending'],
      );
    });

    it('sends on while a receiver hangs: it holds one place of the sends in flight, not the others’ deliveries', async () => {
      const hanging = await startReceiver({ answer: () => {} });
      const fast = await receiver([200]);
      const started = worker({ pollMs: 20 });
      try {
        await endpoint(hanging.url, ['link.created']);
        await createStoreLink(test.database, accountId, 'to-hanging');
        clock = Date.now() + 60_000; // ahead of every event this test writes
        started.start();
        assert.ok(await eventuallyTrue(() => hanging.received.length === 1), 'the hanging receiver got its delivery');
        // A later event, another account's receiver: sent while the first one still hangs.
        await endpoint(fast.url, ['link.created']);
        await createStoreLink(test.database, accountId, 'to-fast');
        assert.ok(await eventuallyTrue(() => fast.received.length === 1), 'the fast receiver was not held up');
      } finally {
        await hanging.close(); // ends the hanging send (an error, recorded), so stop does not wait its 10 s
        await started.stop();
        await fast.close();
      }
    });

    it('stops at once while a receiver hangs, leaving its delivery pending and unattempted for the next start', async () => {
      const hanging = await startReceiver({ answer: () => {} });
      const fast = await receiver([200]);
      const started = worker({ pollMs: 20 });
      try {
        const { record } = await endpoint(hanging.url, ['link.created']);
        await createStoreLink(test.database, accountId, 'stop-hanging');
        clock = Date.now() + 60_000;
        started.start();
        assert.ok(await eventuallyTrue(() => hanging.received.length === 1), 'the hanging receiver got its delivery');
        const began = performance.now();
        await started.stop();
        assert.ok(performance.now() - began < 2000, `stop took ${Math.round(performance.now() - began)} ms, not the send's 10 s`);
        const [held] = await test.database.webhookDeliveries.deliveriesOf(record.id, 10);
        assert.deepEqual([held!.status, held!.attempts, held!.lastError], ['pending', 0, null]);
        const row = await test.database.db
          .selectFrom('webhook_deliveries')
          .select('claimed_until')
          .where('id', '=', held!.id)
          .executeTakeFirstOrThrow();
        assert.equal(row.claimed_until, null, 'released: due at once, not after the lease');
        // The next start (the receiver answering now) sends it, with the same webhook-id.
        await test.database.db.updateTable('webhook_endpoints').set({ url: fast.url }).where('id', '=', record.id).execute();
        assert.equal(await worker().runOnce(), 1);
        assert.equal(fast.received[0]!.headers['webhook-id'], held!.eventId);
        assert.equal(hanging.received[0]!.headers['webhook-id'], held!.eventId);
      } finally {
        await started.stop();
        await hanging.close();
        await fast.close();
      }
    });

    it('writes nothing for an account without endpoints', async () => {
      const lonely = await test.database.accounts.create(`lonely${Math.random().toString(36).slice(2, 8)}`);
      const before = (await test.database.db.selectFrom('webhook_deliveries').select('id').execute()).length;
      await createStoreLink(test.database, lonely!.id, 'lonely');
      assert.equal((await test.database.db.selectFrom('webhook_deliveries').select('id').execute()).length, before);
    });
  });
}

describe('retryDelay', () => {
  it('doubles from the base up to the cap, each between half and all of it', () => {
    const options = { retryBaseMs: 5000, maxDelayMs: 3_600_000 };
    assert.deepEqual(
      [1, 2, 3, 4].map((attempt) => retryDelay(attempt, options, () => 1)),
      [5000, 10_000, 20_000, 40_000],
    );
    assert.equal(
      retryDelay(1, options, () => 0),
      2500,
    );
    assert.equal(
      retryDelay(40, options, () => 1),
      3_600_000,
    );
  });
});
