// isConnectionError must recognize what pg really throws when PostgreSQL is down,
// unreachable or saturated; those become 503 E_SERVICE_UNAVAILABLE.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import pg from 'pg';
import { isConnectionError } from '../../src/storage/connection-errors.js';
import { freePort } from '../scale-support/server-process.js';
import { TEST_DATABASE_URL } from '../scale-support/test-services.js';

async function errorOf(pool: pg.Pool): Promise<unknown> {
  pool.on('error', () => {});
  try {
    await pool.query('select 1');
  } catch (error) {
    return error;
  } finally {
    await pool.end().catch(() => {});
  }
  assert.fail('the query succeeded');
}

describe('recognizing connection errors', () => {
  it('a server that is not running (connection refused)', async () => {
    const error = await errorOf(new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/x` }));
    assert.ok(isConnectionError(error), String(error));
  });

  it('a server that accepts and never answers (connect timeout)', async () => {
    const silent = net.createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const error = await errorOf(new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/x`, connectionTimeoutMillis: 200 }));
      assert.ok(isConnectionError(error), String(error));
    } finally {
      silent.close();
    }
  });

  it('a failed connect to every address of a name, and codes that are query errors', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' });
    assert.ok(isConnectionError(new AggregateError([refused, refused])));
    assert.ok(isConnectionError(Object.assign(new Error('the database system is starting up'), { code: '57P03' })));
    assert.equal(isConnectionError(Object.assign(new Error('duplicate key'), { code: '23505' })), false);
    assert.equal(isConnectionError(new Error('syntax error')), false);
  });

  if (TEST_DATABASE_URL) {
    const url = TEST_DATABASE_URL;

    it('a pool whose every connection is busy (pool connect timeout)', async () => {
      const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 200 });
      const held = await pool.connect();
      try {
        const error = await pool.query('select 1').then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(isConnectionError(error), String(error));
      } finally {
        held.release();
        await pool.end();
      }
    });

    it('a session the server terminated', async () => {
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      pool.on('error', () => {});
      pool.on('connect', (client) => client.on('error', () => {}));
      const client = await pool.connect();
      try {
        const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        const sleeping = client.query('select pg_sleep(10)').then(
          () => undefined,
          (e: unknown) => e,
        );
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query('select pg_terminate_backend($1)', [pid]);
        await admin.end();
        const error = await sleeping;
        assert.ok(isConnectionError(error), String(error));
        const after = await client.query('select 1').then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(isConnectionError(after), String(after));
      } finally {
        client.release();
        await pool.end();
      }
    });
  }
});
