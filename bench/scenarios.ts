import { linkKey, linkUrl } from './link-keys.js';

export type ServerName = 'baseline' | 'brief' | 'brief1k';

export interface Scenario {
  readonly name: string;
  readonly server: ServerName;
  readonly expectStatus: number;
  /** A fixed path or a per-request path maker; links = links preloaded on that server. */
  path(links: number): string | (() => string);
  /** POST scenarios: a maker of each request's JSON body. */
  body?(): () => string;
  /** Links each request makes, when more than one: the scenario is then reported in links/s. */
  readonly itemsPerRequest?: number;
}

/** Links in one bulk request: the interface's (and the SDK's) maximum. */
export const BULK_ITEMS = 200;

export const DOMAIN = 'brief.bench';

const random = (links: number) => () => `/${linkKey(Math.floor(Math.random() * links))}`;

export const SCENARIOS: readonly Scenario[] = [
  { name: 'baseline', server: 'baseline', expectStatus: 301, path: () => '/abc' },
  { name: 'redirect hot', server: 'brief', expectStatus: 301, path: () => `/${linkKey(0)}` },
  { name: 'redirect cold', server: 'brief', expectStatus: 301, path: random },
  { name: 'redirect cold 1k', server: 'brief1k', expectStatus: 301, path: random },
  {
    name: 'shorten new',
    server: 'brief',
    expectStatus: 200,
    path: () => {
      const run = Math.random().toString(36).slice(2, 8);
      let n = 0;
      return () => `/v2/shorten?url=${encodeURIComponent(`https://new.example.org/p/${run}/${n++}`)}`;
    },
  },
  { name: 'shorten dedupe', server: 'brief', expectStatus: 200, path: () => `/v2/shorten?url=${encodeURIComponent(linkUrl(1))}` },
  { name: 'list domains', server: 'brief', expectStatus: 200, path: () => '/v2/shorten-domains' },
  {
    name: 'bulk create',
    server: 'brief',
    expectStatus: 200,
    itemsPerRequest: BULK_ITEMS,
    path: () => '/v3/shorten/bulk',
    body: () => {
      const run = Math.random().toString(36).slice(2, 8);
      let n = 0;
      return () => JSON.stringify(Array.from({ length: BULK_ITEMS }, () => ({ url: `https://bulk.example.org/p/${run}/${n++}` })));
    },
  },
];
