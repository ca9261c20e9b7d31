import type { Static } from '@sinclair/typebox';
import type { ShortDomain } from '../config.js';
import type { LinkRecord } from '../storage/stores/links.js';
import type { LinkViewSchema } from './schemas.js';

/** The link resource of the v2 interface. */
export type LinkView = Static<typeof LinkViewSchema>;

export function toLinkView(link: LinkRecord, domain: ShortDomain): LinkView {
  const view: LinkView = {
    code: link.code,
    url: link.url,
    status: link.status,
    shortened: shortUrl(link, domain),
    hostname: new URL(link.url).hostname,
    tally: link.id,
    urlPrefix: domain.urlPrefix,
    domain: domain.hostname,
  };
  if (link.slug !== null) view.slug = link.slug;
  if (link.title !== null) view.title = link.title;
  return view;
}

/** The short URL of a link: its domain's prefix and its key (slug or code). */
export function shortUrl(link: LinkRecord, domain: ShortDomain): string {
  return `${domain.urlPrefix}/${link.key}`;
}
