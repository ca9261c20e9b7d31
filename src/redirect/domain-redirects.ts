import { servesRedirects } from '../domains/domain-verification.js';
import type { Log } from '../log.js';
import type { DomainStore, StoredDomain } from '../storage/stores/domains.js';
import { type RedirectAnswer, settingRedirect } from './redirect-answer.js';

/** What a short domain's settings answer instead of the 404 page. */
export interface DomainRedirect {
  /** For the bare domain (`/`). */
  readonly home: RedirectAnswer | undefined;
  /** For an unknown key. */
  readonly notFound: RedirectAnswer | undefined;
}

/** What decides the domain a request's Host stands for (decision 0015). */
export interface HostRules {
  /** BASE_URL's host[:port], lower-case: the domain every other Host answers as, unless `strict`. */
  readonly defaultHost: string;
  /** The configured public domains' hosts (BASE_URL's and PUBLIC_DOMAINS'), lower-case. */
  readonly configuredHosts: readonly string[];
  /** STRICT_HOSTS: a Host that is no domain stays itself (and so finds nothing: 404). */
  readonly strict: boolean;
  /** The configured domains' URL prefixes (`https://go.example.com`): a stored domain's is read with it. */
  readonly urlPrefixes?: readonly string[];
}

/**
 * The domains' home and not-found redirects, held in memory so the redirect pipeline answers
 * them synchronously: host → answers, for the hosts that have a setting only; and which Hosts
 * are short domains at all. Read whole from the domains table at start, every CHANGE_POLL_MS
 * after (so a setting changed on another instance counts here within that), and at once when
 * this instance changes a domain.
 */
export class DomainRedirects {
  private byHost = new Map<string, DomainRedirect>();
  /** Stored domains that serve nothing yet: unverified claims (decision 0019). Usually none. */
  private silent = new Set<string>();
  /** Hosts that are a domain of their own: the configured ones and the stored, verified ones. */
  private known: Set<string>;
  private readonly configured: ReadonlySet<string>;
  private readonly configuredPrefixes: ReadonlyMap<string, string>;
  /** Each domain's URL prefix by host: the configured ones', then the stored ones'. */
  private prefixes: ReadonlyMap<string, string>;
  // Copied out of the rules: read on every redirect.
  private readonly strict: boolean;
  private readonly defaultHost: string;
  /** Reads begun so far; only the newest one's result is kept, so an older, slower read never undoes a newer one. */
  private reads = 0;
  private reading = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Pick<DomainStore, 'all'>,
    private readonly log: Log,
    /** Without rules every Host stands for itself, as with STRICT_HOSTS on. */
    hosts: HostRules = { defaultHost: '', configuredHosts: [], strict: true },
  ) {
    this.configured = new Set([hosts.defaultHost, ...hosts.configuredHosts]);
    this.configuredPrefixes = new Map((hosts.urlPrefixes ?? []).map((prefix) => [new URL(prefix).host, prefix]));
    this.prefixes = this.configuredPrefixes;
    this.known = new Set(this.configured);
    this.strict = hosts.strict;
    this.defaultHost = hosts.defaultHost;
  }

  /**
   * The domain (lower-case host[:port]) a request's Host header stands for: itself when it is a
   * configured or verified domain, else the default domain, unless STRICT_HOSTS keeps it as it is.
   * An unverified claim is no domain here: until it is proven, a Host it names answers as if
   * nobody had claimed it (decision 0015), so a claim changes nothing anybody else sees.
   */
  domainOf(host: string | undefined): string {
    const lower = host === undefined ? '' : host.toLowerCase();
    return this.strict || lower === this.defaultHost || this.known.has(lower) ? lower : this.defaultHost;
  }

  /** The redirects of a host (lower-case host[:port]), if it has any. */
  get(host: string): DomainRedirect | undefined {
    return this.byHost.get(host);
  }

  /**
   * Whether a domain (as domainOf answers it) serves its links: false for an unverified claim,
   * whose links answer as unknown ones (reached only with STRICT_HOSTS on; otherwise such a Host
   * answers as the default domain). Asked of every redirect: free while there are no claims.
   */
  serves(domain: string): boolean {
    return this.silent.size === 0 || !this.silent.has(domain);
  }

  /**
   * A domain's URL prefix (`https://go.example.com`), for a link's short URL on it; https for a host none names (as the
   * links feature answers a link on a domain it no longer knows).
   */
  urlPrefixOf(domain: string): string {
    return this.prefixes.get(domain) ?? `https://${domain}`;
  }

  /** Reads the table now; resolves once this read (or a newer one) is what get() answers from. */
  async refresh(): Promise<void> {
    const read = ++this.reads;
    this.reading++;
    try {
      const domains = await this.store.all();
      if (read === this.reads) {
        this.byHost = redirectsOf(domains);
        this.silent = new Set(domains.filter((domain) => !servesRedirects(domain)).map((domain) => domain.hostname));
        const known = new Set(this.configured);
        for (const domain of domains) if (servesRedirects(domain)) known.add(domain.hostname);
        this.known = known;
        const prefixes = new Map(this.configuredPrefixes);
        for (const domain of domains) if (!prefixes.has(domain.hostname)) prefixes.set(domain.hostname, domain.urlPrefix);
        this.prefixes = prefixes;
      }
    } finally {
      this.reading--;
    }
  }

  /** Loads the table, then reads it again every `intervalMs` (a tick is skipped while a read is under way). */
  async start(intervalMs: number): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => {
      if (this.reading > 0) return;
      this.refresh().catch((err: unknown) => this.log.warn({ err }, 'could not read the domain settings'));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

function redirectsOf(domains: readonly StoredDomain[]): Map<string, DomainRedirect> {
  const byHost = new Map<string, DomainRedirect>();
  for (const domain of domains) {
    if ((domain.homeRedirectUrl === null && domain.notFoundRedirectUrl === null) || !servesRedirects(domain)) continue;
    byHost.set(domain.hostname, {
      home: domain.homeRedirectUrl === null ? undefined : settingRedirect(domain.homeRedirectUrl),
      notFound: domain.notFoundRedirectUrl === null ? undefined : settingRedirect(domain.notFoundRedirectUrl),
    });
  }
  return byHost;
}
