import type { Kysely } from 'kysely';
import type { DatabaseTarget } from '../config.js';
import type { Connection, Dialect } from './connection.js';
import { openPostgresConnection, type PostgresOptions } from './postgres/connection.js';
import { postgresStores } from './postgres/stores.js';
import { openSqliteConnection } from './sqlite/connection.js';
import { sqliteStores } from './sqlite/stores.js';
import type { StoreSet } from './stores/store-set.js';
import type { Tables } from './tables.js';

export type { Dialect } from './connection.js';
/** Only PostgreSQL's pool takes options. */
export type DatabaseOptions = PostgresOptions;

/**
 * An open database: the stores the services are given, plus the raw connection for
 * migrations and for tests that arrange rows directly. Only the composition root
 * (services.ts) holds a Database; services see their stores alone.
 */
export interface Database extends StoreSet {
  readonly dialect: Dialect;
  /** Kysely on the writer connection: migrations and tests. */
  readonly db: Kysely<Tables>;
  /** A durable write (group-committed on SQLite): migrations and tests. */
  write: Connection['write'];
  close(): Promise<void>;
}

/** Opens the target's engine and the stores of its dialect (sqlite/ or postgres/), chosen here once. */
export function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Database {
  if (target.kind === 'postgres') {
    const connection = openPostgresConnection(target.url, options);
    return withConnection('postgres', connection, postgresStores(connection));
  }
  const connection = openSqliteConnection(target.path);
  return withConnection('sqlite', connection, sqliteStores(connection));
}

function withConnection(dialect: Dialect, connection: Connection, stores: StoreSet): Database {
  return { dialect, ...stores, db: connection.db, write: connection.write, close: connection.close };
}
