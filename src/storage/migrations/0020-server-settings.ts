import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// What a running server records for the CLI to read (decision 0033): one row a key, its value as text
// (JSON where it has parts), and when it was last written. The first key is `served_domains`: the default
// domain (BASE_URL) and the public domains the last server to start serves.
export function serverSettings(dialect: Dialect) {
  const time = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('server_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
    },
  };
}
