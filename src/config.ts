// Environment → one validated, frozen Config. Every default lives here, and
// nothing else in the code base reads process.env.
import fs from 'node:fs';
import { isIP } from 'node:net';
import proxyaddr from '@fastify/proxy-addr';

export interface ShortDomain {
  /** host[:port], lower-case: what a request's Host header carries. */
  readonly hostname: string;
  /** scheme://host[:port], the prefix of every short URL on this domain. */
  readonly urlPrefix: string;
}

export type DatabaseTarget = { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string };

/** ANALYTICS: every dimension of a visit, only its time, link and bot name, or no events at all. */
export type AnalyticsLevel = 'full' | 'minimal' | 'off';

/**
 * TRUST_PROXY: when X-Forwarded-For is believed (net/client-address.ts). A list holds
 * addresses, CIDRs and proxy-addr's names for ranges (loopback, linklocal, uniquelocal).
 */
export type TrustProxy =
  | { readonly kind: 'off' }
  | { readonly kind: 'hops'; readonly hops: number }
  | { readonly kind: 'list'; readonly entries: readonly string[] };

/** Single sign-on with an OpenID Connect provider (decision 0031); on only when issuer and client id are set. */
export interface OidcSettings {
  /** OIDC_ISSUER: the provider's issuer URL (https, or http on a loopback host only). */
  readonly issuer: string;
  /** OIDC_CLIENT_ID: Brief's client at the provider. */
  readonly clientId: string;
  /** OIDC_CLIENT_SECRET: the client's secret; none for a public client (PKCE alone). */
  readonly clientSecret: string | undefined;
  /** OIDC_AUTO_CREATE: whether a verified email no user has makes a person (in a workspace of their own). */
  readonly autoCreate: boolean;
}

export interface Config {
  readonly port: number;
  readonly host: string;
  /** BODY_TIMEOUT_MS: the longest a request may take to arrive whole, headers and body, from its first byte (else 408). */
  readonly bodyTimeoutMs: number;
  /** MAX_CONNECTIONS: open client connections at most; past it new ones are closed at once. */
  readonly maxConnections: number;
  readonly defaultDomain: ShortDomain;
  /** Public domains from configuration, the default one first. */
  readonly publicDomains: readonly ShortDomain[];
  readonly database: DatabaseTarget;
  readonly databasePoolMax: number;
  /** How long a request waits for a PostgreSQL connection before it is answered 503. */
  readonly databaseConnectTimeoutMs: number;
  readonly redisUrl: string | undefined;
  /** Prefix of every Redis key and channel, so several deployments (or test runs) can share one Redis. */
  readonly redisPrefix: string;
  readonly redirectStatus: 301 | 302 | 307 | 308;
  readonly codeLength: number;
  readonly logLevel: string;
  readonly cacheSize: number;
  readonly cacheTtlMs: number;
  /** SQLite: how many links (the newest) the in-memory link index holds; 0 turns it off. */
  readonly linkIndexMax: number;
  readonly negativeCacheTtlMs: number;
  readonly clickFlushMs: number;
  readonly changePollMs: number;
  readonly analytics: AnalyticsLevel;
  readonly trustProxy: TrustProxy;
  /** Click events held in memory at most, waiting to be written; past it visits are dropped from analytics. */
  readonly analyticsBufferMax: number;
  /** Days raw click events (and quarter-hour figures) are kept; day figures outlive them. */
  readonly analyticsRetentionDays: number;
  /** An operator's MMDB city database: cities are recorded only with one (analytics/places.ts). */
  readonly geoipCityDb: string | undefined;
  /** Links an anonymous caller may make a minute, per client address (a bulk call counts each link); 0: no limit. */
  readonly rateLimitAnon: number;
  /** Links a minute per bearer token; 0: no limit. */
  readonly rateLimitToken: number;
  /** Every other API call (lists, analytics, domains, QR codes, edits, deletes) a minute, per token or address; 0: no limit. */
  readonly rateLimitRead: number;
  /** QR codes a minute per token or address, each weighed by its URL's length and its width (qr/qr-weight.ts); 0: no limit. */
  readonly rateLimitQr: number;
  /** Password attempts a minute per client address and protected link; 0: no limit. */
  readonly rateLimitPassword: number;
  /** Password attempts a minute per client address, on all links together; 0: no limit. */
  readonly rateLimitPasswordAddress: number;
  /** Domain verifications (each a DNS query) a minute per token; 0: no limit. */
  readonly rateLimitDomainVerify: number;
  /** Sign-in attempts a minute per email address (whoever tries); 0: no limit. */
  readonly rateLimitSignIn: number;
  /** Sign-in attempts a minute per client address, on all emails together; 0: no limit. */
  readonly rateLimitSignInAddress: number;
  /** SESSION_IDLE_MINUTES: a signed-in session unused this long ends. */
  readonly sessionIdleMs: number;
  /** SESSION_MAX_DAYS: a signed-in session ends this long after sign-in, used or not. */
  readonly sessionMaxMs: number;
  /** ANONYMOUS_SHORTEN: whether callers without a token may make links at all. */
  readonly anonymousShorten: boolean;
  /** CORS_ORIGINS: the browser origins the API answers (`*`: any), never with credentials. */
  readonly corsOrigins: '*' | readonly string[];
  /** BLOCKLIST_FILE: destination hosts to refuse, one a line, read at start and on SIGHUP. */
  readonly blocklistFile: string | undefined;
  /** Private domains an account may claim through the API (`PUT /v3/shorten/domains`); 0: none. */
  readonly domainsPerAccount: number;
  /** DNS_SERVERS: the servers (`ip`, `ip:port`, `[ipv6]:port`) domain verification asks; undefined: the system's. */
  readonly dnsServers: readonly string[] | undefined;
  /** ALLOW_URL_CREDENTIALS: whether a link's destination may carry a user name or password (`https://user:pass@host/`). */
  readonly allowUrlCredentials: boolean;
  /** STRICT_HOSTS: a Host that is no short domain answers 404 (on) instead of as the default domain (off). */
  readonly strictHosts: boolean;
  /** FORWARD_QUERY: a visitor's query string is added to the destination's on redirect (decision 0015). */
  readonly forwardQuery: boolean;
  /** SHUTDOWN_GRACE_MS: how long a stop (SIGTERM) lets requests in flight finish before it cuts them. */
  readonly shutdownGraceMs: number;
  /** METRICS_TOKEN: the bearer token GET /metrics asks for; undefined: open. */
  readonly metricsToken: string | undefined;
  /** OIDC_*: single sign-on, or undefined when it is off. */
  readonly oidc: OidcSettings | undefined;
  /** WEBHOOK_ALLOW_HOSTS: hosts webhooks may reach over http and on private addresses (local development, tests); lower-case. */
  readonly webhookAllowHosts: readonly string[];
}

/** A configuration mistake; main.ts prints its message as one line and exits. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const REDIRECT_STATUSES = [301, 302, 307, 308] as const;

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const baseUrl = env.BASE_URL?.trim() || `http://localhost:${port}`;
  const defaultDomain = shortDomain('BASE_URL', baseUrl, 'http');
  const extra = (env.PUBLIC_DOMAINS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => shortDomain('PUBLIC_DOMAINS', entry, 'https'));
  const publicDomains = [defaultDomain];
  for (const domain of extra) {
    if (!publicDomains.some((d) => d.hostname === domain.hostname)) publicDomains.push(domain);
  }

  const redirectStatus = integer(env, 'REDIRECT_STATUS', 301, 301, 308);
  if (!(REDIRECT_STATUSES as readonly number[]).includes(redirectStatus)) {
    throw new ConfigError(`REDIRECT_STATUS must be one of ${REDIRECT_STATUSES.join(', ')}`);
  }
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }

  return Object.freeze({
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    bodyTimeoutMs: integer(env, 'BODY_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 10_000, 1, 1_000_000),
    defaultDomain,
    publicDomains: Object.freeze(publicDomains),
    database: databaseTarget(env.DATABASE_URL?.trim() || 'sqlite:./data/brief.db'),
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
    databaseConnectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
    redisUrl: redisUrl(env.REDIS_URL?.trim()),
    redisPrefix: redisPrefix(env.REDIS_PREFIX?.trim() ?? 'brief:'),
    redirectStatus: redirectStatus as Config['redirectStatus'],
    codeLength: integer(env, 'CODE_LENGTH', 7, 4, 32),
    logLevel,
    cacheSize: integer(env, 'CACHE_SIZE', 100_000, 0, 100_000_000),
    cacheTtlMs: integer(env, 'CACHE_TTL_SECONDS', 60, 1, 3600) * 1000,
    linkIndexMax: integer(env, 'LINK_INDEX_MAX', 2_000_000, 0, 100_000_000),
    negativeCacheTtlMs: 2_000,
    clickFlushMs: integer(env, 'CLICK_FLUSH_MS', 1000, 10, 600_000),
    changePollMs: integer(env, 'CHANGE_POLL_MS', 500, 10, 60_000),
    // On by default: recording a visit keeps the redirect within its target (docs/benchmarks.md, "What holds now").
    analytics: analyticsLevel(env.ANALYTICS?.trim() || 'full'),
    trustProxy: trustProxy(env.TRUST_PROXY?.trim() ?? ''),
    analyticsBufferMax: integer(env, 'ANALYTICS_BUFFER_MAX', 100_000, 1, 100_000_000),
    analyticsRetentionDays: integer(env, 'ANALYTICS_RETENTION_DAYS', 400, 1, 100_000),
    geoipCityDb: existingFile('GEOIP_CITY_DB', env.GEOIP_CITY_DB?.trim()),
    rateLimitAnon: integer(env, 'RATE_LIMIT_ANON', 30, 0, RATE_LIMIT_MAX),
    rateLimitToken: integer(env, 'RATE_LIMIT_TOKEN', 600, 0, RATE_LIMIT_MAX),
    rateLimitRead: integer(env, 'RATE_LIMIT_READ', 1200, 0, RATE_LIMIT_MAX),
    // A short URL's code weighs 1 (as many as RATE_LIMIT_READ allows), a 1,900-character URL's at 2,048 px 17.
    rateLimitQr: integer(env, 'RATE_LIMIT_QR', 1200, 0, RATE_LIMIT_MAX),
    rateLimitPassword: integer(env, 'RATE_LIMIT_PASSWORD', 10, 0, RATE_LIMIT_MAX),
    rateLimitPasswordAddress: integer(env, 'RATE_LIMIT_PASSWORD_ADDRESS', 30, 0, RATE_LIMIT_MAX),
    rateLimitDomainVerify: integer(env, 'RATE_LIMIT_DOMAIN_VERIFY', 5, 0, RATE_LIMIT_MAX),
    rateLimitSignIn: integer(env, 'RATE_LIMIT_SIGN_IN', 5, 0, RATE_LIMIT_MAX),
    rateLimitSignInAddress: integer(env, 'RATE_LIMIT_SIGN_IN_ADDRESS', 20, 0, RATE_LIMIT_MAX),
    sessionIdleMs: integer(env, 'SESSION_IDLE_MINUTES', 7 * 24 * 60, 1, 10 * 365 * 24 * 60) * 60_000,
    sessionMaxMs: integer(env, 'SESSION_MAX_DAYS', 30, 1, 3650) * 86_400_000,
    anonymousShorten: onOff('ANONYMOUS_SHORTEN', env.ANONYMOUS_SHORTEN?.trim() || 'on'),
    corsOrigins: corsOrigins(env.CORS_ORIGINS?.trim() || '*'),
    blocklistFile: existingFile('BLOCKLIST_FILE', env.BLOCKLIST_FILE?.trim()),
    domainsPerAccount: integer(env, 'DOMAINS_PER_ACCOUNT', 10, 0, 100_000),
    dnsServers: dnsServers(env.DNS_SERVERS?.trim() ?? ''),
    allowUrlCredentials: onOff('ALLOW_URL_CREDENTIALS', env.ALLOW_URL_CREDENTIALS?.trim() || 'off'),
    strictHosts: onOff('STRICT_HOSTS', env.STRICT_HOSTS?.trim() || 'off'),
    forwardQuery: onOff('FORWARD_QUERY', env.FORWARD_QUERY?.trim() || 'on'),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 3_600_000),
    metricsToken: metricsToken(env.METRICS_TOKEN?.trim()),
    oidc: oidcSettings(env),
    webhookAllowHosts: webhookAllowHosts(env.WEBHOOK_ALLOW_HOSTS?.trim() ?? ''),
  });
}

const RATE_LIMIT_MAX = 1_000_000_000;

function onOff(name: string, raw: string): boolean {
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`${name} must be on or off, got "${raw}"`);
  return raw === 'on';
}

/** `*`, or origins (scheme://host[:port]) separated by commas. */
function corsOrigins(raw: string): '*' | readonly string[] {
  if (raw === '*') return '*';
  const origins = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        // refused below
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== entry.replace(/\/$/, '').toLowerCase()) {
        throw new ConfigError(`CORS_ORIGINS must be * or origins such as https://app.example.com separated by commas, got "${entry}"`);
      }
      return url.origin;
    });
  if (origins.length === 0) throw new ConfigError('CORS_ORIGINS must be * or origins separated by commas');
  return Object.freeze(origins);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** Parses `https://host[:port]` or a bare `host[:port]` (given the default scheme). */
function shortDomain(name: string, raw: string, defaultScheme: 'http' | 'https'): ShortDomain {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `${defaultScheme}://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ConfigError(`${name} has an invalid URL: "${raw}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.host) {
    throw new ConfigError(`${name} must be an http(s) URL or host name, got "${raw}"`);
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new ConfigError(`${name} must be a scheme and host only, without path, got "${raw}"`);
  }
  return Object.freeze({ hostname: url.host, urlPrefix: `${url.protocol}//${url.host}` });
}

function databaseTarget(raw: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//i.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError(`DATABASE_URL is not a valid PostgreSQL URL`);
    }
    return Object.freeze({ kind: 'postgres', url: raw });
  }
  const path = raw.startsWith('sqlite:') ? raw.slice('sqlite:'.length) : raw;
  if (!path || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new ConfigError(`DATABASE_URL must be sqlite:PATH, a file path or postgres://…, got "${raw}"`);
  }
  return Object.freeze({ kind: 'sqlite', path });
}

function redisUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^rediss?:\/\//i.test(raw)) throw new ConfigError(`REDIS_URL must start with redis:// or rediss://`);
  return raw;
}

function redisPrefix(raw: string): string {
  if (!/^[A-Za-z0-9:._-]{0,64}$/.test(raw)) {
    throw new ConfigError(`REDIS_PREFIX may hold only letters, digits and : . _ - (at most 64), got "${raw}"`);
  }
  return raw;
}

const ANALYTICS_LEVELS: readonly AnalyticsLevel[] = ['full', 'minimal', 'off'];

function analyticsLevel(raw: string): AnalyticsLevel {
  if (!(ANALYTICS_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`ANALYTICS must be one of ${ANALYTICS_LEVELS.join(', ')}, got "${raw}"`);
  }
  return raw as AnalyticsLevel;
}

const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** off (or 0), a hop count, or comma-separated proxy addresses, CIDRs and range names. */
function trustProxy(raw: string): TrustProxy {
  if (raw === '' || raw === 'off' || raw === '0') return Object.freeze({ kind: 'off' });
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 100) throw new ConfigError(`TRUST_PROXY must be at most 100 hops, got "${raw}"`);
    return Object.freeze({ kind: 'hops', hops });
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.find((entry) => !PROXY_RANGES.includes(entry) && !isAddressOrCidr(entry));
  if (entries.length === 0 || invalid !== undefined) {
    throw new ConfigError(`TRUST_PROXY must be off, a hop count, or proxy addresses and CIDRs separated by commas, got "${invalid ?? raw}"`);
  }
  try {
    proxyaddr.compile(entries); // what will match them: it must take them too
  } catch {
    throw new ConfigError(`TRUST_PROXY must be off, a hop count, or proxy addresses and CIDRs separated by commas, got "${raw}"`);
  }
  return Object.freeze({ kind: 'list', entries: Object.freeze(entries) });
}

/** A strict IPv4 or IPv6 address, optionally with a prefix length within its family's bits. */
function isAddressOrCidr(entry: string): boolean {
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash === -1) return true;
  const prefix = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Comma-separated DNS servers as Node's resolver takes them: `1.2.3.4`, `1.2.3.4:5353`, `::1`, `[::1]:5353`. */
function dnsServers(raw: string): readonly string[] | undefined {
  if (raw === '') return undefined;
  const servers = raw.split(',').map((entry) => entry.trim());
  for (const server of servers) {
    const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server);
    const withPort = /^([^:]+):(\d{1,5})$/.exec(server);
    const [address, port] = bracketed ? [bracketed[1]!, bracketed[2]] : withPort ? [withPort[1]!, withPort[2]] : [server, undefined];
    const family = isIP(address);
    if (family === 0 || (bracketed && family !== 6) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
      throw new ConfigError(
        `DNS_SERVERS must be IP addresses with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:5353), comma-separated, got "${server}"`,
      );
    }
  }
  return Object.freeze(servers);
}

/** Host names or addresses, comma-separated, without scheme or port: `localhost,127.0.0.1,[::1],hooks.internal`. */
function webhookAllowHosts(raw: string): readonly string[] {
  const hosts = raw
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  for (const host of hosts) {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    if (isIP(bare) === 0 && !/^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(host)) {
      throw new ConfigError(`WEBHOOK_ALLOW_HOSTS must be host names or addresses without scheme or port, comma-separated, got "${host}"`);
    }
  }
  return Object.freeze(hosts);
}

/** 16 to 256 characters a bearer token can carry (RFC 6750's token68 set), or none. */
function metricsToken(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^[A-Za-z0-9._~+/=-]{16,256}$/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN must be 16 to 256 letters, digits or - . _ ~ + / = (generate one: openssl rand -hex 32)');
  }
  return raw;
}

/**
 * OIDC_ISSUER and OIDC_CLIENT_ID turn single sign-on on together; one without the other, or a secret or
 * OIDC_AUTO_CREATE=on without both, is a half-made setup and stops the start naming what is missing.
 */
function oidcSettings(env: Env): OidcSettings | undefined {
  const issuer = env.OIDC_ISSUER?.trim() || undefined;
  const clientId = env.OIDC_CLIENT_ID?.trim() || undefined;
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim() || undefined;
  const autoCreate = onOff('OIDC_AUTO_CREATE', env.OIDC_AUTO_CREATE?.trim() || 'off');
  if (issuer === undefined && clientId === undefined) {
    if (clientSecret !== undefined)
      throw new ConfigError('OIDC_CLIENT_SECRET is set but OIDC_ISSUER and OIDC_CLIENT_ID are not: set both for single sign-on');
    if (autoCreate) throw new ConfigError('OIDC_AUTO_CREATE is on but OIDC_ISSUER and OIDC_CLIENT_ID are not set: set both for single sign-on');
    return undefined;
  }
  if (issuer === undefined) throw new ConfigError("OIDC_ISSUER must be set when OIDC_CLIENT_ID is (the provider's issuer URL)");
  if (clientId === undefined) throw new ConfigError("OIDC_CLIENT_ID must be set when OIDC_ISSUER is (Brief's client id at the provider)");
  return Object.freeze({ issuer: oidcIssuer(issuer), clientId, clientSecret, autoCreate });
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An https URL (http only on a loopback host: a provider on this machine), without query or fragment. */
function oidcIssuer(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // refused below
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname) {
    throw new ConfigError(`OIDC_ISSUER must be an https URL such as https://accounts.example.com, got "${raw}"`);
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new ConfigError(`OIDC_ISSUER must use https (http only for a provider on localhost), got "${raw}"`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`OIDC_ISSUER must be the issuer URL alone, without query, fragment or credentials, got "${raw}"`);
  }
  return raw;
}

function existingFile(name: string, raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let isFile = false;
  try {
    isFile = fs.statSync(raw).isFile();
  } catch {
    // missing or unreadable: refused below
  }
  if (!isFile) throw new ConfigError(`${name} must be the path of a file, got "${raw}"`);
  return raw;
}
