// The link resources of the v3 interface (docs/api/v3.md), from one link model.
import { linkUuid, userUuid, workspaceUuid } from '../accounts/ids.js';
import type { MadeLink, ShownLink } from './link-service.js';
import { shortUrl } from './link-view.js';
import type { RuleSchema } from './v3-schemas.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** An element of POST /v3/shorten/bulk's answer. */
export function toBulkResult({ link, domain, reused }: MadeLink) {
  return {
    id: linkUuid(link.id),
    url: link.url,
    slug: link.key,
    isCustomSlug: link.slug !== null,
    domain: domain.hostname,
    isReused: reused,
    shortLink: shortUrl(link, domain),
    comment: link.comment ?? '',
  };
}

/** GET /v3/shorten's answer: the v2 fields the launcher extension reads, with the v3 id. */
export function toShortenResult({ link, domain }: MadeLink) {
  return {
    id: linkUuid(link.id),
    code: link.code,
    slug: link.key,
    domain: domain.hostname,
    urlPrefix: domain.urlPrefix,
    status: link.status,
    url: link.url,
    shortened: shortUrl(link, domain),
  };
}

/** A link as v3 lists it: `domainName` in a list, `domain` for one link (the spec's two spellings). */
function toV3Link({ link, domain, clicks, tags }: ShownLink) {
  return {
    id: linkUuid(link.id),
    slug: link.key,
    isCustomSlug: link.slug !== null,
    shortUrl: shortUrl(link, domain),
    originalUrl: link.url,
    allowSearchEngineIndexing: false,
    archived: false,
    suspended: link.status === 'blocked',
    statsClicks: clicks,
    expiresAt: iso(link.expiresAt),
    hasPassword: link.passwordHash !== null,
    forwardQuery: link.forwardQuery,
    // Checked against the API's own shape before they were stored (link-rules.ts).
    rules: link.rules as RuleSchema[],
    maxVisits: link.maxVisits,
    tags: [...tags],
    preview: link.preview,
    userId: userUuid(link.accountId),
    workspaceId: workspaceUuid(link.accountId),
    comment: link.comment ?? '',
    createdAt: new Date(link.createdAt).toISOString(),
    updatedAt: iso(link.updatedAt),
  };
}

export const toListedLink = (shown: ShownLink) => ({ domainName: shown.domain.hostname, ...toV3Link(shown) });
export const toOneLink = (shown: ShownLink) => ({ domain: shown.domain.hostname, ...toV3Link(shown) });
