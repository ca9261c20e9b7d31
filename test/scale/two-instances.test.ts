// Two real server processes against one PostgreSQL database and one Redis, as behind a
// load balancer: links, deletes, dedupe, slugs, clicks and click events must hold across them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, type HttpAnswer, request, runCli, ServerProcess } from '../scale-support/server-process.js';
import { adminQuery, createTestDatabase, TEST_DATABASE_URL, TEST_REDIS_URL, type TestDatabase, uniqueName } from '../scale-support/test-services.js';

const SHORT_HOST = 'short.test';

if (TEST_DATABASE_URL && TEST_REDIS_URL) {
  const serverUrl = TEST_DATABASE_URL;
  const redisUrl = TEST_REDIS_URL;

  describe('two instances on PostgreSQL and Redis', () => {
    let testDb: TestDatabase;
    let env: Record<string, string>;
    let a: ServerProcess;
    let b: ServerProcess;
    let token: string;

    before(async () => {
      testDb = await createTestDatabase(serverUrl);
      env = {
        DATABASE_URL: testDb.url,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: `${uniqueName('brief_test')}:`,
        BASE_URL: `http://${SHORT_HOST}`,
        ANALYTICS: 'full',
        // Polling an hour apart: whatever reaches the other instance within a second came over Redis.
        CHANGE_POLL_MS: '60000',
      };
      // Both start (and migrate) at the same moment.
      [a, b] = await Promise.all([ServerProcess.start(env), ServerProcess.start(env)]);
      const account = await runCli(['account', 'create', 'alice'], env);
      assert.equal(account.code, 0, account.stderr);
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

    const shorten = (server: ServerProcess, query: Record<string, string>, auth = true) =>
      request(server.port, 'GET', `/v2/shorten?${new URLSearchParams(query)}`, auth ? { authorization: `Bearer ${token}` } : {});
    const visit = (server: ServerProcess, key: string) => request(server.port, 'GET', `/${key}`, { host: SHORT_HOST });

    it('redirects on B a link created on A', async () => {
      // B looks first, twice, so it holds a negative cache entry that the creation must clear.
      assert.equal((await visit(b, 'made-on-a')).status, 404);
      assert.equal((await visit(b, 'made-on-a')).status, 404);
      const created = await shorten(a, { url: 'https://example.com/made-on-a', slug: 'made-on-a' });
      assert.equal(created.status, 200, created.body);
      assert.equal(created.json().shortened, `http://${SHORT_HOST}/made-on-a`);
      assert.ok(await eventually(async () => (await visit(b, 'made-on-a')).status === 301, 3_000), 'B never redirected the new link');
      const answer = await visit(b, 'made-on-a');
      assert.equal(answer.headers.location, 'https://example.com/made-on-a');
    });

    it('makes A answer 404 within 1 s after a delete on B, although A had cached the link', async () => {
      const created = await shorten(a, { url: 'https://example.com/to-delete' });
      assert.equal(created.status, 200, created.body);
      const code: string = created.json().code;
      assert.equal((await visit(a, code)).status, 301);
      assert.equal((await visit(a, code)).status, 301); // now certainly served from A's cache

      const deleted = await request(b.port, 'DELETE', `/v2/links/${code}`, { authorization: `Bearer ${token}` });
      assert.equal(deleted.status, 200, deleted.body);
      assert.deepEqual(deleted.json(), { success: true });
      assert.ok(await eventually(async () => (await visit(a, code)).status === 404, 1_000), 'A still redirects a link deleted on B');
    });

    it('makes both instances answer 410 within 1 s after `brief link block` on the command line', async () => {
      const created = await shorten(b, { url: 'https://example.com/to-block' });
      const code: string = created.json().code;
      assert.equal((await visit(a, code)).status, 301);
      assert.equal((await visit(b, code)).status, 301);
      const blocked = await runCli(['link', 'block', code], env);
      assert.equal(blocked.code, 0, blocked.stderr);
      for (const server of [a, b]) {
        assert.ok(await eventually(async () => (await visit(server, code)).status === 410, 1_000), 'a blocked link still redirects');
      }
    });

    it('gives one link for 40 identical shortens split over A and B', async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => shorten(i % 2 ? a : b, { url: 'https://example.com/same-for-everybody' }, false)),
      );
      assertAllOk(answers);
      const codes = new Set(answers.map((r) => r.json().code));
      assert.equal(codes.size, 1, `got ${codes.size} different links`);
      const rows = await adminQuery<{ n: number }>(testDb.url, `select count(*)::int as n from links where url = $1`, [
        'https://example.com/same-for-everybody',
      ]);
      assert.equal(rows[0]!.n, 1);
    });

    it('gives exactly one winner among 20 racers for one slug across A and B', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => shorten(i % 2 ? a : b, { url: `https://example.com/racer/${i}`, slug: 'contested' })),
      );
      const winners = answers.filter((r) => r.status === 200);
      const losers = answers.filter((r) => r.status !== 200);
      assert.equal(winners.length, 1, answers.map((r) => `${r.status} ${r.body}`).join('\n'));
      for (const loser of losers) {
        assert.equal(loser.status, 422, loser.body);
        assert.equal(loser.json().code, 'E_VALIDATION_ERROR');
      }
      const winningUrl = winners[0]!.json().url;
      for (const server of [a, b]) assert.equal((await visit(server, 'contested')).headers.location, winningUrl);
    });

    it('makes A follow an edit made on B within 1 s: a new destination, then a password (v3 PATCH)', async () => {
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const made = await request(a.port, 'POST', '/v3/shorten/bulk', auth, JSON.stringify([{ url: 'https://example.com/before-edit' }]));
      assert.equal(made.status, 200, made.body);
      const key: string = made.json()[0].slug;
      assert.equal((await visit(a, key)).headers.location, 'https://example.com/before-edit');
      assert.equal((await visit(a, key)).headers.location, 'https://example.com/before-edit'); // now in A's cache

      const edit = (body: object) => request(b.port, 'PATCH', `/v3/shorten/${SHORT_HOST}/${key}`, auth, JSON.stringify(body));
      const moved = await edit({ url: 'https://example.com/after-edit' });
      assert.equal(moved.status, 200, moved.body);
      assert.ok(
        await eventually(async () => (await visit(a, key)).headers.location === 'https://example.com/after-edit', 1_000),
        'A still redirects to the old destination',
      );
      assert.equal((await edit({ password: 'sesame-1' })).status, 200);
      assert.ok(await eventually(async () => (await visit(a, key)).status === 200, 1_000), 'A does not ask for the new password');
    });

    it('makes A follow rules set and removed on B within 1 s (v3 PATCH, decision 0039)', async () => {
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const made = await request(a.port, 'POST', '/v3/shorten/bulk', auth, JSON.stringify([{ url: 'https://example.com/ruled-later' }]));
      assert.equal(made.status, 200, made.body);
      const key: string = made.json()[0].slug;
      const visitWith = (query: string) => request(a.port, 'GET', `/${key}?${query}`, { host: SHORT_HOST });
      assert.equal((await visit(a, key)).status, 301);
      assert.equal((await visit(a, key)).status, 301); // now in A's cache
      assert.equal((await visitWith('ref=1')).status, 301);

      const edit = (body: object) => request(b.port, 'PATCH', `/v3/shorten/${SHORT_HOST}/${key}`, auth, JSON.stringify(body));
      const ruled = await edit({ rules: [{ url: 'https://example.com/by-rule', conditions: [{ type: 'query-any', key: 'ref' }] }] });
      assert.equal(ruled.status, 200, ruled.body);
      assert.ok(
        await eventually(async () => (await visitWith('ref=1')).headers.location === 'https://example.com/by-rule?ref=1', 1_000),
        'A does not follow the rules set on B',
      );
      const answer = await visit(a, key);
      assert.deepEqual([answer.status, answer.headers['cache-control']], [302, 'private, no-store']);
      assert.equal((await edit({ rules: [] })).status, 200);
      assert.ok(await eventually(async () => (await visit(a, key)).status === 301, 1_000), 'A still answers by the rules removed on B');
      assert.equal((await visitWith('ref=1')).headers.location, 'https://example.com/ruled-later?ref=1');
    });

    it('adds up click counts from both instances exactly', async () => {
      const created = await shorten(a, { url: 'https://example.com/counted' });
      const code: string = created.json().code;
      const onA = 37;
      const onB = 53;
      const visits = [...Array.from({ length: onA }, () => visit(a, code)), ...Array.from({ length: onB }, () => visit(b, code))];
      for (const answer of await Promise.all(visits)) assert.equal(answer.status, 301);

      // A clean stop writes what each instance still holds in memory.
      assert.deepEqual(await Promise.all([a.stop(), b.stop()]), [0, 0]);
      const rows = await adminQuery<{ clicks: number }>(
        testDb.url,
        `select coalesce(c.clicks, 0)::int as clicks from links l left join link_clicks c on c.link_id = l.id where l.code = $1`,
        [code],
      );
      assert.equal(rows[0]!.clicks, onA + onB);
      // Every instance's click events land in the one table too.
      const events = await adminQuery<{ n: number }>(
        testDb.url,
        `select coalesce(sum(e.clicks), 0)::int as n from click_events e join links l on l.id = e.link_id where l.code = $1`,
        [code],
      );
      assert.equal(events[0]!.n, onA + onB);
    });
  });
}

function assertAllOk(answers: HttpAnswer[]): void {
  const failed = answers.filter((r) => r.status !== 200);
  assert.equal(failed.length, 0, failed.map((r) => `${r.status} ${r.body}`).join('\n'));
}
