// The webhooks' outbox, written inside the write that makes a change (decision 0045): one pending delivery per
// endpoint of the account that asked for the event, none (one indexed look-up) when no endpoint did.
import { randomBytes } from 'node:crypto';
import { type Insertable, type Kysely, sql } from 'kysely';
import type { ClickEvent } from '../stores/analytics.js';
import type { ImportedLink, ImportOutcome } from '../stores/imports.js';
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

/**
 * The events of changes to many links at once (decision 0045): a delivery carries up to LINKS_PER_EVENT links, and
 * goes to the endpoints that asked for the one-link event (an import makes links, a domain's removal deletes them).
 * One event a link would make a million-link import a million deliveries an endpoint, hours of the worker's.
 */
export const BULK_LINK_EVENTS = { 'links.imported': 'link.created', 'links.deleted': 'link.deleted' } as const;
export type BulkLinkEvent = keyof typeof BULK_LINK_EVENTS;
export const LINKS_PER_EVENT = 1000;

/** A bulk event's deliveries' data: per account, its links in chunks, each with what the whole change was (`extra`). */
export function bulkEventChunks(links: readonly LinkEventData[], extra: object): Array<{ readonly accountId: number; readonly data: string }> {
  const byAccount = new Map<number, LinkEventData[]>();
  for (const link of links) byAccount.set(link.accountId, [...(byAccount.get(link.accountId) ?? []), link]);
  const chunks: Array<{ accountId: number; data: string }> = [];
  for (const [accountId, owned] of byAccount) {
    for (let at = 0; at < owned.length; at += LINKS_PER_EVENT) {
      chunks.push({ accountId, data: JSON.stringify({ ...extra, links: owned.slice(at, at + LINKS_PER_EVENT) }) });
    }
  }
  return chunks;
}

/** In the write that changes many links: their bulk events, for every endpoint of each account subscribed to them. */
export async function recordBulkLinkEvent(db: Kysely<Tables>, type: BulkLinkEvent, links: readonly LinkEventData[], extra: object): Promise<void> {
  for (const { accountId, data } of bulkEventChunks(links, extra)) {
    const endpoints = await db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('account_id', '=', accountId)
      .where('disabled_at', 'is', null)
      .where(sql<string>`' ' || events || ' '`, 'like', subscribedTo(BULK_LINK_EVENTS[type]))
      .execute();
    if (endpoints.length === 0) continue;
    const now = Date.now();
    const eventId = newEventId();
    await db
      .insertInto('webhook_deliveries')
      .values(endpoints.map(({ id }) => pendingRow(id, eventId, type, data, now)))
      .execute();
  }
}

/** What links.imported carries of each link an import batch wrote. */
export function importedEventData(links: readonly ImportedLink[], outcomes: readonly ImportOutcome[]): LinkEventData[] {
  return outcomes.flatMap((outcome, i) => {
    if (!('imported' in outcome)) return [];
    const link = links[i]!;
    const { id, domain, key, slug } = outcome.imported;
    const { accountId, url, title, comment, createdAt, expiresAt } = link;
    return [{ linkId: id, accountId, domain, key, slug, url, title, comment, createdAt, updatedAt: null, expiresAt, deletedAt: null }];
  });
}

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
