import type { Caller } from '../accounts/account-service.js';
import type { Config, ShortDomain } from '../config.js';
import { AppError } from '../http/app-error.js';
import type { Database } from '../storage/database.js';
import type { DomainRow } from '../storage/tables.js';

export type Visibility = 'public' | 'private';

export interface DomainEntry extends ShortDomain {
  readonly visibility: Visibility;
}

export interface DomainPage {
  meta: { total: number; perPage: number; currentPage: number; lastPage: number; firstPage: number };
  data: Array<{ domainName: string; visibility: Visibility }>;
}

const HOSTNAME = /^(?=.{1,253}(:|$))([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/;

type StoredDomain = ShortDomain & { readonly accountId: number | null };

const STORED_COLUMNS = ['hostname', 'url_prefix', 'account_id'] as const;
const toStoredDomain = (row: Pick<DomainRow, (typeof STORED_COLUMNS)[number]>): StoredDomain => ({
  hostname: row.hostname,
  urlPrefix: row.url_prefix,
  accountId: row.account_id,
});

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
    private readonly database: Database,
  ) {
    this.configured = new Map(config.publicDomains.map((d) => [d.hostname, d]));
  }

  get defaultDomain(): ShortDomain {
    return this.config.defaultDomain;
  }

  /** Every domain the caller may shorten on: public ones first, then the caller's own, each by name. */
  async usableBy(caller: Caller): Promise<DomainEntry[]> {
    const stored = await this.database.db
      .selectFrom('domains')
      .select(['hostname', 'url_prefix', 'account_id'])
      .where((eb) =>
        caller.anonymous ? eb('account_id', 'is', null) : eb.or([eb('account_id', 'is', null), eb('account_id', '=', caller.accountId)]),
      )
      .execute();
    const entries: DomainEntry[] = [...this.configured.values()].map((d) => ({ ...d, visibility: 'public' }));
    for (const row of stored) {
      if (this.configured.has(row.hostname)) continue;
      entries.push({ hostname: row.hostname, urlPrefix: row.url_prefix, visibility: row.account_id === null ? 'public' : 'private' });
    }
    return entries.sort((a, b) =>
      a.visibility === b.visibility ? (a.hostname < b.hostname ? -1 : 1) : a.visibility === 'public' ? -1 : 1,
    );
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
  async forShorten(caller: Caller, requested: string | undefined): Promise<ShortDomain> {
    if (requested === undefined) return this.config.defaultDomain;
    const hostname = requested.trim().toLowerCase();
    const configured = this.configured.get(hostname);
    if (configured) return configured;
    // Checked before the query: PostgreSQL refuses text with NUL bytes (a 500, not a 422).
    if (!HOSTNAME.test(hostname)) throw AppError.invalid('domain', 'exists', 'The selected domain is invalid');
    const domain = await this.storedDomain(hostname);
    if (!domain || (domain.accountId !== null && domain.accountId !== caller.accountId)) {
      throw AppError.invalid('domain', 'exists', 'The selected domain is invalid');
    }
    return { hostname: domain.hostname, urlPrefix: domain.urlPrefix };
  }

  /** Any known short domain, whoever owns it. */
  async find(hostname: string): Promise<ShortDomain | undefined> {
    const domain = this.configured.get(hostname) ?? (await this.storedDomain(hostname));
    return domain && { hostname: domain.hostname, urlPrefix: domain.urlPrefix };
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
    const known = (await this.storedDomains()).get(hostname);
    if (known) return known;
    const row = await this.database.db.selectFrom('domains').select(STORED_COLUMNS).where('hostname', '=', hostname).executeTakeFirst();
    return row && toStoredDomain(row);
  }

  private storedDomains(): Promise<Map<string, StoredDomain>> | Map<string, StoredDomain> {
    if (this.stored && Date.now() - this.stored.at < this.config.changePollMs) return this.stored.byHost;
    this.loading ??= this.loadStored().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async loadStored(): Promise<Map<string, StoredDomain>> {
    const at = Date.now();
    const rows = await this.database.db.selectFrom('domains').select(STORED_COLUMNS).execute();
    const byHost = new Map(rows.map((row) => [row.hostname, toStoredDomain(row)]));
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
      throw AppError.invalid('hostname', 'hostname', `"${rawHostname}" is not a valid host name`);
    }
    if (!HOSTNAME.test(url.host) || url.pathname !== '/' || url.search || url.username) {
      throw AppError.invalid('hostname', 'hostname', `"${rawHostname}" is not a valid host name`);
    }
    const domain: ShortDomain = { hostname: url.host, urlPrefix: `${url.protocol}//${url.host}` };
    if (this.configured.has(domain.hostname)) {
      throw AppError.invalid('hostname', 'unique', `${domain.hostname} is already a public domain from the configuration`);
    }
    const row = await this.database.write((db) =>
      db
        .insertInto('domains')
        .values({ hostname: domain.hostname, url_prefix: domain.urlPrefix, account_id: accountId, created_at: Date.now() })
        .onConflict((oc) => oc.column('hostname').doNothing())
        .returning('id')
        .executeTakeFirst(),
    );
    if (!row) throw AppError.invalid('hostname', 'unique', `Domain ${domain.hostname} already exists`);
    this.stored = undefined;
    return domain;
  }

  /** `brief domain remove`: refused while live links use the domain, so no short URL silently dies. */
  async remove(rawHostname: string): Promise<void> {
    const hostname = rawHostname.replace(/^https?:\/\//i, '').replace(/\/+$/, '').toLowerCase();
    if (this.configured.has(hostname)) {
      throw AppError.invalid('hostname', 'configured', `${hostname} comes from the configuration (BASE_URL or PUBLIC_DOMAINS); change that instead`);
    }
    const live = await this.database.db
      .selectFrom('links')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('domain', '=', hostname)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(live.count) > 0) {
      throw AppError.invalid('hostname', 'in_use', `Domain ${hostname} still has ${live.count} live link(s); delete them first`);
    }
    const result = await this.database.write((db) => db.deleteFrom('domains').where('hostname', '=', hostname).executeTakeFirst());
    this.stored = undefined;
    if (Number(result.numDeletedRows) === 0) throw AppError.notFound(`No domain ${hostname}`);
  }

  async all(): Promise<Array<DomainEntry & { owner: string | null }>> {
    const rows = await this.database.db
      .selectFrom('domains')
      .leftJoin('accounts', 'accounts.id', 'domains.account_id')
      .select(['domains.hostname', 'domains.url_prefix', 'accounts.name'])
      .orderBy('domains.hostname')
      .execute();
    return [
      ...[...this.configured.values()].map((d) => ({ ...d, visibility: 'public' as const, owner: null })),
      ...rows.map((r) => ({
        hostname: r.hostname,
        urlPrefix: r.url_prefix,
        visibility: (r.name === null ? 'public' : 'private') as Visibility,
        owner: r.name,
      })),
    ];
  }
}
