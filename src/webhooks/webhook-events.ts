// A delivery's body, `{type, timestamp, data}` (Standard Webhooks), rendered from the event's stored snapshot the
// same way at every attempt: a link as the v3 interface shows it, a domain by its name.
import { linkUuid, workspaceUuid } from '../accounts/ids.js';
import type { ClickEventData, LinkEventData, WebhookDelivery } from '../storage/stores/webhooks.js';

/** The event a "Send test event" delivers: only to the endpoint it was asked for, whatever its events. */
export const TEST_EVENT = 'webhook.test';

/** A short domain's `scheme://host[:port]`, or undefined for one Brief no longer serves. */
export type UrlPrefixOf = (hostname: string) => Promise<string | undefined>;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export async function eventBody(delivery: Pick<WebhookDelivery, 'type' | 'data' | 'createdAt'>, urlPrefixOf: UrlPrefixOf): Promise<string> {
  const stored = JSON.parse(delivery.data) as Record<string, unknown>;
  const data =
    delivery.type === 'link.clicked'
      ? clicksData(stored as { clicks: ClickEventData[] })
      : delivery.type.startsWith('links.')
        ? await bulkData(stored as { links: LinkEventData[] }, urlPrefixOf)
        : delivery.type.startsWith('link.')
          ? await linkData(stored as unknown as LinkEventData, urlPrefixOf)
          : stored;
  return JSON.stringify({ type: delivery.type, timestamp: new Date(delivery.createdAt).toISOString(), data });
}

/** link.clicked: the visits of one analytics flush, each with its link's v3 id. */
function clicksData({ clicks }: { clicks: ClickEventData[] }) {
  return {
    clicks: clicks.map(({ linkId, time, ...visit }) => ({ linkId: linkUuid(linkId), time: new Date(time).toISOString(), ...visit })),
  };
}

/** links.imported, links.deleted: what the change was (`source`, `domain`) and its links, each as a one-link event shows it. */
async function bulkData({ links, ...change }: { links: LinkEventData[] }, urlPrefixOf: UrlPrefixOf) {
  return { ...change, links: await Promise.all(links.map((link) => linkData(link, urlPrefixOf))) };
}

async function linkData(link: LinkEventData, urlPrefixOf: UrlPrefixOf) {
  const prefix = await urlPrefixOf(link.domain);
  return {
    id: linkUuid(link.linkId),
    workspaceId: workspaceUuid(link.accountId),
    domain: link.domain,
    slug: link.key,
    isCustomSlug: link.slug !== null,
    shortUrl: prefix === undefined ? null : `${prefix}/${link.key}`,
    url: link.url,
    title: link.title,
    comment: link.comment ?? '',
    createdAt: iso(link.createdAt),
    updatedAt: iso(link.updatedAt),
    expiresAt: iso(link.expiresAt),
    deletedAt: iso(link.deletedAt),
  };
}
