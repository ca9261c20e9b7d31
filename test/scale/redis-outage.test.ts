// Losing Redis: instances keep serving (it carries only notices and counters), nothing
// crashes, and pub/sub invalidation resumes by itself when Redis returns.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, request, runCli, ServerProcess, sleep } from '../scale-support/server-process.js';
import { TcpProxy } from '../scale-support/tcp-proxy.js';
import { createTestDatabase, TEST_DATABASE_URL, TEST_REDIS_URL, type TestDatabase, uniqueName } from '../scale-support/test-services.js';

const SHORT_HOST = 'short.test';

if (TEST_DATABASE_URL && TEST_REDIS_URL) {
  const serverUrl = TEST_DATABASE_URL;
  const redisUrl = new URL(TEST_REDIS_URL);

  describe('losing Redis', () => {
    let testDb: TestDatabase;
    let proxy: TcpProxy;
    let a: ServerProcess;
    let b: ServerProcess;
    let token: string;

    before(async () => {
      testDb = await createTestDatabase(serverUrl);
      proxy = new TcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
      await proxy.start();
      const viaProxy = new URL(redisUrl);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const env = {
        DATABASE_URL: testDb.url,
        REDIS_URL: viaProxy.toString(),
        REDIS_PREFIX: `${uniqueName('brief_test')}:`,
        BASE_URL: `http://${SHORT_HOST}`,
        // Polling an hour apart: what reaches the other instance within a second came over Redis.
        CHANGE_POLL_MS: '60000',
      };
      [a, b] = await Promise.all([ServerProcess.start(env), ServerProcess.start(env)]);
      await runCli(['account', 'create', 'bob'], env);
      token = (await runCli(['token', 'create', 'bob'], env)).stdout.trim().split('\n').at(-1)!;
    });

    after(async () => {
      a?.kill();
      b?.kill();
      await Promise.all([a?.exited, b?.exited]);
      await proxy?.close();
      await testDb?.drop();
    });

    const shorten = (server: ServerProcess, url: string) =>
      request(server.port, 'GET', `/v2/shorten?${new URLSearchParams({ url })}`, { authorization: `Bearer ${token}` });
    const visit = (server: ServerProcess, key: string) => request(server.port, 'GET', `/${key}`, { host: SHORT_HOST });
    const remove = (server: ServerProcess, code: string) => request(server.port, 'DELETE', `/v2/links/${code}`, { authorization: `Bearer ${token}` });

    it('keeps serving while Redis is gone', async () => {
      await proxy.cut();
      const created = await shorten(a, 'https://example.com/while-redis-is-down');
      assert.equal(created.status, 200, created.body);
      const code: string = created.json().code;
      assert.equal((await visit(b, code)).status, 301);
      assert.equal((await remove(b, code)).status, 200);
      assert.equal((await visit(b, code)).status, 404);
      await sleep(300);
      assert.ok(a.alive && b.alive, `an instance died:\n${a.log}\n${b.log}`);
    });

    it('invalidates across instances over Redis again once it is back', async () => {
      await proxy.restore();
      const created = await shorten(a, 'https://example.com/after-redis-returns');
      const code: string = created.json().code;
      assert.equal((await visit(a, code)).status, 301);
      // ioredis reconnects and subscribes again with a backoff of at most 2 s; keep
      // deleting-and-checking fresh links until a notice gets through, then demand 1 s.
      assert.ok(
        await eventually(
          async () => {
            const probe = (await shorten(b, `https://example.com/probe/${Date.now()}`)).json().code as string;
            await visit(a, probe);
            await remove(b, probe);
            return eventually(async () => (await visit(a, probe)).status === 404, 300);
          },
          8_000,
          100,
        ),
        'pub/sub never resumed',
      );
      assert.equal((await remove(b, code)).status, 200);
      assert.ok(await eventually(async () => (await visit(a, code)).status === 404, 1_000), 'A still redirects a link deleted on B');
    });
  });
}
