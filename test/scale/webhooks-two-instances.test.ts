// Two server processes on one PostgreSQL database and one Redis (issue 41, decision 0045): every event of links made on
// either is delivered exactly once, by one of them (claims are taken FOR UPDATE SKIP LOCKED), although both look for
// due deliveries every second; and a killed instance's claims are taken over by the other once their lease runs out.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, request, runCli, ServerProcess, sleep } from '../scale-support/server-process.js';
import { adminQuery, createTestDatabase, TEST_DATABASE_URL, TEST_REDIS_URL, type TestDatabase, uniqueName } from '../scale-support/test-services.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

if (TEST_DATABASE_URL && TEST_REDIS_URL) {
  const serverUrl = TEST_DATABASE_URL;
  const redisUrl = TEST_REDIS_URL;

  describe('webhooks on two instances (PostgreSQL and Redis)', () => {
    let testDb: TestDatabase;
    let env: Record<string, string>;
    let a: ServerProcess;
    let b: ServerProcess;
    let token: string;
    let receiver: Receiver;
    before(async () => {
      testDb = await createTestDatabase(serverUrl);
      // It answers slowly, so both instances' rounds overlap while deliveries are in flight.
      receiver = await startReceiver({ answer: (_request, response) => setTimeout(() => response.writeHead(200).end(), 200) });
      env = {
        DATABASE_URL: testDb.url,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: `${uniqueName('brief_test')}:`,
        BASE_URL: 'http://short.test',
        WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      };
      [a, b] = await Promise.all([ServerProcess.start(env), ServerProcess.start(env)]);
      assert.equal((await runCli(['account', 'create', 'alice'], env)).code, 0);
      const created = await runCli(['token', 'create', 'alice'], env);
      assert.equal(created.code, 0, created.stderr);
      token = created.stdout.trim().split('\n').at(-1)!;
    });

    after(async () => {
      a?.kill();
      b?.kill();
      await Promise.all([a?.exited, b?.exited]);
      await receiver?.close();
      await testDb?.drop();
    });

    const post = (server: ServerProcess, path: string, body: unknown) =>
      request(server.port, 'POST', path, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, JSON.stringify(body));

    it('delivers each event exactly once, whichever instance made the link', async () => {
      const { url } = receiver;
      const byId = new Map<string, number>();
      const hook = await post(a, '/v3/webhooks', { url, events: ['link.created'] });
      assert.equal(hook.status, 200, hook.body);
      const { id } = hook.json() as { id: number };
      for (let round = 0; round < 4; round++) {
        const made = await post(
          round % 2 === 0 ? a : b,
          '/v3/shorten/bulk',
          Array.from({ length: 30 }, (_, i) => ({ url: `https://example.com/twice/${round}/${i}` })),
        );
        assert.equal(made.status, 200, made.body);
      }
      // Both instances woken at once, again and again (a test event wakes the worker of the instance it reaches): their
      // claims race for the same due rows, which only FOR UPDATE SKIP LOCKED keeps apart.
      for (let i = 0; i < 20; i++) {
        const answers = await Promise.all([post(a, `/v3/webhooks/${id}/test`, {}), post(b, `/v3/webhooks/${id}/test`, {})]);
        assert.deepEqual(
          answers.map((answer) => answer.status),
          [200, 200],
        );
      }
      const ids = () => new Set(receiver.received.map(({ headers }) => headers['webhook-id'])).size;
      assert.ok(await eventually(async () => ids() === 160, 30_000), `delivered ${ids()} of 160`);
      await sleep(2500); // a second delivery of any of them would have come by now
      for (const { headers } of receiver.received) byId.set(headers['webhook-id']!, (byId.get(headers['webhook-id']!) ?? 0) + 1);
      assert.deepEqual(
        [...byId.values()].filter((count) => count !== 1),
        [],
        'no event delivered twice',
      );
      const rows = await adminQuery<{ status: string; attempts: number; count: string }>(
        testDb.url,
        'select status, attempts, count(*) as count from webhook_deliveries group by status, attempts',
      );
      assert.deepEqual(
        rows.map((row) => [row.status, row.attempts, Number(row.count)]),
        [['delivered', 1, 160]],
      );
    });
  });
}
