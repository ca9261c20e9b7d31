import { linkKey, linkUrl } from './link-keys.js';

import type { LoadRequest } from './load.js';

export type ServerName = 'baseline' | 'brief' | 'brief1k';

export interface Scenario {
  readonly name: string;
  readonly server: ServerName;
  /** What each request is; links = links preloaded on that server. */
  request(links: number): LoadRequest;
  /** Links each request makes, when more than one: the scenario is then reported in links/s. */
  readonly itemsPerRequest?: number;
}

/** Links in one bulk request: the interface's (and the SDK's) maximum. */
export const BULK_ITEMS = 200;

export const DOMAIN = 'brief.bench';

export const SCENARIOS: readonly Scenario[] = [
  { name: 'baseline', server: 'baseline', request: () => ({ kind: 'fixed', path: '/abc' }) },
  { name: 'redirect hot', server: 'brief', request: () => ({ kind: 'fixed', path: `/${linkKey(0)}` }) },
  { name: 'redirect zipf', server: 'brief', request: (links) => ({ kind: 'zipf', links }) },
  { name: 'redirect cold', server: 'brief', request: (links) => ({ kind: 'link', links }) },
  { name: 'redirect cold 1k', server: 'brief1k', request: (links) => ({ kind: 'link', links }) },
  { name: 'shorten new', server: 'brief', request: () => ({ kind: 'shorten' }) },
  { name: 'shorten dedupe', server: 'brief', request: () => ({ kind: 'fixed', path: `/v2/shorten?url=${encodeURIComponent(linkUrl(1))}` }) },
  { name: 'list domains', server: 'brief', request: () => ({ kind: 'fixed', path: '/v2/shorten-domains' }) },
  { name: 'bulk create', server: 'brief', itemsPerRequest: BULK_ITEMS, request: () => ({ kind: 'bulk', items: BULK_ITEMS }) },
];
