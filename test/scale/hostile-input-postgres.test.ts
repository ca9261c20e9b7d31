// The fuzz of test/e2e/hostile-input.test.ts against a server on PostgreSQL, where nearly every
// route waits on the database: a raw request the fuzz writes and then half-closes (socket.end)
// must still get its answer (issue 31, item 4), and every answer must keep the documented shape.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runFuzz, verdict } from '../../harness/hostile/fuzz-run.js';
import { type FuzzServer, startFuzzServer } from '../../harness/hostile/fuzz-server.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../scale-support/test-services.js';

if (TEST_DATABASE_URL) {
  const serverUrl = TEST_DATABASE_URL;

  describe('hostile input against a server on PostgreSQL', () => {
    let testDb: TestDatabase;
    let fuzz: FuzzServer;
    before(async () => {
      testDb = await createTestDatabase(serverUrl);
      fuzz = await startFuzzServer({ DATABASE_URL: testDb.url });
    });
    after(async () => {
      await fuzz?.close();
      await testDb?.drop();
    });

    it('2,000 generated hostile requests, the raw ones half-closed: every one answered, no 5xx, errors as {message, code}', {
      timeout: 180_000,
    }, async () => {
      const report = await runFuzz({
        port: fuzz.server.port,
        targets: fuzz.targets,
        checkToken: fuzz.checkToken,
        requests: 2_000,
        concurrency: 8,
        seed: 20261125,
        rssBytes: () => fuzz.server.rssBytes(),
      });
      assert.equal(report.requests, 2_000);
      assert.deepEqual(verdict(report, Number.POSITIVE_INFINITY), [], JSON.stringify(report.problems.slice(0, 3), null, 2));
      assert.equal(fuzz.server.child.exitCode, null);
      for (const status of ['200', '400', '401', '404', '422'])
        assert.ok((report.byStatus[status] ?? 0) > 0, `no ${status} in ${JSON.stringify(report.byStatus)}`);
    });
  });
}
