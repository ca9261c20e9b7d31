// Nothing lost between a change and its delivery (issue 41, decision 0045): a link is made while the receiver is down,
// the server is killed with SIGKILL before the event got through, the receiver comes up, the server restarts, and the
// event arrives, signed, with the webhook-id it had from the start.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../scale-support/server-process.js';
import { freePort, runCli, type ServerProcess, startServer } from '../support/process.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

describe('webhooks across kill -9 (built server, SQLite)', () => {
  let dir: string;
  let env: Record<string, string>;
  let server: ServerProcess | undefined;
  let receiver: Receiver | undefined;
  let token: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-webhooks-'));
    env = {
      DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      BASE_URL: 'http://short.test',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    };
    const cli = (...args: string[]) => runCli(env, ...args);
    assert.equal((await cli('account', 'create', 'alice')).code, 0);
    const created = await cli('token', 'create', 'alice');
    assert.equal(created.code, 0, created.stderr);
    token = created.stdout.trim().split('\n').at(-1)!.trim();
  });

  after(async () => {
    await server?.stop('SIGKILL');
    await receiver?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('delivers the event of a change acknowledged before the kill, after the restart', async () => {
    const receiverPort = await freePort(); // nothing listens there yet: the first attempt is refused
    server = await startServer(env);
    const api = (pathAndQuery: string, body: unknown) =>
      fetch(`${server!.origin}${pathAndQuery}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const hook = await api('/v3/webhooks', { url: `http://127.0.0.1:${receiverPort}/hook`, events: ['link.created'] });
    assert.equal(hook.status, 200, await hook.clone().text());
    const { secret } = (await hook.json()) as { secret: string };
    const made = await api('/v3/shorten/bulk', [{ url: 'https://example.com/survives-kill' }]);
    assert.equal(made.status, 200);
    const [link] = (await made.json()) as Array<{ id: string }>;
    await server.stop('SIGKILL');

    receiver = await startReceiver({ port: receiverPort });
    server = await startServer(env);
    // The first retry is due 2.5–5 s after a refused attempt; the worker looks every second.
    const arrived = eventually(async () => receiver!.received.length > 0, 30_000);
    assert.ok(await arrived, 'no delivery within 30 s');
    const delivery = receiver.received[0]!;
    const event = new Webhook(secret).verify(delivery.body, delivery.headers) as { type: string; data: { id: string; url: string } };
    assert.equal(event.type, 'link.created');
    assert.equal(event.data.id, link!.id);
    assert.equal(event.data.url, 'https://example.com/survives-kill');
  });
});
