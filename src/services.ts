// The composition root: the one place that builds the services, for the server
// (app.ts), the CLI (main.ts) and the tests alike. Only here are stores handed out.
import { BlocklistService } from './abuse/blocklist-service.js';
import { AccountService } from './accounts/account-service.js';
import { AnalyticsRetention, RETENTION_CHECK_MS } from './analytics/analytics-retention.js';
import { AnalyticsService } from './analytics/analytics-service.js';
import { VisitEnricher } from './analytics/enrich.js';
import { bundledCountries, citiesIn } from './analytics/places.js';
import { VisitRecorder } from './analytics/visit-recorder.js';
import type { Config } from './config.js';
import { DomainService } from './domains/domain-service.js';
import { dnsTxtLookup } from './domains/domain-verification.js';
import { type CommandDomains, droppedDomains, recordServedDomains, withServedDomains } from './domains/served-domains.js';
import { WellKnownService } from './domains/well-known-service.js';
import { Readiness } from './health/readiness.js';
import type { StopSignal } from './health/stop-signal.js';
import { LinkChangeFeed } from './links/link-change-feed.js';
import { LinkService } from './links/link-service.js';
import { TagService } from './links/tag-service.js';
import type { Log } from './log.js';
import type { RedirectFigures, VisitFigures } from './metrics/metrics.js';
import { clientAddress } from './net/client-address.js';
import { OutboundClient } from './net/outbound-request.js';
import { PasswordPool } from './passwords/password-pool.js';
import { PasskeyService, relyingPartyOf } from './people/passkeys/passkey-service.js';
import { PasswordChanges } from './people/password-changes.js';
import { PeopleService } from './people/people-service.js';
import { SessionService } from './people/session-service.js';
import { OidcClient } from './people/sso/oidc-client.js';
import { SingleSignOn } from './people/sso/single-sign-on.js';
import { UserPasswords } from './people/user-passwords.js';
import { ClickCounter } from './redirect/click-counter.js';
import { DomainRedirects } from './redirect/domain-redirects.js';
import { LinkResolver } from './redirect/link-resolver.js';
import { redirectAnswers } from './redirect/redirect-answer.js';
import { RedirectCache } from './redirect/redirect-cache.js';
import { RedirectPipeline, type VisitObserver } from './redirect/redirect-pipeline.js';
import { requestVisitors } from './redirect/request-visitor.js';
import { VisitLimits } from './redirect/visit-limits.js';
import { LocalCounters } from './shared-state/counters.js';
import type { SharedState } from './shared-state/shared-state.js';
import { type Database, openDatabase } from './storage/database.js';
import { TokenService } from './tokens/token-service.js';
import { WebhookDeliveryWorker } from './webhooks/delivery-worker.js';
import { WebhookService } from './webhooks/webhook-service.js';

export type { Database } from './storage/database.js';

import { migrateToLatest, pendingMigrations } from './storage/migrate.js';
import { filesOpenToOthers, type OpenPath } from './storage/sqlite/file-modes.js';

// For `brief backup`, `brief restore` and `brief export` (decision 0023).
export { knownMigrations } from './storage/migrate.js';
export { EXPORTED_FIELDS, type ExportedLink, exportedLinks } from './storage/sql/link-export.js';
export { backupSqliteFile, databaseInUse, inspectBriefDatabase, replaceSqliteFile } from './storage/sqlite/backup-files.js';
export { isDatabaseFile } from './storage/sqlite/file-modes.js';
// For `brief import` (decision 0025).
export type { ImportedLink, ImportOutcome, ImportStore } from './storage/stores/imports.js';

/** Opens the configured database and brings its schema up to date. */
export async function openMigratedDatabase(config: Config, poolMax = config.databasePoolMax): Promise<Database> {
  const database = openDatabase(config.database, { poolMax, connectTimeoutMs: config.databaseConnectTimeoutMs });
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * `brief serve`, once it listens: records the domains it serves (BASE_URL's, PUBLIC_DOMAINS) for the CLI
 * (decision 0033). Recorded only then, so a server that fails to start (its port taken) never replaces
 * the record of the one running. A failure is logged: the server serves on, the CLI uses its own environment.
 */
export async function recordServerDomains(
  config: Config,
  database: Database,
  log: Log & { error(details: object, message: string): void },
): Promise<void> {
  try {
    const before = await recordServedDomains(database.settings, config);
    const dropped = before ? droppedDomains(before, config) : [];
    if (dropped.length > 0) {
      log.warn(
        { dropped },
        `this server does not serve ${dropped.join(', ')}, which the last one to start on this database did: links there answer 404 ` +
          'unless it is put back in BASE_URL or PUBLIC_DOMAINS, or added with brief domain add',
      );
    }
  } catch (err) {
    log.error({ err }, 'could not record the domains this server serves: CLI commands will use their own BASE_URL');
  }
}

/** A CLI command's configuration on this database: the domains of the server that last started on it when they differ (decision 0033). */
export function commandDomains(config: Config, database: Database): Promise<CommandDomains> {
  return withServedDomains(database.settings, config);
}

/** SQLite: the database's folder and files that other users of the machine may open (`serve` warns of them). */
export function databaseFilesOpenToOthers(config: Config): OpenPath[] {
  return config.database.kind === 'sqlite' ? filesOpenToOthers(config.database.path) : [];
}

export interface Services {
  /** Accounts (workspaces) by name, and the anonymous account. */
  readonly accounts: AccountService;
  /** API tokens: made, listed, revoked, and each request's bearer token turned into its caller. */
  readonly tokens: TokenService;
  /** People, their workspaces and invitations (decision 0028). */
  readonly people: PeopleService;
  /** Password sign-in and the sessions it starts. */
  readonly sessions: SessionService;
  /** A person's password changed, set by the operator, or reset through a one-time link (decision 0034). */
  readonly passwordChanges: PasswordChanges;
  /** Passkeys: registered by a signed-in person, then a sign-in of their own (decision 0030). */
  readonly passkeys: PasskeyService;
  readonly domains: DomainService;
  /** The domains' app-link files under `/.well-known/` (decision 0042). */
  readonly wellKnown: WellKnownService;
  readonly links: LinkService;
  /** A workspace's tags (links carry them through LinkService). */
  readonly tags: TagService;
  /** Link changes: announced here, heard from elsewhere once started (the server starts it; the CLI only announces). */
  readonly changes: LinkChangeFeed;
  /** Click analytics' figures (the events are recorded by the redirect side). */
  readonly analytics: AnalyticsService;
  /** ANALYTICS_RETENTION_DAYS, applied while the server runs. */
  readonly retention: AnalyticsRetention;
  /** The destination blocklist (held in memory and kept fresh once the server starts it). */
  readonly blocklist: BlocklistService;
  /**
   * Every scrypt hash of this process, people's and links', on two niced threads with a bounded queue
   * (decision 0034): the server's and the CLI's alike. The server closes it when it stops.
   */
  readonly passwords: PasswordPool;
  /** A workspace's webhook endpoints (issue 41). */
  readonly webhooks: WebhookService;
  /** Sends the webhooks' deliveries: the server starts it (the CLI only writes events). */
  readonly webhookWorker: WebhookDeliveryWorker;
}

/**
 * The services every entry point uses, on an open, migrated database. `shared.passwordCounters` count
 * password checks per email (this process's own when not given: the CLI checks no one's password);
 * `passwords` is the bounded pool of password hashes (tests give one that holds its hashes).
 */
export function createServices(
  config: Config,
  database: Database,
  shared: Pick<SharedState, 'changes'> & Partial<Pick<SharedState, 'passwordCounters'>>,
  log: Log,
  passwords: PasswordPool = new PasswordPool(),
): Services {
  const changes = new LinkChangeFeed(database.changes, log, shared.changes);
  const accounts = new AccountService(database.accounts);
  const tokens = new TokenService(database.accounts, accounts);
  const userPasswords = new UserPasswords(passwords, shared.passwordCounters ?? new LocalCounters(), config.rateLimitSignIn);
  const people = new PeopleService(database.people, accounts, config.defaultDomain.urlPrefix, userPasswords, database.passwords);
  const sessions = new SessionService(database.people, { idleMs: config.sessionIdleMs, absoluteMs: config.sessionMaxMs }, userPasswords);
  const passwordChanges = new PasswordChanges(database.people, database.passwords, userPasswords, config.defaultDomain.urlPrefix);
  const passkeys = new PasskeyService(database.passkeys, database.people, people, sessions, relyingPartyOf(config.defaultDomain.urlPrefix));
  const domains = new DomainService(config, database.domains, database.links, dnsTxtLookup(config.dnsServers), changes);
  const wellKnown = new WellKnownService(domains, database.wellKnown);
  const blocklist = new BlocklistService(database.blocklist, log, config.blocklistFile);
  const links = new LinkService(config, database.links, database.tags, domains, changes, blocklist.hosts, passwords);
  const tags = new TagService(database.tags);
  const retention = new AnalyticsRetention(database.analytics, config.analyticsRetentionDays, log);
  const analytics = new AnalyticsService(database.analytics, links, retention);
  const outbound = new OutboundClient({ allowHosts: config.webhookAllowHosts, userAgent: `Brief-Webhooks/1 (+${config.defaultDomain.urlPrefix})` });
  const webhookWorker = new WebhookDeliveryWorker(
    database.webhookDeliveries,
    outbound,
    async (hostname) => (await domains.find(hostname))?.urlPrefix,
    log,
  );
  const webhooks = new WebhookService(database.webhooks, database.webhookDeliveries, () => webhookWorker.wake(), config.webhookAllowHosts);
  return {
    accounts,
    tokens,
    people,
    sessions,
    passwordChanges,
    passkeys,
    domains,
    wellKnown,
    links,
    tags,
    changes,
    analytics,
    retention,
    blocklist,
    passwords,
    webhooks,
    webhookWorker,
  };
}

/**
 * Single sign-on (decision 0031) when OIDC_ISSUER and OIDC_CLIENT_ID are set: the provider's client and
 * the sign-in on top of it. `used` marks each sign-in's state as seen (shared by instances through Redis).
 */
export function createSingleSignOn(
  config: Config,
  database: Database,
  sessions: SessionService,
  used: SharedState['counters'],
  log: Log,
): { client: OidcClient; signOn: SingleSignOn } | undefined {
  if (!config.oidc) return undefined;
  const client = new OidcClient(config.oidc, `${config.defaultDomain.urlPrefix}/auth/oidc/callback`, log);
  return { client, signOn: new SingleSignOn(config.oidc, client, database.people, sessions, used, log) };
}

/**
 * The country of a visitor's address, for a link's rules (the redirect's and the evaluation's): the bundled
 * database, read (once per process) only when a rule first asks for a country.
 */
export const visitorCountries = (address: string): string | null => bundledCountries()(address);

/** The server's redirect side: the pipeline, and what keeps its caches exact and its clicks written. */
export interface Redirects {
  readonly pipeline: RedirectPipeline;
  /** Listens for link changes, then loads the link index and the domains' redirects, then flushes clicks on a timer. */
  start(): Promise<void>;
  /** Stops listening and writes the clicks counted so far. */
  stop(): Promise<void>;
  /** Whether start() has finished (GET /readyz asks). */
  readonly started: boolean;
  /** Click events waiting to be written, dropped (buffer full) and written since start, and the flush times since the last call; zeros with ANALYTICS=off. */
  visitFigures(): VisitFigures;
  /** What GET /metrics reads of the redirect side, counted since start. */
  redirectFigures(): RedirectFigures;
}

export function createRedirects(
  config: Config,
  database: Database,
  services: Pick<Services, 'changes' | 'domains' | 'retention' | 'blocklist' | 'passwords'>,
  log: Log,
): Redirects {
  const { changes, domains, retention, blocklist, passwords } = services;
  const cache = new RedirectCache({
    max: config.cacheSize,
    ttlMs: config.cacheTtlMs,
    missingTtlMs: config.negativeCacheTtlMs,
    index: database.links.syncReads && { max: config.linkIndexMax, source: database.links.syncReads },
  });
  changes.onChange((domain, key) => cache.invalidate(domain, key));
  const clicks = new ClickCounter(database.clicks, log);
  // The domains' home and not-found redirects: read at start and every CHANGE_POLL_MS (other
  // instances' changes), and at once after a change made here, before its request is answered.
  const domainRedirects = new DomainRedirects(database.domains, log, {
    defaultHost: config.defaultDomain.hostname,
    configuredHosts: config.publicDomains.map((domain) => domain.hostname),
    urlPrefixes: config.publicDomains.map((domain) => domain.urlPrefix),
    strict: config.strictHosts,
  });
  domains.onChange(() => domainRedirects.refresh().catch((err: unknown) => log.warn({ err }, 'could not read the domain settings')));
  // The visits counted against links' limits: noted on the request path, added up in the database every CLICK_FLUSH_MS.
  const visitLimits = new VisitLimits(database.visitLimits, log);
  const observers: VisitObserver[] = [(target) => clicks.count(target.id), visitLimits.observe];
  // Click analytics: each visit noted on the request path, enriched and written every CLICK_FLUSH_MS.
  const events = visitRecorder(config, database, log);
  if (events) observers.push(events.observe);
  // The steps of the links loaded: the visits counted against limits, and the domains' prefixes for a card's short URL.
  const resolver = new LinkResolver(database.links, cache, { visits: visitLimits, origins: domainRedirects });
  const pipeline = new RedirectPipeline(
    resolver,
    redirectAnswers(config),
    observers,
    domainRedirects,
    blocklist.hosts,
    // A link's password on the bounded, niced threads every password shares; busy: the form's 503 page.
    (password, stored) => passwords.check('link', password, stored),
    config.forwardQuery,
    // Who a visitor is, for a link's rules: the client's address as analytics reads it, and its country.
    requestVisitors(clientAddress(config.trustProxy), visitorCountries),
  );
  let started = false;
  return {
    pipeline,
    get started() {
      return started;
    },
    visitFigures: () => ({
      held: events?.heldVisits ?? 0,
      dropped: events?.droppedVisits ?? 0,
      written: events?.writtenVisits ?? 0,
      flushTimes: events?.takeFlushTimes() ?? [],
    }),
    redirectFigures: () => ({
      lookups: { index: cache.indexHits, cached: cache.entryHits, cachedMissing: cache.missingHits, store: resolver.storeReads },
      indexLinks: cache.indexSize,
      blockedVisits: pipeline.blockedVisits,
      failedClickWrites: clicks.failedWrites,
      failedVisitLimitWrites: visitLimits.failedWrites,
    }),
    async start() {
      // The feed first: a change committed while the index loads is then still heard.
      await changes.start(config.changePollMs);
      const indexed = cache.loadIndex();
      if (indexed > 0) log.info({ links: indexed }, 'link index loaded');
      await domainRedirects.start(config.changePollMs);
      // Blocked destinations: read now, and again whenever the list changes (every CHANGE_POLL_MS).
      await blocklist.start(config.changePollMs);
      clicks.start(config.clickFlushMs);
      visitLimits.start(config.clickFlushMs);
      events?.start(config.clickFlushMs);
      retention.start(RETENTION_CHECK_MS);
      void retention.flush(); // at start too; a failure is logged and tried again in an hour
      started = true;
    },
    async stop() {
      changes.stop();
      domainRedirects.stop();
      blocklist.stop();
      await Promise.all([clicks.stop(), visitLimits.stop(), events?.stop(), retention.stop()]);
    },
  };
}

/** What GET /readyz asks: the database's migrations (one small read), whether the redirect side started, whether a stop began. */
export function createReadiness(database: Database, redirects: Pick<Redirects, 'started'>, stop: StopSignal, log: Log): Readiness {
  return new Readiness(
    { pendingMigrations: () => pendingMigrations(database), started: () => redirects.started, stopping: () => stop.stopping },
    log,
  );
}

/** The recorder of click events that ANALYTICS asks for, or none (off). */
function visitRecorder(config: Config, database: Database, log: Log): VisitRecorder | undefined {
  if (config.analytics === 'off') return undefined;
  const full = config.analytics === 'full';
  // The country database is read (once per process) only when countries are recorded.
  const enricher = new VisitEnricher(
    config.analytics,
    clientAddress(config.trustProxy),
    full ? bundledCountries() : undefined,
    full && config.geoipCityDb ? citiesIn(config.geoipCityDb) : undefined,
  );
  return new VisitRecorder(database.analytics, enricher, log, {
    max: config.analyticsBufferMax,
    full,
    forwarded: full && config.trustProxy.kind !== 'off',
  });
}
