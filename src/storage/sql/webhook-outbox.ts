// The webhooks' outbox, written inside the write that makes a change (decision 0045): one pending delivery per
// endpoint of the account that asked for the event, none (one indexed look-up) when no endpoint did.
import { randomBytes } from 'node:crypto';
import { type Insertable, type Kysely, sql } from 'kysely';
import type { ClickEvent } from '../stores/analytics.js';
import type { LinkRecord } from '../stores/links.js';
import type { ClickEventData, LinkEventData, WebhookEventType } from '../stores/webhooks.js';
import type { Tables, WebhookDeliveryTable } from '../tables.js';

/** A new event's id, `msg_` and 16 random bytes: the webhook-id receivers drop repeats by. */
export const newEventId = (): string => `msg_${randomBytes(16).toString('base64url')}`;

/** A delivery due now, not yet tried: the row every event writes for each of its endpoints. */
export function pendingRow(endpointId: number, eventId: string, type: string, data: string, now: number): Insertable<WebhookDeliveryTable> {
  return {
    endpoint_id: endpointId,
    event_id: eventId,
    type,
    data,
    created_at: now,
    status: 'pending',
    next_attempt_at: now,
    claimed_until: null,
    last_attempt_at: null,
    response_status: null,
    last_error: null,
    delivered_at: null,
  };
}

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
    .values(endpoints.map(({ id }) => pendingRow(id, eventId, type, json, now)))
    .execute();
}

/** A link event, in the write that changed the link. */
export const recordLinkEvent = (db: Kysely<Tables>, type: 'link.created' | 'link.updated' | 'link.deleted', link: LinkRecord) =>
  recordEvent(db, link.accountId, type, linkEventData(link));

/** An endpoint that asked for link.clicked: whose clicks it gets, and whether bots' too. */
export interface ClickSubscriber {
  readonly id: number;
  readonly account_id: number;
  readonly include_bots: boolean | number;
}

/** Every endpoint that asked for link.clicked (few, of every account): one read a stored batch of visits. */
export const CLICK_SUBSCRIBERS =
  "select id, account_id, include_bots from webhook_endpoints where disabled_at is null and (' ' || events || ' ') like '% link.clicked %'";

/**
 * The link.clicked deliveries of one stored batch of visits (one analytics flush, so its clicks are at most a flush
 * interval apart): per subscribed endpoint one delivery carrying its account's clicks, bots' only when it asked.
 */
export function clickDeliveries(
  owned: ReadonlyArray<{ readonly event: ClickEvent; readonly accountId: number }>,
  subscribers: readonly ClickSubscriber[],
): Array<{ readonly endpointId: number; readonly data: string }> {
  return subscribers.flatMap((endpoint) => {
    const clicks: ClickEventData[] = [];
    for (const { event, accountId } of owned) {
      if (accountId !== endpoint.account_id || (event.bot !== null && !endpoint.include_bots)) continue;
      const { linkId, time, clicks: count, bot, country, city, browser, os, deviceType, referrerHost, language } = event;
      clicks.push({ linkId, time, clicks: count, bot, country, city, browser, os, deviceType, referrerHost, language });
    }
    return clicks.length === 0 ? [] : [{ endpointId: endpoint.id, data: JSON.stringify({ clicks }) }];
  });
}

/** In the write that stores a batch of visits: its link.clicked deliveries. */
export async function recordClickEvents(
  db: Kysely<Tables>,
  owned: ReadonlyArray<{ readonly event: ClickEvent; readonly accountId: number }>,
): Promise<void> {
  if (owned.length === 0) return;
  const subscribers = (await sql<ClickSubscriber>`${sql.raw(CLICK_SUBSCRIBERS)}`.execute(db)).rows;
  const deliveries = clickDeliveries(owned, subscribers);
  if (deliveries.length === 0) return;
  const now = Date.now();
  await db
    .insertInto('webhook_deliveries')
    .values(deliveries.map(({ endpointId, data }) => pendingRow(endpointId, newEventId(), 'link.clicked', data, now)))
    .execute();
}
