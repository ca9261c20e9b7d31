// A link's visit limit across two real server processes on one PostgreSQL database and one Redis (issue 39, decision
// 0039): each instance counts in memory and adds its visits to the link's total at its flush, reading the others'
// back. The bound: never closed before N visits, and never more than N plus the visits the other instance let through
// before its flush. Here visits come in rounds of M per instance, each round settled (both flushed, twice), so at
// most N + M redirects succeed, then every visit on either instance is 410.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually, request, runCli, ServerProcess } from '../scale-support/server-process.js';
import { adminQuery, createTestDatabase, TEST_DATABASE_URL, TEST_REDIS_URL, type TestDatabase, uniqueName } from '../scale-support/test-services.js';

const SHORT_HOST = 'short.test';
const FLUSH_MS = 100;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

if (TEST_DATABASE_URL && TEST_REDIS_URL) {
  const serverUrl = TEST_DATABASE_URL;
  const redisUrl = TEST_REDIS_URL;

  describe('visit limit on two instances (PostgreSQL and Redis)', () => {
    let testDb: TestDatabase;
    let a: ServerProcess;
    let b: ServerProcess;
    let token: string;

    before(async () => {
      testDb = await createTestDatabase(serverUrl);
      const env = {
        DATABASE_URL: testDb.url,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: `${uniqueName('brief_test')}:`,
        BASE_URL: `http://${SHORT_HOST}`,
        CLICK_FLUSH_MS: String(FLUSH_MS),
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
      await testDb?.drop();
    });

    const visit = (server: ServerProcess, key: string) => request(server.port, 'GET', `/${key}`, { host: SHORT_HOST, 'user-agent': BROWSER });

    it('lets N and at most N + M visits through when both instances take M at once, then answers 410 on both', async () => {
      const limit = 25;
      const perRound = 6;
      const made = await request(
        a.port,
        'POST',
        '/v3/shorten/bulk',
        { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        JSON.stringify([{ url: 'https://example.com/limited', maxVisits: limit }]),
      );
      assert.equal(made.status, 200, made.body);
      const key: string = made.json()[0].slug;
      const counted = async () =>
        (await adminQuery<{ n: number }>(testDb.url, 'select limited_visits::int as n from links where key = $1', [key]))[0]!.n;

      let redirected = 0;
      let refused = 0;
      for (let round = 0; refused === 0; round++) {
        assert.ok(round < 2 * Math.ceil(limit / perRound), `still no 410 after ${redirected} redirects`);
        const answers = await Promise.all([
          ...Array.from({ length: perRound }, () => visit(a, key)),
          ...Array.from({ length: perRound }, () => visit(b, key)),
        ]);
        for (const answer of answers) {
          assert.ok(answer.status === 302 || answer.status === 410, `${answer.status} ${answer.body}`);
          if (answer.status === 302) redirected++;
          else refused++;
        }
        // Settled: every redirect written, and each instance has read the total back at a flush after that.
        assert.ok(await eventually(async () => (await counted()) === redirected, 5_000), 'the visits never reached the database');
        await sleep(3 * FLUSH_MS);
      }
      assert.ok(redirected >= limit, `closed early: ${redirected} redirects for a limit of ${limit}`);
      assert.ok(redirected <= limit + perRound, `${redirected} redirects for a limit of ${limit} (bound ${limit + perRound})`);
      for (const server of [a, b]) for (let i = 0; i < 3; i++) assert.equal((await visit(server, key)).status, 410);
      assert.equal(await counted(), redirected, 'a refused visit is not counted');
    });
  });
}
