import type { ShortDomain } from '../config.js';
import type { LinkRow } from '../storage/tables.js';

/** The link resource of the v2 interface. */
export interface LinkView {
  code: string;
  url: string;
  status: 'public' | 'blocked';
  shortened: string;
  hostname: string;
  tally: number;
  urlPrefix: string;
  domain: string;
  slug?: string;
  title?: string;
}

export function toLinkView(row: LinkRow, domain: ShortDomain): LinkView {
  const view: LinkView = {
    code: row.code,
    url: row.url,
    status: row.status,
    shortened: `${domain.urlPrefix}/${row.key}`,
    hostname: new URL(row.url).hostname,
    tally: row.id,
    urlPrefix: domain.urlPrefix,
    domain: domain.hostname,
  };
  if (row.slug !== null) view.slug = row.slug;
  if (row.title !== null) view.title = row.title;
  return view;
}
