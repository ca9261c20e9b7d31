// `brief webhook add|list|test|deliveries|enable|remove` (issue 41), as real processes beside a running server, which sends
// what the CLI queues: the test event arrives signed with the secret `add` printed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { eventually, serverSuite } from '../scale-support/server-process.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

describe('webhooks from the CLI', () => {
  const suite = serverSuite('brief-webhook-cli-', () => ({ BASE_URL: 'http://short.test', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' }));
  const { cli, cliFails } = suite;
  let receiver: Receiver;

  before(async () => {
    await cli('account', 'create', 'alice');
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  it('adds a webhook (the secret printed once), lists it, sends it a test event, shows the delivery, removes it', async () => {
    const { url, received } = receiver;
    const out = (await cli('webhook', 'add', 'alice', url, '--event', 'link.created', '--event', 'link.clicked')).trim().split('\n');
    assert.match(out[0]!, new RegExp(`^added webhook (\\d+) for alice: ${url} \\(link.created, link.clicked\\)$`));
    const id = /webhook (\d+)/.exec(out[0]!)![1]!;
    const secret = out.at(-1)!;
    assert.match(secret, /^whsec_/);
    const list = await cli('webhook', 'list', 'alice');
    assert.match(list, new RegExp(`^${id}\\s+${url}\\s+link.created,link.clicked\\s+no\\s+\\S+Z\\s+-\\s+-$`, 'm'));
    assert.ok(!list.includes(secret), 'never the secret again');

    assert.match(await cli('webhook', 'test', 'alice', id), /^queued test event msg_\S+ for webhook \d+/);
    assert.ok(await eventually(async () => received.length === 1, 10_000), 'the server sent it');
    const event = new Webhook(secret).verify(received[0]!.body, received[0]!.headers) as { type: string };
    assert.equal(event.type, 'webhook.test');
    assert.ok(
      await eventually(async () => /webhook\.test\s+delivered\s+1\s+204/.test(await cli('webhook', 'deliveries', 'alice', id)), 10_000),
      'the delivery is listed as delivered',
    );

    await cliFails(/Unknown event "link.visited"/, 'webhook', 'add', 'alice', url, '--event', 'link.visited');
    await cliFails(/only https URLs/, 'webhook', 'add', 'alice', 'http://hooks.example.com/', '--event', 'link.created');
    await cliFails(/Webhook not found/, 'webhook', 'remove', 'alice', '999999');
    await cliFails(/Webhook not found/, 'webhook', 'enable', 'alice', '999999');
    assert.equal((await cli('webhook', 'enable', 'alice', id)).trim(), `enabled webhook ${id}: ${url}`);
    assert.equal((await cli('webhook', 'remove', 'alice', id)).trim(), `removed webhook ${id}`);
    assert.equal((await cli('webhook', 'list', 'alice')).trim(), '(none)');
  });
});
