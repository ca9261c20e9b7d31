// Several instances and no Redis: link changes still reach every instance, through the
// link_changes table each one polls (CHANGE_POLL_MS).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, request, runCli, ServerProcess } from '../scale-support/server-process.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../scale-support/test-services.js';

const SHORT_HOST = 'short.test';

if (TEST_DATABASE_URL) {
  const serverUrl = TEST_DATABASE_URL;

  describe('two instances without Redis', () => {
    let testDb: TestDatabase;
    let a: ServerProcess;
    let b: ServerProcess;
    let token: string;

    before(async () => {
      testDb = await createTestDatabase(serverUrl);
      const env = { DATABASE_URL: testDb.url, BASE_URL: `http://${SHORT_HOST}`, CHANGE_POLL_MS: '100' };
      [a, b] = await Promise.all([ServerProcess.start(env), ServerProcess.start(env)]);
      await runCli(['account', 'create', 'carol'], env);
      token = (await runCli(['token', 'create', 'carol'], env)).stdout.trim().split('\n').at(-1)!;
    });

    after(async () => {
      a?.kill();
      b?.kill();
      await Promise.all([a?.exited, b?.exited]);
      await testDb?.drop();
    });

    it('drops a link deleted on B from A’s cache within the poll interval', async () => {
      const created = await request(a.port, 'GET', `/v2/shorten?url=${encodeURIComponent('https://example.com/polled')}`, {
        authorization: `Bearer ${token}`,
      });
      const code: string = created.json().code;
      // Twice: a link enters the cache on its second visit.
      for (let i = 0; i < 2; i++) assert.equal((await request(a.port, 'GET', `/${code}`, { host: SHORT_HOST })).status, 301);
      assert.equal((await request(b.port, 'DELETE', `/v2/links/${code}`, { authorization: `Bearer ${token}` })).status, 200);
      assert.ok(
        await eventually(async () => (await request(a.port, 'GET', `/${code}`, { host: SHORT_HOST })).status === 404, 1_000),
        'A still redirects a link deleted on B',
      );
    });
  });
}
