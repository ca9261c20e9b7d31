import type { Caller } from '../accounts/account-service.js';
import type { Config, ShortDomain } from '../config.js';
import { BriefError } from '../errors.js';
import type { DomainRecord, DomainSettings, DomainStore, LinkStore, StoredDomain } from '../storage/stores.js';
import { checkCodeLength, domainInPath, HOSTNAME, parseRedirectUrl, parseShortDomain } from './domain-fields.js';

export type Visibility = 'public' | 'private';

export interface DomainEntry extends ShortDomain {
  readonly visibility: Visibility;
  /** The default domain (BASE_URL's). */
  readonly primary: boolean;
  /** Length of the codes generated on it: its own setting, else CODE_LENGTH. */
  readonly codeLength: number;
}

/** An edit of a private domain's settings (the v3 names): absent fields stay, null restores the default. */
export interface DomainSettingsEdit {
  randomCodeLength?: number | null;
  /** Where the bare domain (`/`) redirects; null or empty: nowhere (the 404 page). */
  homePageRedirectUrl?: string | null;
  /** Where unknown keys redirect; null or empty: nowhere (the 404 page). */
  notFoundPageRedirectUrl?: string | null;
}

/** Told after this instance changed a stored domain (added, removed, or its settings). */
export type DomainChangeListener = () => void | Promise<void>;

/** A domain a link is being made on, with the length of the codes generated there. */
export interface ShortenDomain extends ShortDomain {
  readonly codeLength: number;
}

export interface DomainPage {
  meta: { total: number; perPage: number; currentPage: number; lastPage: number; firstPage: number };
  data: Array<{ domainName: string; visibility: Visibility }>;
}

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
  /** Bumped by every change made here, so a read of the table begun before it is not kept. */
  private version = 0;
  private readonly listeners: DomainChangeListener[] = [];

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
    const entries: DomainEntry[] = [...this.configured.values()].map((d) => this.configuredEntry(d));
    for (const domain of stored) {
      if (this.configured.has(domain.hostname)) continue;
      entries.push(this.storedEntry(domain));
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
    if (this.loading) return this.loading;
    const loading = this.loadStored().finally(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    this.loading = loading;
    return loading;
  }

  private async loadStored(): Promise<Map<string, StoredDomain>> {
    const at = Date.now();
    const version = this.version;
    const byHost = new Map((await this.store.all()).map((domain) => [domain.hostname, domain]));
    if (version === this.version) this.stored = { at, byHost };
    return byHost;
  }

  /** Tells `listener` after every change this instance makes to the stored domains (the redirect side's settings). */
  onChange(listener: DomainChangeListener): void {
    this.listeners.push(listener);
  }

  /** `brief domain add`: a private domain of an account, or a public one when accountId is null. */
  async add(rawHostname: string, accountId: number | null): Promise<ShortDomain> {
    const domain = parseShortDomain(rawHostname);
    if (!domain) throw BriefError.invalid('hostname', 'hostname', `"${rawHostname}" is not a valid host name`);
    if (this.configured.has(domain.hostname)) {
      throw BriefError.invalid('hostname', 'unique', `${domain.hostname} is already a public domain from the configuration`);
    }
    const added = await this.store.add({ ...domain, accountId });
    if (!added) throw BriefError.invalid('hostname', 'unique', `Domain ${domain.hostname} already exists`);
    await this.changed();
    return domain;
  }

  /** PUT /v3/shorten/domains: a private domain of the caller; any name that exists, anyone's, is taken. */
  async addOwn(caller: Caller, rawDomain: string, codeLength: number | undefined): Promise<DomainEntry> {
    const domain = parseShortDomain(rawDomain.trim());
    if (!domain) throw BriefError.invalid('domain', 'hostname', 'The domain field must be a host name, such as go.example.com');
    if (codeLength !== undefined) checkCodeLength('shortCodeLength', codeLength);
    const taken = () => BriefError.invalid('domain', 'unique', 'The domain has already been taken');
    if (this.configured.has(domain.hostname)) throw taken();
    const stored: StoredDomain = {
      ...domain,
      accountId: caller.accountId,
      codeLength: codeLength ?? null,
      homeRedirectUrl: null,
      notFoundRedirectUrl: null,
    };
    if (!(await this.store.add(stored))) throw taken();
    await this.changed();
    return this.storedEntry(stored);
  }

  /** DELETE /v3/shorten/domains/{domain}: one of the caller's private domains, refused while live links use it. */
  async removeOwn(caller: Caller, rawDomain: string): Promise<void> {
    const domain = await this.ownDomain(caller, rawDomain);
    const live = await this.links.countLive(domain.hostname);
    if (live > 0) {
      throw BriefError.invalid(
        'domain',
        'in_use',
        `The domain still has ${live} live link${live === 1 ? '' : 's'}; delete ${live === 1 ? 'it' : 'them'} first`,
      );
    }
    const removed = await this.store.remove(domain.hostname);
    await this.changed();
    if (!removed) throw domainNotFound();
  }

  /** PATCH /v3/shorten/domains/{domain}: the settings of one of the caller's private domains. */
  async updateOwn(caller: Caller, rawDomain: string, edit: DomainSettingsEdit): Promise<void> {
    const domain = await this.ownDomain(caller, rawDomain);
    const settings: { -readonly [K in keyof DomainSettings]?: DomainSettings[K] } = {};
    if (edit.randomCodeLength !== undefined) {
      settings.codeLength = edit.randomCodeLength === null ? null : checkCodeLength('randomCodeLength', edit.randomCodeLength);
    }
    if (edit.homePageRedirectUrl !== undefined) settings.homeRedirectUrl = await this.redirectUrl('homePageRedirectUrl', edit.homePageRedirectUrl);
    if (edit.notFoundPageRedirectUrl !== undefined) {
      settings.notFoundRedirectUrl = await this.redirectUrl('notFoundPageRedirectUrl', edit.notFoundPageRedirectUrl);
    }
    const updated = await this.store.updateSettings(domain.hostname, settings);
    await this.changed();
    if (!updated) throw domainNotFound();
  }

  /** A stored private domain of the caller; public ones (configured or stored) and anyone else's are not found. */
  private async ownDomain(caller: Caller, rawDomain: string): Promise<StoredDomain> {
    const hostname = domainInPath(rawDomain);
    // Checked before the query: PostgreSQL refuses text with NUL bytes (a 500, not a 404).
    if (hostname === undefined || this.configured.has(hostname)) throw domainNotFound();
    const domain = await this.store.byHostname(hostname);
    if (!domain || domain.accountId !== caller.accountId) throw domainNotFound();
    return domain;
  }

  /** A redirect destination of a domain: an absolute http(s) URL that is not on a short domain (no loops); empty is none. */
  private async redirectUrl(field: string, value: string | null): Promise<string | null> {
    if (value === null || value.trim() === '') return null;
    const url = parseRedirectUrl(field, value);
    if (await this.isShortHost(url.host, url.hostname)) {
      throw BriefError.invalid(field, 'notShortLink', `The ${field} field must not point to a short link domain`);
    }
    return url.href;
  }

  /** After a change made here: the snapshot is dropped (a read begun before is not kept) and the listeners told. */
  private async changed(): Promise<void> {
    this.version++;
    this.stored = undefined;
    this.loading = undefined;
    await Promise.all(this.listeners.map((listener) => listener()));
  }

  private configuredEntry(domain: ShortDomain): DomainEntry {
    return { ...domain, visibility: 'public', primary: domain.hostname === this.config.defaultDomain.hostname, codeLength: this.config.codeLength };
  }

  private storedEntry(domain: StoredDomain): DomainEntry {
    return { ...toShortDomain(domain), visibility: visibilityOf(domain), primary: false, codeLength: domain.codeLength ?? this.config.codeLength };
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
    await this.changed();
    if (!removed) throw BriefError.notFound(`No domain ${hostname}`);
  }

  /** `brief domain list`: every domain, with its owner and its redirect settings. */
  async all(): Promise<Array<DomainEntry & { owner: string | null; homeRedirectUrl: string | null; notFoundRedirectUrl: string | null }>> {
    const stored = await this.store.allWithOwners();
    return [
      ...[...this.configured.values()].map((d) => ({ ...this.configuredEntry(d), owner: null, homeRedirectUrl: null, notFoundRedirectUrl: null })),
      ...stored.map((d) => ({
        ...this.storedEntry(d),
        owner: d.owner,
        homeRedirectUrl: d.homeRedirectUrl,
        notFoundRedirectUrl: d.notFoundRedirectUrl,
      })),
    ];
  }
}

const visibilityOf = (domain: DomainRecord): Visibility => (domain.accountId === null ? 'public' : 'private');

const domainNotFound = () => BriefError.notFound('Domain not found');
