import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';

export type Dialect = 'sqlite' | 'postgres';

/**
 * An open connection as the stores of both dialects use it (sql/): Kysely, and durable writes.
 * Each dialect opens its own and adds what only it has (sqlite/connection.ts, postgres/connection.ts).
 */
export interface Connection {
  readonly db: Kysely<Tables>;
  /**
   * Runs a write that must be durable before it is acknowledged. On SQLite, writes
   * arriving together share one transaction and one fsync (group commit).
   */
  write<T>(work: (db: Kysely<Tables>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
