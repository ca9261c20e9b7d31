import type { Caller } from '../accounts/caller.js';
import { requireRole } from '../accounts/roles.js';
import type { Config, ShortDomain } from '../config.js';
import { canonicalHost, endpointOf } from '../net/host-names.js';
import { InstanceAddresses } from '../net/instance-addresses.js';
import type { DomainSettings, DomainStore, StoredDomain } from '../storage/stores/domains.js';
import type { LinkStore } from '../storage/stores/links.js';
import { refuseConfiguredClaim, takenClaim } from './domain-claims.js';
import {
  configuredEntry,
  type DomainEntry,
  type DomainPage,
  inListOrder,
  pageOf,
  type ShortenDomain,
  storedEntry,
  toShortDomain,
} from './domain-entries.js';
import { DOMAIN_ERRORS } from './domain-errors.js';
import { checkCodeLength, domainInPath, HOSTNAME, parseRedirectUrl, parseShortDomain } from './domain-fields.js';
import { newVerificationToken, servesRedirects, type TxtLookup, verificationProblem, verificationRecord } from './domain-verification.js';
import type { ListDomainsQuery } from './schemas.js';
import { StoredDomains } from './stored-domains.js';
import type { DomainSettingsBody } from './v3-schemas.js';

export type { DomainEntry, DomainPage, ShortenDomain, Visibility } from './domain-entries.js';

/** Told after this instance changed a stored domain (added, removed, verified, or its settings). */
export type DomainChangeListener = () => void | Promise<void>;

/**
 * Short domains: the public ones from configuration, plus public and private ones
 * added with `brief domain add` and private ones claimed through the API (decision 0019).
 * Configuration domains are not stored, so changing BASE_URL or PUBLIC_DOMAINS needs no migration.
 */
export class DomainService {
  private readonly configured: Map<string, ShortDomain>;
  private readonly stored: StoredDomains;
  private readonly listeners: DomainChangeListener[] = [];
  /** The configured domains' names as canonicalHostname writes them (with the port a domain names, if any). */
  private readonly configuredKeys: ReadonlySet<string>;

  constructor(
    private readonly config: Config,
    private readonly store: DomainStore,
    private readonly links: LinkStore,
    /** Reads `_brief-verify` TXT records (domain-verification.ts). */
    private readonly lookupTxt: TxtLookup,
    /** Told of every link a removal with its links deletes, so caches everywhere drop it (the link change feed). */
    private readonly linkChanges: { announce(domain: string, key: string): void },
    /** The addresses this instance answers on (the loop check with STRICT_HOSTS off). */
    private readonly instance = new InstanceAddresses(config),
  ) {
    this.configured = new Map(config.publicDomains.map((d) => [d.hostname, d]));
    this.configuredKeys = new Set(config.publicDomains.map((d) => canonicalHost(new URL(d.urlPrefix))));
    this.stored = new StoredDomains(store, config.changePollMs);
  }

  /** Every domain the caller may shorten on: public ones first, then the caller's own, each by name. */
  async usableBy(caller: Caller): Promise<DomainEntry[]> {
    const stored = await this.store.usableBy(caller.anonymous ? undefined : caller.accountId);
    const entries = [...this.configured.values()].map((d) => configuredEntry(this.config, d));
    for (const domain of stored) {
      if (!this.configured.has(domain.hostname)) entries.push(storedEntry(this.config, domain));
    }
    return inListOrder(entries);
  }

  async list(caller: Caller, query: ListDomainsQuery): Promise<DomainPage> {
    return pageOf(await this.usableBy(caller), query);
  }

  /** The domain a new link goes on: the requested one if the caller may use it (a claim before its verification too), else the default. */
  async forShorten(caller: Caller, requested: string | undefined): Promise<ShortenDomain> {
    const { codeLength } = this.config;
    if (requested === undefined) return { ...this.config.defaultDomain, codeLength };
    const hostname = requested.trim().toLowerCase();
    const configured = this.configured.get(hostname);
    if (configured) return { ...configured, codeLength };
    // Checked before the query: PostgreSQL refuses text with NUL bytes (a 500, not a 422).
    if (!HOSTNAME.test(hostname)) throw DOMAIN_ERRORS.notUsable();
    const domain = await this.stored.one(hostname);
    if (!domain || (domain.accountId !== null && domain.accountId !== caller.accountId)) {
      throw DOMAIN_ERRORS.notUsable();
    }
    return { ...toShortDomain(domain), codeLength: domain.codeLength ?? codeLength };
  }

  /** Any known short domain, whoever owns it. */
  async find(hostname: string): Promise<ShortDomain | undefined> {
    const configured = this.configured.get(hostname);
    if (configured) return configured;
    const stored = await this.stored.one(hostname);
    return stored && toShortDomain(stored);
  }

  /**
   * Whether a domain (as the redirect side resolves a Host) serves what it carries beyond its links, its
   * `/.well-known/` files (decision 0042): a configured one always, a stored one once verified (decision 0019).
   */
  async serves(hostname: string): Promise<boolean> {
    if (this.configured.has(hostname)) return true;
    const stored = await this.stored.one(hostname);
    return stored !== undefined && servesRedirects(stored);
  }

  /**
   * True when a destination would come back to Brief (no loops). Its host is compared in its one written
   * form (net/host-names.ts: case, trailing dot, IDN, IP address forms, the scheme's default port), with
   * our short domains as the caller sees them: the public ones, the caller's own, and other accounts'
   * verified ones — never another account's unverified claim, which must not stop anyone from linking to
   * that host. A domain without a port counts on every port. With STRICT_HOSTS off, where the server
   * answers every Host as the default domain, every address of this instance on its port counts too
   * (net/instance-addresses.ts; decision 0015). A domain added or verified elsewhere counts within CHANGE_POLL_MS.
   */
  async isShortHost(caller: Caller, url: URL): Promise<boolean> {
    const endpoint = endpointOf(url);
    if (!this.config.strictHosts && this.instance.reaches(endpoint)) return true;
    const keys = [endpoint.hostname, `${endpoint.hostname}:${endpoint.port}`];
    if (keys.some((key) => this.configuredKeys.has(key))) return true;
    const stored = await this.stored.byHost();
    const counts = (domain: StoredDomain | undefined) =>
      domain !== undefined && (servesRedirects(domain) || domain.accountId === null || domain.accountId === caller.accountId);
    return keys.some((key) => counts(stored.get(key)));
  }

  /**
   * Refuses (422 `notShortLink`, naming `field`) a destination that would come back to Brief: the one check
   * of every destination stored (links made, bulk, edited; a domain's home and not-found redirects).
   */
  async refuseLoop(caller: Caller, url: URL, field = 'url'): Promise<void> {
    if (await this.isShortHost(caller, url)) throw DOMAIN_ERRORS.loop(field);
  }

  /** Tells `listener` after every change this instance makes to the stored domains (the redirect side's settings). */
  onChange(listener: DomainChangeListener): void {
    this.listeners.push(listener);
  }

  /** `brief domain add`: a private domain of an account, or a public one when accountId is null; verified, an administrator added it. */
  async add(rawHostname: string, accountId: number | null): Promise<ShortDomain> {
    const domain = parseShortDomain(rawHostname);
    if (!domain) throw DOMAIN_ERRORS.badHostname(rawHostname);
    if (this.configured.has(domain.hostname)) throw DOMAIN_ERRORS.configuredAlready(domain.hostname);
    const added = await this.store.add({ ...domain, accountId, verifiedAt: Date.now(), verificationToken: null });
    if (added !== 'added') throw DOMAIN_ERRORS.exists(domain.hostname);
    await this.changed();
    return domain;
  }

  /**
   * PUT /v3/shorten/domains: a claim of a private domain by the caller, unverified until its TXT
   * record is found (verifyOwn) or an administrator verifies it. Usable by its owner at once; it
   * serves nothing and binds nobody else until then. At most DOMAINS_PER_ACCOUNT per account.
   */
  async addOwn(caller: Caller, rawDomain: string, codeLength: number | undefined): Promise<DomainEntry> {
    requireRole(caller, 'domains:write');
    const domain = parseShortDomain(rawDomain.trim());
    if (!domain) throw DOMAIN_ERRORS.notAHostname();
    if (codeLength !== undefined) checkCodeLength('shortCodeLength', codeLength);
    refuseConfiguredClaim(this.config, domain.hostname);
    const existing = await this.store.byHostname(domain.hostname);
    if (existing) throw takenClaim(caller, existing);
    const stored: StoredDomain = {
      ...domain,
      accountId: caller.accountId,
      codeLength: codeLength ?? null,
      homeRedirectUrl: null,
      notFoundRedirectUrl: null,
      verifiedAt: null,
      verificationToken: newVerificationToken(),
    };
    const outcome = await this.store.add(stored, this.config.domainsPerAccount);
    if (outcome === 'limit') throw DOMAIN_ERRORS.limit(this.config.domainsPerAccount);
    // Claimed by someone else since the read above.
    if (outcome === 'taken') throw takenClaim(caller, await this.store.byHostname(domain.hostname));
    await this.changed();
    return storedEntry(this.config, stored);
  }

  /**
   * POST /v3/shorten/domains/{domain}/verify: looks for the claim's TXT record now and marks the
   * domain verified when it holds the claim's value; a domain verified already stays so.
   */
  async verifyOwn(caller: Caller, rawDomain: string): Promise<DomainEntry> {
    const domain = await this.ownDomain(caller, rawDomain);
    requireRole(caller, 'domains:write');
    if (servesRedirects(domain)) return storedEntry(this.config, domain);
    const record = verificationRecord(domain.hostname);
    // Every claim gets a value (addOwn); a row without one can only be verified by an administrator.
    const token = domain.verificationToken;
    const problem = token === null ? DOMAIN_ERRORS.adminOnly() : verificationProblem(record, token, await this.lookupTxt(record));
    if (problem !== undefined) throw problem;
    if (!(await this.store.markVerified(domain.hostname))) throw DOMAIN_ERRORS.notFound();
    await this.changed();
    return storedEntry(this.config, { ...domain, verifiedAt: Date.now() });
  }

  /** `brief domain verify`: an administrator vouches for a domain; false when it was verified already. */
  async verify(rawHostname: string): Promise<boolean> {
    const hostname = adminHostname(rawHostname);
    this.refuseConfigured(hostname);
    const domain = await this.store.byHostname(hostname);
    if (!domain) throw DOMAIN_ERRORS.noSuchDomain(hostname);
    if (servesRedirects(domain)) return false;
    if (!(await this.store.markVerified(hostname))) throw DOMAIN_ERRORS.noSuchDomain(hostname);
    await this.changed();
    return true;
  }

  /** DELETE /v3/shorten/domains/{domain}: one of the caller's private domains, refused while live links use it. */
  async removeOwn(caller: Caller, rawDomain: string): Promise<void> {
    const domain = await this.ownDomain(caller, rawDomain);
    requireRole(caller, 'domains:write');
    const live = await this.links.countLive(domain.hostname);
    if (live > 0) throw DOMAIN_ERRORS.inUse(live);
    const removed = await this.store.remove(domain.hostname);
    await this.changed();
    if (!removed) throw DOMAIN_ERRORS.notFound();
  }

  /** PATCH /v3/shorten/domains/{domain}: the settings of one of the caller's private domains. */
  async updateOwn(caller: Caller, rawDomain: string, edit: DomainSettingsBody): Promise<void> {
    const domain = await this.ownDomain(caller, rawDomain);
    requireRole(caller, 'domains:write');
    const settings: { -readonly [K in keyof DomainSettings]?: DomainSettings[K] } = {};
    if (edit.randomCodeLength !== undefined) {
      settings.codeLength = edit.randomCodeLength === null ? null : checkCodeLength('randomCodeLength', edit.randomCodeLength);
    }
    if (edit.homePageRedirectUrl !== undefined)
      settings.homeRedirectUrl = await this.redirectUrl(caller, 'homePageRedirectUrl', edit.homePageRedirectUrl);
    if (edit.notFoundPageRedirectUrl !== undefined) {
      settings.notFoundRedirectUrl = await this.redirectUrl(caller, 'notFoundPageRedirectUrl', edit.notFoundPageRedirectUrl);
    }
    const updated = await this.store.updateSettings(domain.hostname, settings);
    await this.changed();
    if (!updated) throw DOMAIN_ERRORS.notFound();
  }

  /** A stored private domain of the caller; public ones (configured or stored) and anyone else's are not found. */
  async ownDomain(caller: Caller, rawDomain: string): Promise<StoredDomain> {
    const hostname = domainInPath(rawDomain);
    // Checked before the query: PostgreSQL refuses text with NUL bytes (a 500, not a 404).
    if (hostname === undefined || this.configured.has(hostname)) throw DOMAIN_ERRORS.notFound();
    const domain = await this.store.byHostname(hostname);
    if (!domain || domain.accountId !== caller.accountId) throw DOMAIN_ERRORS.notFound();
    return domain;
  }

  /** A redirect destination of a domain: an absolute http(s) URL that is not on a short domain (no loops); empty is none. */
  private async redirectUrl(caller: Caller, field: string, value: string | null): Promise<string | null> {
    if (value === null || value.trim() === '') return null;
    const url = parseRedirectUrl(field, value, this.config.allowUrlCredentials);
    await this.refuseLoop(caller, url, field);
    return url.href;
  }

  /** After a change made here: the copy of the table is dropped (a read begun before is not kept) and the listeners told. */
  private async changed(): Promise<void> {
    this.stored.forget();
    await Promise.all(this.listeners.map((listener) => listener()));
  }

  /**
   * `brief domain remove`: refused while live links use the domain, so no short URL silently
   * dies, unless `withLinks`: then its live links are deleted with it. How many were.
   */
  async remove(rawHostname: string, withLinks = false): Promise<number> {
    const hostname = adminHostname(rawHostname);
    this.refuseConfigured(hostname);
    if (withLinks) {
      const keys = await this.store.removeWithLinks(hostname);
      if (keys === undefined) throw DOMAIN_ERRORS.noSuchDomain(hostname);
      for (const key of keys) this.linkChanges.announce(hostname, key);
      await this.changed();
      return keys.length;
    }
    const live = await this.links.countLive(hostname);
    if (live > 0) throw DOMAIN_ERRORS.stillUsed(hostname, live);
    const removed = await this.store.remove(hostname);
    await this.changed();
    if (!removed) throw DOMAIN_ERRORS.noSuchDomain(hostname);
    return 0;
  }

  /** The CLI's domains are stored ones: a configured one is changed in the configuration. */
  private refuseConfigured(hostname: string): void {
    if (this.configured.has(hostname)) throw DOMAIN_ERRORS.configured(hostname);
  }

  /** `brief domain list`: every domain, with its owner and its redirect settings. */
  async all(): Promise<Array<DomainEntry & { owner: string | null; homeRedirectUrl: string | null; notFoundRedirectUrl: string | null }>> {
    const stored = await this.store.allWithOwners();
    return [
      ...[...this.configured.values()].map((d) => ({
        ...configuredEntry(this.config, d),
        owner: null,
        homeRedirectUrl: null,
        notFoundRedirectUrl: null,
      })),
      ...stored.map((d) => ({
        ...storedEntry(this.config, d),
        owner: d.owner,
        homeRedirectUrl: d.homeRedirectUrl,
        notFoundRedirectUrl: d.notFoundRedirectUrl,
      })),
    ];
  }
}

/** A domain as the CLI names it: any case, a scheme or a trailing slash tolerated. */
const adminHostname = (raw: string): string =>
  raw
    .replace(/^https?:\/\//i, '')
    .replace(/\/+$/, '')
    .toLowerCase();
