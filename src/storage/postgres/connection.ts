import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Connection } from '../connection.js';
import type { Tables } from '../tables.js';

export interface PostgresOptions {
  poolMax?: number;
  /** How long to wait for a connection (new, or a free one from the pool) before failing. */
  connectTimeoutMs?: number;
}

// int8 (bigint) columns hold ids, counters and epoch milliseconds: all safe as numbers.
pg.types.setTypeParser(20, (value) => Number(value));

/**
 * A pool of connections to PostgreSQL. A write is a plain transaction on the pool: PostgreSQL groups
 * concurrent commits in its own WAL writer, so there is no group commit here (sqlite/write-batcher.ts).
 */
export function openPostgresConnection(url: string, options: PostgresOptions = {}): Connection {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax ?? 10,
    // Without a bound, a request waits forever on an unreachable server or a full pool;
    // with one, it fails and is answered 503.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
  });
  // A client whose connection drops emits 'error': on the pool while idle, on the client
  // while checked out (pg-pool removes its own listener then). Unhandled, either would
  // crash the process. The query in flight fails on its own, and the pool discards the
  // broken client when it is released, so these listeners need do nothing.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    write: (work) => db.transaction().execute(work),
    close: () => db.destroy(),
  };
}
