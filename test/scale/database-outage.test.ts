// Losing PostgreSQL: API requests answer 503 with the JSON error shape, cached redirects
// keep working, nothing crashes, and the service recovers by itself.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, type HttpAnswer, request, ServerProcess } from '../scale-support/server-process.js';
import { TcpProxy } from '../scale-support/tcp-proxy.js';
import { adminQuery, createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../scale-support/test-services.js';

const SHORT_HOST = 'short.test';

if (TEST_DATABASE_URL) {
  const serverUrl = TEST_DATABASE_URL;

  describe('losing the database', () => {
    let testDb: TestDatabase;
    let proxy: TcpProxy;
    let server: ServerProcess;

    before(async () => {
      testDb = await createTestDatabase(serverUrl);
      const target = new URL(testDb.url);
      proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
      await proxy.start();
      const viaProxy = new URL(testDb.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      server = await ServerProcess.start({
        DATABASE_URL: viaProxy.toString(),
        BASE_URL: `http://${SHORT_HOST}`,
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
        // Background tasks run often, so they meet the outage too.
        CHANGE_POLL_MS: '100',
        CLICK_FLUSH_MS: '100',
      });
    });

    after(async () => {
      server?.kill();
      await server?.exited;
      await proxy?.close();
      await testDb?.drop();
    });

    const shorten = (url: string) => request(server.port, 'GET', `/v2/shorten?${new URLSearchParams({ url })}`);
    const visit = (key: string) => request(server.port, 'GET', `/${key}`, { host: SHORT_HOST });

    it('answers 503 while the database is gone, keeps cached redirects, and recovers', async () => {
      const created = await shorten('https://example.com/before-the-outage');
      assert.equal(created.status, 200, created.body);
      const code: string = created.json().code;
      // A link enters the cache on its second visit (the doorkeeper).
      assert.equal((await visit(code)).status, 301);
      assert.equal((await visit(code)).status, 301);
      let clicks = 2;

      // Unreachable the slow way: connections open and nothing answers. The pool's
      // connect timeout turns that into 503 instead of a request that hangs.
      proxy.hang();
      assertUnavailable(await shorten('https://example.com/during-the-hang'));

      await proxy.restore();
      assert.ok(await eventually(async () => (await shorten('https://example.com/between-outages')).status === 200, 10_000, 100));

      // Gone, in the middle of a burst of writes: sessions drop under queries and
      // transactions in flight, and new connections are refused.
      const burst = Array.from({ length: 40 }, (_, i) => shorten(`https://example.com/burst/${i}`));
      await new Promise((resolve) => setTimeout(resolve, 15));
      await proxy.cut();
      for (const answer of await Promise.all(burst)) {
        assert.ok(answer.status === 200 || answer.status === 503, `${answer.status} ${answer.body}`);
        if (answer.status === 503) assertUnavailable(answer);
      }
      assertUnavailable(await shorten('https://example.com/during-the-outage'));
      assertUnavailable(await request(server.port, 'GET', '/v2/shorten-domains'));
      // The v3 calls too, in the same JSON shape (the SDK parses every answer).
      const bulk = JSON.stringify([{ url: 'https://example.com/v3-during-the-outage' }]);
      assertUnavailable(await request(server.port, 'POST', '/v3/shorten/bulk', { 'content-type': 'application/json' }, bulk));
      assertUnavailable(await request(server.port, 'GET', `/v3/shorten?${new URLSearchParams({ url: 'https://example.com/v3-get' })}`));

      // Redirects already in the cache do not need the database.
      for (let i = 0; i < 5; i++) {
        const answer = await visit(code);
        assert.equal(answer.status, 301);
        assert.equal(answer.headers.location, 'https://example.com/before-the-outage');
        clicks++;
      }
      // Let the click flush and the change poll fail a few times.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.ok(server.alive, `the server died:\n${server.log}`);

      // The database returns; nobody restarts anything.
      await proxy.restore();
      let recovered: HttpAnswer | undefined;
      assert.ok(
        await eventually(
          async () => {
            recovered = await shorten('https://example.com/after-the-outage');
            return recovered.status === 200;
          },
          10_000,
          100,
        ),
        `no recovery: ${recovered?.status} ${recovered?.body}`,
      );
      assert.equal((await visit(recovered!.json().code)).status, 301);
      assert.equal((await request(server.port, 'GET', '/v2/shorten-domains')).status, 200);

      // Clicks counted while the database was away were kept and written after it returned.
      assert.equal(await server.stop(), 0, server.log);
      const rows = await adminQuery<{ clicks: number }>(
        testDb.url,
        'select coalesce(c.clicks, 0)::int as clicks from links l left join link_clicks c on c.link_id = l.id where l.code = $1',
        [code],
      );
      assert.equal(rows[0]!.clicks, clicks);
    });
  });
}

function assertUnavailable(answer: HttpAnswer): void {
  assert.equal(answer.status, 503, answer.body);
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  const body = answer.json();
  assert.equal(body.code, 'E_SERVICE_UNAVAILABLE');
  assert.equal(typeof body.message, 'string');
}
