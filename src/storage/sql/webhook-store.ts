import type { Selectable } from 'kysely';
import type { Connection } from '../connection.js';
import { type NewWebhookEndpoint, WEBHOOK_EVENTS, type WebhookEndpointRecord, type WebhookEventType, type WebhookStore } from '../stores/webhooks.js';
import type { WebhookEndpointTable } from '../tables.js';

const isEvent = (name: string): name is WebhookEventType => (WEBHOOK_EVENTS as readonly string[]).includes(name);
const nullableNumber = (value: number | null) => (value === null ? null : Number(value)); // bigint arrives as a string on PostgreSQL

export const toEndpoint = (row: Selectable<WebhookEndpointTable>): WebhookEndpointRecord => ({
  id: row.id,
  accountId: row.account_id,
  url: row.url,
  // A type this version does not know (written by a later one) is left out, never sent.
  events: row.events.split(' ').filter(isEvent),
  includeBots: Boolean(row.include_bots),
  secret: row.secret,
  previousSecret: row.previous_secret,
  previousSecretUntil: nullableNumber(row.previous_secret_until),
  disabledAt: nullableNumber(row.disabled_at),
  disabledReason: row.disabled_reason,
  createdAt: Number(row.created_at),
});

/** Webhook endpoints, in the same SQL on both dialects. */
export class SqlWebhookStore implements WebhookStore {
  constructor(private readonly connection: Connection) {}

  async add(endpoint: NewWebhookEndpoint): Promise<WebhookEndpointRecord> {
    const row = await this.connection.write((db) =>
      db
        .insertInto('webhook_endpoints')
        .values({
          account_id: endpoint.accountId,
          url: endpoint.url,
          events: endpoint.events.join(' '),
          include_bots: endpoint.includeBots ? 1 : 0, // better-sqlite3 binds no booleans; PostgreSQL reads '1' as true
          secret: endpoint.secret,
          previous_secret: null,
          previous_secret_until: null,
          failing_since: null,
          disabled_at: null,
          disabled_reason: null,
          created_at: Date.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return toEndpoint(row);
  }

  async endpointsOf(accountId: number): Promise<WebhookEndpointRecord[]> {
    const rows = await this.connection.db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
    return rows.map(toEndpoint);
  }

  async endpointOf(accountId: number, id: number): Promise<WebhookEndpointRecord | undefined> {
    const row = await this.connection.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toEndpoint(row);
  }

  async remove(accountId: number, id: number): Promise<boolean> {
    const result = await this.connection.write((db) =>
      db.deleteFrom('webhook_endpoints').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst(),
    );
    return Number(result.numDeletedRows) > 0;
  }

  async rotate(accountId: number, id: number, secret: string, previousUntil: number): Promise<WebhookEndpointRecord | undefined> {
    const row = await this.connection.write((db) =>
      db
        .updateTable('webhook_endpoints')
        .set((eb) => ({ previous_secret: eb.ref('secret'), previous_secret_until: previousUntil, secret }))
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toEndpoint(row);
  }

  async setDisabled(
    accountId: number,
    id: number,
    disabled: { readonly at: number; readonly reason: string } | null,
  ): Promise<WebhookEndpointRecord | undefined> {
    const row = await this.connection.write((db) =>
      db
        .updateTable('webhook_endpoints')
        // Back on, its failing spell is forgotten: 3 days of failures are counted afresh from its next failure.
        .set({ disabled_at: disabled?.at ?? null, disabled_reason: disabled?.reason ?? null, failing_since: null })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toEndpoint(row);
  }
}
