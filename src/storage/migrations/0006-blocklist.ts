import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// Abuse controls: the destination blocklist every instance reads, and the reason an
// administrator gave for blocking a link. Ids only grow (autoincrement, bigserial), so the
// list's version (its count and highest id) changes with every add and remove.
export function blocklist(dialect: Dialect) {
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  const id = dialect === 'sqlite' ? sql`integer primary key autoincrement` : sql`bigserial primary key`;
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('blocked_hosts')
        .addColumn('id', id)
        .addColumn('host', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.alterTable('links').addColumn('block_reason', 'text').execute();
    },
  };
}
