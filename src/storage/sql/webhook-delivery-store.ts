import type { Selectable } from 'kysely';
import type { Connection } from '../connection.js';
import type { AttemptOutcome, WebhookDelivery, WebhookDeliveryStore, WebhookEndpointRecord } from '../stores/webhooks.js';
import type { WebhookDeliveryTable } from '../tables.js';
import { newEventId, pendingRow } from './webhook-outbox.js';
import { toEndpoint } from './webhook-store.js';

const nullableNumber = (value: number | null) => (value === null ? null : Number(value)); // bigint arrives as a string on PostgreSQL

const toDelivery = (row: Selectable<WebhookDeliveryTable>): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  type: row.type,
  data: row.data,
  createdAt: Number(row.created_at),
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: Number(row.next_attempt_at),
  lastAttemptAt: nullableNumber(row.last_attempt_at),
  responseStatus: row.response_status,
  lastError: row.last_error,
  deliveredAt: nullableNumber(row.delivered_at),
});

/**
 * Webhook deliveries, in the same SQL on both dialects but for one step passed in: `lockRows`, whether the claim
 * takes its rows FOR UPDATE SKIP LOCKED (PostgreSQL, where instances claim side by side; SQLite has one writer).
 */
export class SqlWebhookDeliveryStore implements WebhookDeliveryStore {
  constructor(
    private readonly connection: Connection,
    private readonly lockRows: boolean,
  ) {}

  async enqueue(endpointId: number, type: string, data: string): Promise<WebhookDelivery> {
    const row = await this.connection.write((db) =>
      db
        .insertInto('webhook_deliveries')
        .values(pendingRow(endpointId, newEventId(), type, data, Date.now()))
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return toDelivery(row);
  }

  async claimDue(now: number, leaseMs: number, limit: number): Promise<Array<{ delivery: WebhookDelivery; endpoint: WebhookEndpointRecord }>> {
    // A read first: a round with nothing due (the usual tick) costs no write, so no commit and no fsync.
    const any = await this.connection.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .limit(1)
      .executeTakeFirst();
    if (any === undefined) return [];
    const rows = await this.connection.write(async (db) => {
      let due = db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit);
      if (this.lockRows) due = due.forUpdate().skipLocked();
      return db
        .updateTable('webhook_deliveries')
        .set({ claimed_until: now + leaseMs })
        .where('id', 'in', due)
        .returningAll()
        .execute();
    });
    if (rows.length === 0) return [];
    const endpointIds = [...new Set(rows.map((row) => row.endpoint_id))];
    const endpoints = await this.connection.db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', endpointIds).execute();
    const byId = new Map(endpoints.map((row) => [row.id, toEndpoint(row)]));
    // An endpoint removed meanwhile took its deliveries with it (cascade): none is left without one.
    return rows.flatMap((row) => {
      const endpoint = byId.get(row.endpoint_id);
      return endpoint ? [{ delivery: toDelivery(row), endpoint }] : [];
    });
  }

  async finish(id: number, outcome: AttemptOutcome): Promise<void> {
    await this.connection.write(async (db) => {
      await db
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status: outcome.status,
          attempts: eb('attempts', '+', 1),
          next_attempt_at: outcome.nextAttemptAt,
          claimed_until: null,
          last_attempt_at: outcome.at,
          response_status: outcome.responseStatus,
          last_error: outcome.error,
          delivered_at: outcome.status === 'delivered' ? outcome.at : null,
        }))
        .where('id', '=', id)
        .execute();
      const endpoint = db.updateTable('webhook_endpoints').where('id', '=', outcome.endpointId);
      if (outcome.status === 'delivered') {
        await endpoint.set({ failing_since: null }).execute();
        return;
      }
      await endpoint.set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(outcome.at)) })).execute();
      await endpoint
        .set({ disabled_at: outcome.at, disabled_reason: outcome.disableReason })
        .where('disabled_at', 'is', null)
        .where('failing_since', '<=', outcome.at - outcome.disableAfterMs)
        .execute();
    });
  }

  async release(id: number): Promise<void> {
    await this.connection.write((db) =>
      db.updateTable('webhook_deliveries').set({ claimed_until: null }).where('id', '=', id).where('status', '=', 'pending').execute(),
    );
  }

  async prune(before: number): Promise<number> {
    const result = await this.connection.write((db) =>
      db.deleteFrom('webhook_deliveries').where('status', '!=', 'pending').where('created_at', '<', before).executeTakeFirst(),
    );
    return Number(result.numDeletedRows);
  }

  async queue(): Promise<{ pending: number; oldestCreatedAt: number | null }> {
    const row = await this.connection.db
      .selectFrom('webhook_deliveries')
      .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.min('created_at').as('oldest')])
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return { pending: Number(row.pending), oldestCreatedAt: row.oldest === null ? null : Number(row.oldest) };
  }

  async deliveriesOf(endpointId: number, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.connection.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toDelivery);
  }
}
