import type { Caller } from '../accounts/account-service.js';
import type { Config, ShortDomain } from '../config.js';
import { BriefError } from '../errors.js';
import type { DomainRecord, DomainStore, LinkStore, StoredDomain } from '../storage/stores.js';

export type Visibility = 'public' | 'private';

export interface DomainEntry extends ShortDomain {
  readonly visibility: Visibility;
}

/** A domain a link is being made on, with the length of the codes generated there. */
export interface ShortenDomain extends ShortDomain {
  readonly codeLength: number;
}

export interface DomainPage {
  meta: { total: number; perPage: number; currentPage: number; lastPage: number; firstPage: number };
  data: Array<{ domainName: string; visibility: Visibility }>;
}

const HOSTNAME = /^(?=.{1,253}(:|$))([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/;

const toShortDomain = (domain: DomainRecord): ShortDomain => ({ hostname: domain.hostname, urlPrefix: domain.urlPrefix });

/**
 * Short domains: the public ones from configuration, plus public and private ones
 * added with `brief domain add`. Configuration domains are not stored, so changing
 * BASE_URL or PUBLIC_DOMAINS needs no migration.
 */
export class DomainService {
  private readonly configured: Map<string, ShortDomain>;
  /** The domains table, read at most every CHANGE_POLL_MS for the checks every shorten makes. */
  private stored: { readonly at: number; readonly byHost: Map<string, StoredDomain> } | undefined;
  private loading: Promise<Map<string, StoredDomain>> | undefined;

  constructor(
    private readonly config: Config,
    private readonly store: DomainStore,
    private readonly links: LinkStore,
  ) {
    this.configured = new Map(config.publicDomains.map((d) => [d.hostname, d]));
  }

  /** Every domain the caller may shorten on: public ones first, then the caller's own, each by name. */
  async usableBy(caller: Caller): Promise<DomainEntry[]> {
    const stored = await this.store.usableBy(caller.anonymous ? undefined : caller.accountId);
    const entries: DomainEntry[] = [...this.configured.values()].map((d) => ({ ...d, visibility: 'public' }));
    for (const domain of stored) {
      if (this.configured.has(domain.hostname)) continue;
      entries.push({ ...toShortDomain(domain), visibility: visibilityOf(domain) });
    }
    return entries.sort((a, b) => (a.visibility === b.visibility ? (a.hostname < b.hostname ? -1 : 1) : a.visibility === 'public' ? -1 : 1));
  }

  async list(caller: Caller, query: { visibility: 'all' | Visibility; page: number; perPage: number }): Promise<DomainPage> {
    const all = await this.usableBy(caller);
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

  /** The domain a new link goes on: the requested one if the caller may use it, else the default. */
  async forShorten(caller: Caller, requested: string | undefined): Promise<ShortenDomain> {
    const { codeLength } = this.config;
    if (requested === undefined) return { ...this.config.defaultDomain, codeLength };
    const hostname = requested.trim().toLowerCase();
    const configured = this.configured.get(hostname);
    if (configured) return { ...configured, codeLength };
    // Checked before the query: PostgreSQL refuses text with NUL bytes (a 500, not a 422).
    if (!HOSTNAME.test(hostname)) throw BriefError.invalid('domain', 'exists', 'The selected domain is invalid');
    const domain = await this.storedDomain(hostname);
    if (!domain || (domain.accountId !== null && domain.accountId !== caller.accountId)) {
      throw BriefError.invalid('domain', 'exists', 'The selected domain is invalid');
    }
    return { ...toShortDomain(domain), codeLength: domain.codeLength ?? codeLength };
  }

  /** Any known short domain, whoever owns it. */
  async find(hostname: string): Promise<ShortDomain | undefined> {
    const configured = this.configured.get(hostname);
    if (configured) return configured;
    const stored = await this.storedDomain(hostname);
    return stored && toShortDomain(stored);
  }

  /**
   * True when a URL with this host (host[:port]) or hostname would point back at one of our
   * short domains. From the periodically read table: a domain added elsewhere counts
   * within CHANGE_POLL_MS.
   */
  async isShortHost(host: string, hostname: string): Promise<boolean> {
    if (this.configured.has(host) || this.configured.has(hostname)) return true;
    const stored = await this.storedDomains();
    return stored.has(host) || stored.has(hostname);
  }

  /** A stored domain by name: from the periodic read, else (added since) from the table. */
  private async storedDomain(hostname: string): Promise<StoredDomain | undefined> {
    return (await this.storedDomains()).get(hostname) ?? (await this.store.byHostname(hostname));
  }

  private storedDomains(): Promise<Map<string, StoredDomain>> | Map<string, StoredDomain> {
    if (this.stored && Date.now() - this.stored.at < this.config.changePollMs) return this.stored.byHost;
    this.loading ??= this.loadStored().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async loadStored(): Promise<Map<string, StoredDomain>> {
    const at = Date.now();
    const byHost = new Map((await this.store.all()).map((domain) => [domain.hostname, domain]));
    this.stored = { at, byHost };
    return byHost;
  }

  /** `brief domain add`: a private domain of an account, or a public one when accountId is null. */
  async add(rawHostname: string, accountId: number | null): Promise<ShortDomain> {
    const withScheme = /^https?:\/\//i.test(rawHostname) ? rawHostname : `https://${rawHostname}`;
    let url: URL;
    try {
      url = new URL(withScheme);
    } catch {
      throw BriefError.invalid('hostname', 'hostname', `"${rawHostname}" is not a valid host name`);
    }
    if (!HOSTNAME.test(url.host) || url.pathname !== '/' || url.search || url.username) {
      throw BriefError.invalid('hostname', 'hostname', `"${rawHostname}" is not a valid host name`);
    }
    const domain: ShortDomain = { hostname: url.host, urlPrefix: `${url.protocol}//${url.host}` };
    if (this.configured.has(domain.hostname)) {
      throw BriefError.invalid('hostname', 'unique', `${domain.hostname} is already a public domain from the configuration`);
    }
    const added = await this.store.add({ ...domain, accountId });
    if (!added) throw BriefError.invalid('hostname', 'unique', `Domain ${domain.hostname} already exists`);
    this.stored = undefined;
    return domain;
  }

  /** `brief domain remove`: refused while live links use the domain, so no short URL silently dies. */
  async remove(rawHostname: string): Promise<void> {
    const hostname = rawHostname
      .replace(/^https?:\/\//i, '')
      .replace(/\/+$/, '')
      .toLowerCase();
    if (this.configured.has(hostname)) {
      throw BriefError.invalid(
        'hostname',
        'configured',
        `${hostname} comes from the configuration (BASE_URL or PUBLIC_DOMAINS); change that instead`,
      );
    }
    const live = await this.links.countLive(hostname);
    if (live > 0) {
      throw BriefError.invalid('hostname', 'in_use', `Domain ${hostname} still has ${live} live link(s); delete them first`);
    }
    const removed = await this.store.remove(hostname);
    this.stored = undefined;
    if (!removed) throw BriefError.notFound(`No domain ${hostname}`);
  }

  async all(): Promise<Array<DomainEntry & { owner: string | null }>> {
    const stored = await this.store.allWithOwners();
    return [
      ...[...this.configured.values()].map((d) => ({ ...d, visibility: 'public' as const, owner: null })),
      ...stored.map((d) => ({ ...toShortDomain(d), visibility: visibilityOf(d), owner: d.owner })),
    ];
  }
}

const visibilityOf = (domain: DomainRecord): Visibility => (domain.accountId === null ? 'public' : 'private');
