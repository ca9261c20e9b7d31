// The webhooks of changes to many links at once (decision 0045), on both dialects: an import batch writes links.imported
// in its own write, up to 1,000 links a delivery, to the endpoints that asked for link.created (SQLite: on this
// connection and on the background thread); a domain removed with its links writes links.deleted. Each is sent signed,
// every link as a one-link event shows it; a dry run and a re-run (every row skipped) write nothing.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { linkUuid } from '../../src/accounts/ids.js';
import { OutboundClient } from '../../src/net/outbound-request.js';
import type { WebhookEventType } from '../../src/storage/stores/webhooks.js';
import { WebhookDeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { newSecret } from '../../src/webhooks/webhook-signature.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';
import { importedLink } from '../support/imported-links.js';
import { startReceiver } from '../support/webhook-receiver.js';

const client = new OutboundClient({ allowHosts: ['127.0.0.1'], userAgent: 'Brief-Webhooks/1 (+http://short.test)' });
const prefixes = async (hostname: string) => `http://${hostname}`;
const quiet = { info: () => {}, warn: () => {} };

const imported = (n: number, accountId: number, domain: string, tag: string) =>
  importedLink({
    originKey: `/bulk-${domain}-${n}`,
    accountId,
    domain,
    // Every third row keeps its key (a custom slug); the rest get codes.
    key: n % 3 === 0 ? `${tag}-${n}` : null,
    url: `https://example.com/bulk/${n}`,
    title: n === 0 ? 'first' : null,
  });
const rows = (count: number, accountId: number, tag: string, domain = 'short.test') =>
  Array.from({ length: count }, (_, n) => imported(n, accountId, domain, tag));

for (const dialect of dialects) {
  describe(`bulk link webhooks (${dialect})`, () => {
    let test: TestDatabase;
    before(async () => {
      test = await openTestDatabase(dialect);
    });
    after(async () => test?.cleanup());
    beforeEach(async () => {
      await test.database.db.deleteFrom('webhook_deliveries').execute();
    });

    async function endpoint(events: WebhookEventType[], url = 'http://127.0.0.1:9/never-sent') {
      const account = await test.database.accounts.create(`bulk${Math.random().toString(36).slice(2, 8)}`);
      const secret = newSecret();
      const record = await test.database.webhooks.add({ accountId: account!.id, url, events, includeBots: false, secret });
      return { accountId: account!.id, record, secret };
    }
    const deliveries = async () =>
      test.database.db.selectFrom('webhook_deliveries').select(['endpoint_id', 'event_id', 'type', 'data']).orderBy('id').execute();

    // SQLite writes a batch on this connection with a server on the file, on the background thread when alone.
    for (const alone of dialect === 'sqlite' ? [false, true] : [false]) {
      it(`writes links.imported in the import batch's write, 1,000 links a delivery${alone ? ' (background thread)' : ''}`, async () => {
        const { accountId, record } = await endpoint(['link.created']);
        const deletesOnly = await endpoint(['link.deleted']);
        const source = `bulk-${alone}`;
        const outcomes = await test.database.imports.write(source, rows(1500, accountId, source), () => 7, false, alone);
        assert.equal(outcomes.filter((outcome) => 'imported' in outcome).length, 1500);
        await test.database.imports.write(`${source}-other`, rows(3, deletesOnly.accountId, `${source}-other`), () => 7, false, alone);
        const written = await deliveries();
        assert.deepEqual(
          written.map((row) => [row.endpoint_id, row.type]),
          [
            [record.id, 'links.imported'],
            [record.id, 'links.imported'],
          ],
        );
        assert.notEqual(written[0]!.event_id, written[1]!.event_id);
        const chunks = written.map((row) => JSON.parse(row.data) as { source: string; links: Array<{ linkId: number; slug: string | null }> });
        assert.deepEqual(
          chunks.map((chunk) => [chunk.source, chunk.links.length]),
          [
            [source, 1000],
            [source, 500],
          ],
        );
        const ids = chunks.flatMap((chunk) => chunk.links.map((link) => link.linkId));
        assert.deepEqual(
          ids,
          outcomes.map((outcome) => ('imported' in outcome ? outcome.imported.id : 0)),
        );
        assert.equal(chunks[0]!.links[3]!.slug, `${source}-3`);
        assert.equal(chunks[0]!.links[1]!.slug, null);
        // Imported again (every row skipped) or as a dry run: no event.
        await test.database.imports.write(source, rows(1500, accountId, source), () => 7, false, alone);
        await test.database.imports.write(`${source}-dry`, rows(10, accountId, `${source}-dry`), () => 7, true, alone);
        assert.equal((await deliveries()).length, 2);
      });
    }

    it('sends links.imported signed, each link as link.created shows it', async () => {
      const target = await startReceiver();
      try {
        const { accountId, record, secret } = await endpoint(['link.created'], target.url);
        const outcomes = await test.database.imports.write('bulk-sent', rows(4, accountId, 'sent'), () => 7, false);
        assert.equal(await new WebhookDeliveryWorker(test.database.webhookDeliveries, client, prefixes, quiet).runOnce(), 1);
        const { headers, body } = target.received[0]!;
        const event = new Webhook(secret).verify(body, headers) as { type: string; data: { source: string; links: Array<Record<string, unknown>> } };
        assert.equal(event.type, 'links.imported');
        assert.equal(event.data.source, 'bulk-sent');
        const first = outcomes[0]!;
        assert.ok('imported' in first);
        assert.deepEqual(event.data.links[0], {
          id: linkUuid(first.imported.id),
          workspaceId: event.data.links[0]!.workspaceId,
          domain: 'short.test',
          slug: 'sent-0',
          isCustomSlug: true,
          shortUrl: 'http://short.test/sent-0',
          url: 'https://example.com/bulk/0',
          title: 'first',
          comment: '',
          createdAt: event.data.links[0]!.createdAt,
          updatedAt: null,
          expiresAt: null,
          deletedAt: null,
        });
        assert.equal(event.data.links[1]!.isCustomSlug, false);
        assert.equal((await test.database.webhookDeliveries.deliveriesOf(record.id, 10))[0]!.status, 'delivered');
      } finally {
        await target.close();
      }
    });

    it("writes links.deleted when a domain is removed with its links, in the removal's write", async () => {
      const { accountId, record } = await endpoint(['link.deleted']);
      const createsOnly = await endpoint(['link.created']);
      await test.database.domains.add({
        hostname: 'gone.example',
        urlPrefix: 'https://gone.example',
        accountId,
        verifiedAt: null,
        verificationToken: 'tok',
      });
      const outcomes = await test.database.imports.write('bulk-gone', rows(3, accountId, 'gone', 'gone.example'), () => 7, false);
      await test.database.db.deleteFrom('webhook_deliveries').execute();
      const keys = await test.database.domains.removeWithLinks('gone.example');
      assert.equal(keys?.length, 3);
      const written = await deliveries();
      assert.deepEqual(
        written.map((row) => [row.endpoint_id, row.type]),
        [[record.id, 'links.deleted']],
      );
      assert.notEqual(written[0]!.endpoint_id, createsOnly.record.id);
      const data = JSON.parse(written[0]!.data) as { domain: string; links: Array<{ linkId: number; deletedAt: number | null; url: string }> };
      assert.equal(data.domain, 'gone.example');
      assert.deepEqual(
        data.links.map((link) => link.linkId).sort((a, b) => a - b),
        outcomes.map((outcome) => ('imported' in outcome ? outcome.imported.id : 0)).sort((a, b) => a - b),
      );
      assert.ok(data.links.every((link) => link.deletedAt !== null && link.url.startsWith('https://example.com/bulk/')));
    });
  });
}
