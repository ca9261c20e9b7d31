import { type Kysely, sql } from 'kysely';
import type { Connection } from '../connection.js';
import { SqlAnalyticsStore } from '../sql/analytics-store.js';
import { applyEventBatch } from '../sql/click-writes.js';
import type { ClickEventBatch } from '../stores/analytics.js';
import type { Tables } from '../tables.js';

/** The first key of the advisory lock that serializes the expiry of one account's events. */
const EXPIRY_LOCK = 0x0b51ef;

/** Click events on PostgreSQL: each batch written with all its rollups, the `link_id` rows among them. */
export class PostgresAnalyticsStore extends SqlAnalyticsStore<Connection> {
  // The database's collation may order text by language; the code point order is asked for.
  protected readonly valueOrder = sql`value collate "C"`;

  add(batch: ClickEventBatch): Promise<void> {
    return this.connection.write((trx) => applyEventBatch(trx, batch, { links: true }));
  }

  protected override async expireAccount(trx: Kysely<Tables>, id: number, cutoff: number): Promise<void> {
    // Two instances expiring one account at once would both roll up the same events before either
    // deletes them (read committed): the second waits here, then finds them gone.
    await sql`select pg_advisory_xact_lock(${EXPIRY_LOCK}, ${id})`.execute(trx);
    await super.expireAccount(trx, id, cutoff);
  }
}
