// Rate limits across instances (issue 15): with REDIS_URL two instances share one count; while
// Redis cannot be reached each instance counts on its own, says so in its log, and refuses
// nothing because of Redis; once Redis is back the count is shared again.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { AccountService } from '../../src/accounts/account-service.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { TokenService } from '../../src/tokens/token-service.js';
import { eventually, freePort } from '../scale-support/server-process.js';
import { TcpProxy } from '../scale-support/tcp-proxy.js';
import { TEST_REDIS_URL, uniqueName } from '../scale-support/test-services.js';
import { BASE_HOST, TEST_ENV } from '../support/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

type App = ReturnType<typeof buildApp> & { logs: string[] };

let counter = 0;
const shorten = (app: App, remoteAddress: string) =>
  app.inject({ url: `/v2/shorten?url=${encodeURIComponent(`https://example.com/shared/${Date.now()}-${++counter}`)}`, remoteAddress });

/** An app (an instance) on the test database, with its log lines kept. */
async function instance(db: TestDatabase, env: Record<string, string>): Promise<App> {
  const logs: string[] = [];
  const logDestination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const app = buildApp(loadConfig({ ...TEST_ENV, LOG_LEVEL: 'info', ...env }), { database: db.database, logDestination }) as App;
  app.logs = logs;
  await app.ready();
  return app;
}

describe('rate limits without a reachable Redis', () => {
  let db: TestDatabase;
  let app: App;
  before(async () => {
    db = await openTestDatabase('sqlite');
    app = await instance(db, { REDIS_URL: `redis://127.0.0.1:${await freePort()}`, RATE_LIMIT_ANON: '2' });
  });
  after(async () => {
    await app?.close();
    await db?.cleanup();
  });

  it('counts per instance, logs it, and refuses nothing because of Redis', async () => {
    assert.equal((await shorten(app, '192.0.2.1')).statusCode, 200);
    assert.equal((await shorten(app, '192.0.2.1')).statusCode, 200);
    assert.equal((await shorten(app, '192.0.2.1')).statusCode, 429);
    assert.equal((await shorten(app, '192.0.2.2')).statusCode, 200);
    assert.ok(
      app.logs.some((line) => line.includes('rate limits are counted per instance')),
      'the fall-back is logged',
    );
  });
});

if (TEST_REDIS_URL) {
  const redisUrl = new URL(TEST_REDIS_URL);

  describe('rate limits shared through Redis', () => {
    let db: TestDatabase;
    let proxy: TcpProxy;
    const apps: App[] = [];
    before(async () => {
      db = await openTestDatabase('sqlite');
      proxy = new TcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
      await proxy.start();
    });
    after(async () => {
      await Promise.all(apps.map((app) => app.close()));
      await proxy?.close();
      await db?.cleanup();
    });

    async function pair(env: Record<string, string>): Promise<[App, App]> {
      const made = await Promise.all([instance(db, env), instance(db, env)]);
      apps.push(...made);
      return made;
    }

    it('makes two instances share one limit; another REDIS_PREFIX counts apart', async () => {
      const prefix = `${uniqueName('brief_test')}:`;
      const [a, b] = await pair({ REDIS_URL: TEST_REDIS_URL!, REDIS_PREFIX: prefix, RATE_LIMIT_ANON: '4' });
      const remaining: string[] = [];
      for (const app of [a, b, a, b]) {
        const res = await shorten(app, '192.0.2.10');
        assert.equal(res.statusCode, 200, res.body);
        remaining.push(String(res.headers['ratelimit-remaining']));
      }
      assert.deepEqual(remaining, ['3', '2', '1', '0']);
      for (const app of [a, b]) {
        const res = await shorten(app, '192.0.2.10');
        assert.equal(res.statusCode, 429);
        assert.equal(res.json().code, 'E_TOO_MANY_REQUESTS');
      }
      const [other] = await pair({ REDIS_URL: TEST_REDIS_URL!, REDIS_PREFIX: `${prefix}other:`, RATE_LIMIT_ANON: '4' });
      assert.equal((await shorten(other, '192.0.2.10')).statusCode, 200);
    });

    it('counts a token by its id on both instances, a made-up token nowhere, and password attempts across instances', async () => {
      const prefix = `${uniqueName('brief_test')}:`;
      const [a, b] = await pair({
        REDIS_URL: TEST_REDIS_URL!,
        REDIS_PREFIX: prefix,
        RATE_LIMIT_READ: '3',
        RATE_LIMIT_PASSWORD: '10',
        RATE_LIMIT_PASSWORD_ADDRESS: '2',
      });
      const accounts = new AccountService(db.database.accounts);
      const { token, record } = await new TokenService(db.database.accounts, accounts).createToken(
        (await accounts.create(uniqueName('redis_token'))).name,
      );
      const qr = `/v2/qrcode?url=${encodeURIComponent('https://example.com/')}`;
      for (let i = 0; i < 5; i++) {
        const res = await a.inject({ url: qr, remoteAddress: '192.0.2.40', headers: { authorization: `Bearer junk${i}` } });
        assert.equal(res.statusCode, 401);
      }
      const redis = new Redis(TEST_REDIS_URL!);
      try {
        assert.deepEqual(await redis.keys(`${prefix}*`), [], 'a made-up token makes no key');
        const remaining: string[] = [];
        for (const [app, address] of [
          [a, '192.0.2.41'],
          [b, '192.0.2.42'],
        ] as const) {
          const res = await app.inject({ url: qr, remoteAddress: address, headers: { authorization: `Bearer ${token}` } });
          assert.equal(res.statusCode, 200);
          remaining.push(String(res.headers['ratelimit-remaining']));
        }
        assert.deepEqual(remaining, ['2', '1']);
        assert.deepEqual(await redis.keys(`${prefix}*`), [`${prefix}rate:reads:token:${record.id}`], 'the key names the token by its id only');
        // RATE_LIMIT_PASSWORD_ADDRESS is counted across instances too.
        const attempt = (app: App) =>
          app.inject({
            method: 'POST',
            url: '/nosuchlink',
            remoteAddress: '192.0.2.43',
            headers: { host: BASE_HOST, 'content-type': 'application/x-www-form-urlencoded' },
            payload: 'password=wrong',
          });
        assert.equal((await attempt(a)).statusCode, 404);
        assert.equal((await attempt(b)).statusCode, 404);
        assert.equal((await attempt(a)).statusCode, 429);
      } finally {
        redis.disconnect();
      }
    });

    it('falls back to per-instance counts while Redis is gone, and shares again once it is back', async () => {
      const viaProxy = new URL(TEST_REDIS_URL!);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const [a, b] = await pair({ REDIS_URL: viaProxy.toString(), REDIS_PREFIX: `${uniqueName('brief_test')}:`, RATE_LIMIT_ANON: '3' });
      assert.equal((await shorten(a, '192.0.2.20')).statusCode, 200);
      assert.equal((await shorten(b, '192.0.2.20')).headers['ratelimit-remaining'], '1', 'shared while Redis is up');

      await proxy.cut();
      // Each instance now counts the address on its own: 3 each, none refused for want of Redis.
      for (const app of [a, b]) {
        for (let i = 0; i < 3; i++) {
          const res = await shorten(app, '192.0.2.21');
          assert.equal(res.statusCode, 200, res.body);
        }
        assert.equal((await shorten(app, '192.0.2.21')).statusCode, 429);
        assert.ok(app.logs.some((line) => line.includes('rate limits are counted per instance')));
      }

      await proxy.restore();
      // ioredis reconnects with a backoff of at most 2 s; then the count is shared again.
      assert.ok(
        await eventually(async () => {
          const address = `192.0.2.${30 + (counter % 200)}`;
          await shorten(a, address);
          return (await shorten(b, address)).headers['ratelimit-remaining'] === '1';
        }, 8_000),
        'shared again after Redis returned',
      );
      assert.ok(a.logs.some((line) => line.includes('rate limits are shared through redis again')));
    });
  });
}
