// A client that closes its socket mid-body resets its own connection, not the database's: no
// "database unavailable" warning for it (issue 31, item 5), while a database's reset still has one.
import assert from 'node:assert/strict';
import net from 'node:net';
import type { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/storage/database.js';
import { TcpProxy } from '../scale-support/tcp-proxy.js';
import { TEST_ENV } from '../support/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { logCollector } from '../support/log.js';

/** The app listening on a free port, logging at info (so a client's abort shows what it logs) to `destination`. */
async function listening(database: Database, destination: Writable) {
  const app = buildApp(loadConfig({ ...TEST_ENV, LOG_LEVEL: 'info' }), { database, logDestination: destination });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as net.AddressInfo).port };
}

/** A POST announcing 1,000 bytes of body, 11 of them sent, then the socket closed. */
function abortedUpload(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write('POST /v3/shorten/bulk HTTP/1.1\r\nHost: short.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[{"url":"ht');
      setTimeout(() => socket.destroy(), 100);
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
}

async function settle(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

const unavailable = (line: Record<string, unknown>) => line.msg === 'database unavailable';
const aborted = (line: Record<string, unknown>) => line.msg === 'the connection closed before the request arrived whole';

describe('an upload the client aborts', () => {
  let db: TestDatabase;
  before(async () => {
    db = await openTestDatabase('sqlite');
  });
  after(async () => {
    await db?.cleanup();
  });

  it('is logged as the client closing its connection, not as the database being unavailable', async () => {
    const log = logCollector();
    const { app, port } = await listening(db.database, log.destination);
    try {
      await abortedUpload(port);
      assert.ok(await settle(() => log.lines.some(aborted)), JSON.stringify(log.lines));
      assert.equal(log.lines.filter(unavailable).length, 0, JSON.stringify(log.lines.filter(unavailable)));
      assert.equal(log.lines.filter((line) => Number(line.level) >= 40).length, 0, 'no warning or error at all');
    } finally {
      await app.close();
    }
  });

  it('leaves a reset of the database connection (the same ECONNRESET code, from the store) a 503 with its warning', async () => {
    const log = logCollector();
    const { app, port } = await listening(db.database, log.destination);
    const create = db.database.links.create;
    db.database.links.create = () =>
      Promise.reject(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' }));
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v2/shorten?url=${encodeURIComponent('https://example.com/while-the-database-resets')}`);
      assert.equal(res.status, 503);
      assert.equal((await res.json()).code, 'E_SERVICE_UNAVAILABLE');
      assert.equal(log.lines.filter(unavailable).length, 1);
      assert.equal(log.lines.filter(aborted).length, 0);
    } finally {
      db.database.links.create = create;
      await app.close();
    }
  });
});

const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;
if (postgresUrl) {
  describe('an aborted upload and a real outage of PostgreSQL', () => {
    let db: TestDatabase;
    let proxy: TcpProxy;
    let database: Database;
    before(async () => {
      db = await openTestDatabase('postgres');
      const target = new URL(db.url);
      proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
      await proxy.start();
      const viaProxy = new URL(db.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const { openDatabase } = await import('../../src/storage/database.js');
      database = openDatabase({ kind: 'postgres', url: viaProxy.toString() }, { poolMax: 2, connectTimeoutMs: 500 });
    });
    after(async () => {
      await database?.close();
      await proxy?.close();
      await db?.cleanup();
    });

    it('logs the aborted upload as the client’s, and the cut connection to PostgreSQL as the database’s', async () => {
      const log = logCollector();
      const { app, port } = await listening(database, log.destination);
      try {
        await abortedUpload(port);
        assert.ok(await settle(() => log.lines.some(aborted)));
        assert.equal(log.lines.filter(unavailable).length, 0);

        await proxy.cut();
        const res = await fetch(`http://127.0.0.1:${port}/v2/shorten?url=${encodeURIComponent('https://example.com/during-the-outage')}`);
        assert.equal(res.status, 503);
        assert.ok(log.lines.some(unavailable), JSON.stringify(log.lines));
      } finally {
        await app.close();
      }
    });
  });
}
