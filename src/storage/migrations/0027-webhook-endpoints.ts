import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// Webhook endpoints (issue 41): a workspace's receivers, the events each wants, and its signing secret. The
// secret is stored as it is (a delivery is signed with it, so a hash would not do) and shown once, when made or
// rotated; during a rotation the previous one signs too until `previous_secret_until`. `disabled_at` and its
// reason: an endpoint failing for 3 days (`failing_since`) is turned off and its owner is told why.
export function webhookEndpoints(dialect: Dialect) {
  const id = dialect === 'sqlite' ? sql`integer primary key autoincrement` : sql`serial primary key`;
  const time = dialect === 'sqlite' ? 'integer' : 'bigint';
  const bool = dialect === 'sqlite' ? 'integer' : 'boolean';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', id)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        // Space-separated event types, as the API names them (link.created …).
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('include_bots', bool, (c) => c.notNull().defaultTo(sql.lit(false)))
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', time)
        // Since when every attempt failed (null: the last one succeeded, or none was made); 3 days of it disables.
        .addColumn('failing_since', time)
        .addColumn('disabled_at', time)
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_endpoints_account').on('webhook_endpoints').column('account_id').execute();
    },
  };
}
