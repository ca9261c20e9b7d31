import { linkKey, linkUrl } from './link-keys.js';

import type { LoadRequest } from './load.js';

/** hooked, hanging: the big database with a webhook endpoint on the links' account (bench/webhook-servers.ts). */
export type ServerName = 'baseline' | 'brief' | 'brief1k' | 'hooked' | 'hanging';

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

/** A person's browser, for the scenarios whose answer may depend on the User-Agent. */
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The preloaded link that has a card for chat apps (bench/preload.ts), where the build stores cards. */
export const CARDED_LINK = 1;

export const SCENARIOS: readonly Scenario[] = [
  { name: 'baseline', server: 'baseline', request: () => ({ kind: 'fixed', path: '/abc' }) },
  { name: 'redirect hot', server: 'brief', request: () => ({ kind: 'fixed', path: `/${linkKey(0)}` }) },
  // A person's visit of the hot link, and of a link with a card (decision 0041), by a browser; against a build without
  // cards the second is a plain link too: what a person's visit of a link with a card costs over a plain one's.
  { name: 'redirect hot browser', server: 'brief', request: () => ({ kind: 'fixed', path: `/${linkKey(0)}`, userAgent: BROWSER }) },
  { name: 'redirect hot card', server: 'brief', request: () => ({ kind: 'fixed', path: `/${linkKey(CARDED_LINK)}`, userAgent: BROWSER }) },
  { name: 'redirect zipf', server: 'brief', request: (links) => ({ kind: 'zipf', links }) },
  { name: 'redirect cold', server: 'brief', request: (links) => ({ kind: 'link', links }) },
  { name: 'redirect cold 1k', server: 'brief1k', request: (links) => ({ kind: 'link', links }) },
  { name: 'shorten new', server: 'brief', request: () => ({ kind: 'shorten' }) },
  { name: 'shorten dedupe', server: 'brief', request: () => ({ kind: 'fixed', path: `/v2/shorten?url=${encodeURIComponent(linkUrl(1))}` }) },
  { name: 'list domains', server: 'brief', request: () => ({ kind: 'fixed', path: '/v2/shorten-domains' }) },
  { name: 'bulk create', server: 'brief', itemsPerRequest: BULK_ITEMS, request: () => ({ kind: 'bulk', items: BULK_ITEMS }) },
  // Issue 41: the same loads with an endpoint subscribed to link.clicked and link.created (every visit and every shorten
  // writes deliveries), side by side with "redirect hot" and "shorten new": one receiver answering at once, one never
  // answering (each delivery waits out its 10 s). Neither should move the redirect or the shorten beyond noise.
  { name: 'redirect hot webhook', server: 'hooked', request: () => ({ kind: 'fixed', path: `/${linkKey(0)}` }) },
  { name: 'redirect hot webhook hanging', server: 'hanging', request: () => ({ kind: 'fixed', path: `/${linkKey(0)}` }) },
  { name: 'shorten new webhook', server: 'hooked', request: () => ({ kind: 'shorten' }) },
  { name: 'shorten new webhook hanging', server: 'hanging', request: () => ({ kind: 'shorten' }) },
];

/** The servers with a webhook endpoint, and whether its receiver hangs. */
export const WEBHOOK_SERVERS = { hooked: false, hanging: true } as const;
