// A short domain as the caller sees it (the v2 and v3 views and the CLI's list are made from these).
import type { Config, ShortDomain } from '../config.js';
import type { DomainRecord, StoredDomain } from '../storage/stores/domains.js';
import { servesRedirects, verificationRecord } from './domain-verification.js';
import type { DomainPage, ListDomainsQuery, Visibility } from './schemas.js';

export type { DomainPage, Visibility } from './schemas.js';

export interface DomainEntry extends ShortDomain {
  readonly visibility: Visibility;
  /** The default domain (BASE_URL's). */
  readonly primary: boolean;
  /** Length of the codes generated on it: its own setting, else CODE_LENGTH. */
  readonly codeLength: number;
  /** Serves its links and redirects: public domains always, a private one once its control is proven. */
  readonly verified: boolean;
  /** While a claim is unverified: the TXT record that proves control of it. */
  readonly verification?: { readonly type: 'TXT'; readonly record: string; readonly value: string };
  /** A private domain's redirects, when set: where its bare address and its unknown keys go. */
  readonly homePageRedirectUrl?: string;
  readonly notFoundPageRedirectUrl?: string;
}

/** A domain a link is being made on, with the length of the codes generated there. */
export interface ShortenDomain extends ShortDomain {
  readonly codeLength: number;
}

export const toShortDomain = (domain: DomainRecord): ShortDomain => ({ hostname: domain.hostname, urlPrefix: domain.urlPrefix });

export const visibilityOf = (domain: DomainRecord): Visibility => (domain.accountId === null ? 'public' : 'private');

export function configuredEntry(config: Config, domain: ShortDomain): DomainEntry {
  return {
    ...domain,
    visibility: 'public',
    primary: domain.hostname === config.defaultDomain.hostname,
    codeLength: config.codeLength,
    verified: true,
  };
}

export function storedEntry(config: Config, domain: StoredDomain): DomainEntry {
  const verified = servesRedirects(domain);
  return {
    ...toShortDomain(domain),
    visibility: visibilityOf(domain),
    primary: false,
    codeLength: domain.codeLength ?? config.codeLength,
    verified,
    ...(!verified &&
      domain.verificationToken !== null && {
        verification: { type: 'TXT' as const, record: verificationRecord(domain.hostname), value: domain.verificationToken },
      }),
    ...(domain.accountId !== null && domain.homeRedirectUrl !== null && { homePageRedirectUrl: domain.homeRedirectUrl }),
    ...(domain.accountId !== null && domain.notFoundRedirectUrl !== null && { notFoundPageRedirectUrl: domain.notFoundRedirectUrl }),
  };
}

/** Public domains first, then private ones, each by name. */
export function inListOrder(entries: DomainEntry[]): DomainEntry[] {
  return entries.sort((a, b) => (a.visibility === b.visibility ? (a.hostname < b.hostname ? -1 : 1) : a.visibility === 'public' ? -1 : 1));
}

/** One page of v2's list. */
export function pageOf(all: readonly DomainEntry[], query: ListDomainsQuery): DomainPage {
  const matching = query.visibility === 'all' ? all : all.filter((d) => d.visibility === query.visibility);
  const start = (query.page - 1) * query.perPage;
  return {
    meta: {
      total: matching.length,
      perPage: query.perPage,
      currentPage: query.page,
      lastPage: Math.max(1, Math.ceil(matching.length / query.perPage)),
      firstPage: 1,
    },
    data: matching.slice(start, start + query.perPage).map((d) => ({ domainName: d.hostname, visibility: d.visibility })),
  };
}
