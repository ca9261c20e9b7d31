// The webhooks' outbox, written inside the write that makes a change (decision 0045): one pending delivery per
// endpoint of the account that asked for the event, none (one indexed look-up) when no endpoint did.
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { LinkRecord } from '../stores/links.js';
import type { LinkEventData, WebhookEventType } from '../stores/webhooks.js';
import type { Tables } from '../tables.js';

/** A new event's id, `msg_` and 16 random bytes: the webhook-id receivers drop repeats by. */
export const newEventId = (): string => `msg_${randomBytes(16).toString('base64url')}`;

/** The LIKE pattern that finds an event type in an endpoint's space-separated `events`. */
export const subscribedTo = (type: string): string => `% ${type} %`;

/** What a link event carries of the link. */
export function linkEventData(link: LinkRecord): LinkEventData {
  return {
    linkId: link.id,
    accountId: link.accountId,
    domain: link.domain,
    key: link.key,
    slug: link.slug,
    url: link.url,
    title: link.title,
    comment: link.comment,
    createdAt: link.createdAt,
    updatedAt: link.updatedAt,
    expiresAt: link.expiresAt,
    deletedAt: link.deletedAt,
  };
}

/** In the write that makes the change: the event, for every endpoint of the account subscribed to it. */
export async function recordEvent(db: Kysely<Tables>, accountId: number, type: WebhookEventType, data: object): Promise<void> {
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('account_id', '=', accountId)
    .where('disabled_at', 'is', null)
    .where(sql<string>`' ' || events || ' '`, 'like', subscribedTo(type))
    .execute();
  if (endpoints.length === 0) return;
  const now = Date.now();
  const eventId = newEventId();
  const json = JSON.stringify(data);
  await db
    .insertInto('webhook_deliveries')
    .values(
      endpoints.map(({ id }) => ({
        endpoint_id: id,
        event_id: eventId,
        type,
        data: json,
        created_at: now,
        status: 'pending' as const,
        next_attempt_at: now,
        claimed_until: null,
        last_attempt_at: null,
        response_status: null,
        last_error: null,
        delivered_at: null,
      })),
    )
    .execute();
}

/** A link event, in the write that changed the link. */
export const recordLinkEvent = (db: Kysely<Tables>, type: 'link.created' | 'link.updated' | 'link.deleted', link: LinkRecord) =>
  recordEvent(db, link.accountId, type, linkEventData(link));
