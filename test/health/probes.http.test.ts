// GET /healthz and /readyz: on every host, past the redirect fast path, never a visit, never
// rate limited; readyz 503 with its reason when the database is gone, migrations are missing,
// the redirect side has not started, or the server is stopping.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { Readiness } from '../../src/health/readiness.js';
import { StopSignal } from '../../src/health/stop-signal.js';
import { openDatabase } from '../../src/storage/database.js';
import { knownMigrations, migrateUpTo, pendingMigrations } from '../../src/storage/migrate.js';
import { TcpProxy } from '../scale-support/tcp-proxy.js';
import { createTestDatabase, TEST_DATABASE_URL } from '../scale-support/test-services.js';
import { BASE_HOST, PUBLIC_HOST, qs, TEST_ENV, useTestApp } from '../support/app.js';
import { dialects, newLink, openTestDatabase, storedClicks } from '../support/database.js';
import { hostRequest } from '../support/process.js';

const quiet = { info: () => {}, warn: () => {} };

/** One request over real HTTP (through the server's own door: the fast path and the probes' check). */
const get = (port: number, path: string, host: string) => hostRequest(port, host, path);

for (const dialect of dialects) {
  describe(`health probes (${dialect})`, () => {
    const ctx = useTestApp(dialect, { RATE_LIMIT_READ: '1' });

    it('answers /healthz 200 and /readyz 200 on every host, not cached', async () => {
      for (const host of [BASE_HOST, PUBLIC_HOST, 'unknown.example', '127.0.0.1:3000']) {
        const health = await ctx.t.app.inject({ url: '/healthz', headers: { host } });
        assert.equal(health.statusCode, 200, `${host}: ${health.body}`);
        assert.deepEqual(health.json(), { status: 'ok' });
        assert.equal(health.headers['cache-control'], 'no-store');
        const ready = await ctx.t.app.inject({ url: '/readyz', headers: { host } });
        assert.equal(ready.statusCode, 200, `${host}: ${ready.body}`);
        assert.deepEqual(ready.json(), { status: 'ready' });
        assert.equal(ready.headers['cache-control'], 'no-store');
        assert.equal((await ctx.t.app.inject({ method: 'HEAD', url: '/readyz', headers: { host } })).statusCode, 200);
      }
    });

    it('is never rate limited (the read limit is 1 a minute here)', async () => {
      for (let i = 0; i < 5; i++) {
        for (const url of ['/healthz', '/readyz']) {
          const res = await ctx.t.app.inject({ url, headers: { host: BASE_HOST } });
          assert.equal(res.statusCode, 200, `${url} #${i}: ${res.body}`);
          assert.equal(res.headers['ratelimit-limit'], undefined);
        }
      }
    });

    it('refuses "healthz" and "readyz" as slugs, in any case', async () => {
      for (const slug of ['healthz', 'readyz', 'HealthZ', 'READYZ']) {
        const res = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: `https://example.com/${slug}`, slug })}` });
        assert.equal(res.statusCode, 422, res.body);
        assert.equal(res.json().errors[0].field, 'slug');
      }
    });

    it('answers the probe over HTTP even where a link has the key (a row from before the word was kept), and counts no visit', async () => {
      // Arranged in the store, as an old database might hold it: the API refuses the slug.
      const made = await ctx.db.database.links.create(newLink('https://example.com/old-healthz', { domain: BASE_HOST, slug: 'healthz' }));
      assert.ok('created' in made);
      const app = buildApp(ctx.t.config, { database: ctx.db.database });
      await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const port = (app.server.address() as { port: number }).port;
        for (let i = 0; i < 3; i++) {
          const res = await get(port, '/healthz', BASE_HOST);
          assert.equal(res.status, 200, res.body);
          assert.deepEqual(JSON.parse(res.body), { status: 'ok' });
          assert.equal((await get(port, '/readyz', 'anything.example')).status, 200);
        }
      } finally {
        await app.close(); // writes the clicks counted
      }
      assert.equal(await storedClicks(ctx.db.database, made.created.code), 0);
    });

    it('answers /readyz 503 "stopping" from the moment the stop signal is given, /healthz still 200', async () => {
      const stop = new StopSignal();
      const app = buildApp(ctx.t.config, { database: ctx.db.database, stopSignal: stop });
      try {
        assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
        stop.begin();
        const ready = await app.inject({ url: '/readyz' });
        assert.equal(ready.statusCode, 503);
        assert.deepEqual(ready.json(), { status: 'not ready', reason: 'stopping', message: 'The server is stopping' });
        assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
      } finally {
        await app.close();
      }
    });

    it('knows which migrations a database lacks', async () => {
      assert.deepEqual(await pendingMigrations(ctx.db.database), []);
    });
  });
}

if (TEST_DATABASE_URL) {
  describe('readyz while PostgreSQL is unreachable (postgres)', () => {
    let proxy: TcpProxy;
    let scratch: Awaited<ReturnType<typeof createTestDatabase>>;
    let database: ReturnType<typeof openDatabase>;
    let app: ReturnType<typeof buildApp>;

    before(async () => {
      scratch = await createTestDatabase(TEST_DATABASE_URL!);
      const target = new URL(scratch.url);
      proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
      await proxy.start();
      const viaProxy = new URL(scratch.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const config = loadConfig({ ...TEST_ENV, DATABASE_URL: viaProxy.toString(), DATABASE_CONNECT_TIMEOUT_MS: '500' });
      database = openDatabase(config.database, { connectTimeoutMs: 500 });
      const { migrateToLatest } = await import('../../src/storage/migrate.js');
      await migrateToLatest(database);
      app = buildApp(config, { database, logDestination: { write: () => {} } });
      await app.ready();
    });

    after(async () => {
      await proxy?.restore();
      await app?.close().catch(() => {});
      await database?.close().catch(() => {});
      await proxy?.close();
      await scratch?.drop();
    });

    it('answers 503 "database" when connections are cut or hang, and 200 again once it is back', async () => {
      assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
      await proxy.cut();
      const cut = await app.inject({ url: '/readyz' });
      assert.equal(cut.statusCode, 503, cut.body);
      assert.equal(cut.json().reason, 'database');
      assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
      await proxy.restore();
      let back = 0;
      for (let i = 0; i < 50 && back !== 200; i++) {
        back = (await app.inject({ url: '/readyz' })).statusCode;
        if (back !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(back, 200);
      // Connections open and nothing answers: the probe still answers, within its bound.
      proxy.hang();
      const hung = await app.inject({ url: '/readyz' });
      assert.equal(hung.statusCode, 503, hung.body);
      assert.equal(hung.json().reason, 'database');
    });
  });
}

describe('readiness', () => {
  it('reports a database short of migrations by name in the log, and 503 "migrations"', async () => {
    const own = await openTestDatabase('sqlite');
    try {
      // A second database file of an older schema.
      const old = openDatabase({ kind: 'sqlite', path: `${own.url.slice('sqlite:'.length)}.old` });
      try {
        await migrateUpTo(old, '0007-link-rollup-mark');
        // Every migration this version knows after 0007 (0009 and 0010 at least; more as they come).
        const known = knownMigrations();
        const missing = known.slice(known.indexOf('0007-link-rollup-mark') + 1);
        assert.deepEqual(missing.slice(0, 2), ['0009-domain-verification', '0010-link-forward-query']);
        assert.deepEqual(await pendingMigrations(old), missing);
        const logged: object[] = [];
        const readiness = new Readiness(
          { pendingMigrations: () => pendingMigrations(old), started: () => true, stopping: () => false },
          { info: () => {}, warn: (details) => logged.push(details) },
        );
        const answer = await readiness.check();
        assert.deepEqual(answer, {
          ready: false,
          reason: 'migrations',
          message: `The database lacks ${missing.length} migration(s) this version needs`,
        });
        assert.deepEqual(logged, [{ problem: `migrations: ${missing.join(', ')}` }]);
      } finally {
        await old.close();
      }
    } finally {
      await own.cleanup();
    }
  });

  it('is "starting" until the redirect side has started, and never asks the database before', async () => {
    let started = false;
    let asked = 0;
    const readiness = new Readiness(
      {
        pendingMigrations: async () => {
          asked++;
          return [];
        },
        started: () => started,
        stopping: () => false,
      },
      quiet,
    );
    assert.deepEqual(await readiness.check(), { ready: false, reason: 'starting', message: 'The server is starting' });
    assert.equal(asked, 0);
    started = true;
    assert.deepEqual(await readiness.check(), { ready: true });
  });

  it('answers "database" when the database does not answer within its bound, and shares one check among probes', async () => {
    let asked = 0;
    const readiness = new Readiness(
      {
        pendingMigrations: () => {
          asked++;
          return new Promise<string[]>(() => {}); // never answers
        },
        started: () => true,
        stopping: () => false,
      },
      quiet,
      50,
    );
    const answers = await Promise.all([readiness.check(), readiness.check(), readiness.check()]);
    for (const answer of answers) assert.deepEqual(answer, { ready: false, reason: 'database', message: 'The database does not answer' });
    assert.equal(asked, 1);
  });
});
