import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// The webhooks' outbox (decision 0045): one row per event and subscribed endpoint, written in the same transaction
// as the change that causes it, so an acknowledged change is never without its delivery. `event_id` (msg_…) is the
// `webhook-id` of every attempt; `data` the event's snapshot, rendered into the body at each attempt the same way.
// The worker claims due rows (`claimed_until`, a lease that a killed instance's claims run out of), sends, and
// records the outcome; a pending row is retried with backoff until 24 h after the event, then failed.
export function webhookDeliveries(dialect: Dialect) {
  const id = dialect === 'sqlite' ? sql`integer primary key autoincrement` : sql`serial primary key`;
  const time = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', id)
        .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        // pending, delivered or failed
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', time, (c) => c.notNull())
        .addColumn('claimed_until', time)
        .addColumn('last_attempt_at', time)
        .addColumn('response_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('delivered_at', time)
        .execute();
      // What the worker claims: only pending rows are in it.
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .column('next_attempt_at')
        .where(sql.ref('status'), '=', 'pending')
        .execute();
      await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
    },
  };
}
