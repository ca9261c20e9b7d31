// A test app on a test database, plus direct access to the services behind it.
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { BlocklistService } from '../../src/abuse/blocklist-service.js';
import type { AccountService } from '../../src/accounts/account-service.js';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { DomainService } from '../../src/domains/domain-service.js';
import type { LinkService } from '../../src/links/link-service.js';
import { createServices } from '../../src/services.js';
import { LocalChangeBus } from '../../src/shared-state/change-bus.js';
import type { Database, Dialect } from '../../src/storage/database.js';
import type { TokenService } from '../../src/tokens/token-service.js';
import { openTestDatabase, type TestDatabase } from './database.js';

export const BASE_HOST = 'short.test';
export const BASE_PREFIX = 'http://short.test';
export const PUBLIC_HOST = 'pub.test';

export const TEST_ENV: Record<string, string> = {
  BASE_URL: BASE_PREFIX,
  PUBLIC_DOMAINS: PUBLIC_HOST,
  LOG_LEVEL: 'silent',
  CHANGE_POLL_MS: '10',
  // A redirect cache of 100,000 entries (the default) is allocated whole when the app is built; the suites hold a few.
  CACHE_SIZE: '10000',
  // Off by default (config.ts); the tests record every visit, as a server with analytics on.
  ANALYTICS: 'full',
  // The suites make many links and calls from one address; the limits' own tests turn them on.
  RATE_LIMIT_ANON: '0',
  RATE_LIMIT_TOKEN: '0',
  RATE_LIMIT_READ: '0',
  RATE_LIMIT_QR: '0',
  RATE_LIMIT_PASSWORD: '0',
  RATE_LIMIT_PASSWORD_ADDRESS: '0',
  RATE_LIMIT_DOMAIN_VERIFY: '0',
};

export interface TestAccount {
  id: number;
  name: string;
  token: string;
  /** Headers carrying the account's bearer token. */
  headers: { authorization: string };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  accounts: AccountService;
  tokens: TokenService;
  domains: DomainService;
  /** A LinkService like the CLI's: its changes reach the app through the link_changes feed. */
  links: LinkService;
  /** The CLI's blocklist: what it adds reaches the app as the app polls the list. */
  blocklist: BlocklistService;
  account(prefix?: string): Promise<TestAccount>;
  privateDomain(accountId: number, prefix?: string): Promise<string>;
  close(): Promise<void>;
}

/** Builds (and readies) an app on an open, migrated database. Closing it does not close the database. */
export async function buildTestApp(database: Database, env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ ...TEST_ENV, ...env });
  const app = buildApp(config, { database });
  await app.ready();
  // Services like the CLI's, with no bus to announce on: the app hears of their changes
  // only through the link_changes feed it polls.
  const quiet = { info: () => {}, warn: () => {} };
  const bus = new LocalChangeBus();
  const { accounts, tokens, domains, links, blocklist } = createServices(config, database, { changes: bus }, quiet);
  return {
    app,
    config,
    database,
    accounts,
    tokens,
    domains,
    links,
    blocklist,
    async account(prefix = 'acct') {
      const row = await accounts.create(uniqueName(prefix));
      const { token } = await tokens.createToken(row.name);
      return { id: row.id, name: row.name, token, headers: { authorization: `Bearer ${token}` } };
    },
    async privateDomain(accountId, prefix = 'own') {
      const added = await domains.add(`${uniqueName(prefix).toLowerCase()}.example`, accountId);
      // The app hears of the domain within CHANGE_POLL_MS; until then its Host answers as the default
      // domain (decision 0015), whose / is the web app rather than the new domain's 404. A suite with a
      // long poll makes the app read its domains itself (any domain change through the app's API does).
      if (config.changePollMs <= 1000) {
        const known = await eventually(async () => (await app.inject({ url: '/', headers: { host: added.hostname } })).statusCode === 404);
        if (!known) throw new Error(`the app did not learn of ${added.hostname} within its poll`);
      }
      return added.hostname;
    },
    close: () => app.close(),
  };
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** A query string from pairs, every value percent-encoded. */
export function qs(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

/** A link to `url` behind the password 'right horse', made with `headers` (a bearer token's) through the bulk call: its key. */
export async function passwordLink(app: FastifyInstance, headers: Record<string, string>, url: string): Promise<string> {
  const made = await app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers, payload: [{ url, password: 'right horse' }] });
  return (made.json()[0] as { slug: string }).slug;
}

/** A password sent from a protected link's form, as a browser at `remoteAddress` posts it (`host`: the Host it names). */
export function passwordAttempt(app: FastifyInstance, key: string, password: string, remoteAddress: string, host = BASE_HOST) {
  return app.inject({
    method: 'POST',
    url: `/${key}`,
    remoteAddress,
    headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ password }).toString(),
  });
}

/** Polls until check() is true or the attempts run out; for changes that arrive through a poll loop. */
export async function eventually(check: () => Promise<boolean>, attempts = 100, pauseMs = 20): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  return false;
}

/**
 * Registers before/after hooks in the current describe() that open a test database of
 * the dialect and build a test app on it; read `.t` and `.db` inside tests.
 */
export function useTestApp(dialect: Dialect, env: Record<string, string> = {}): { readonly t: TestApp; readonly db: TestDatabase } {
  let t: TestApp | undefined;
  let db: TestDatabase | undefined;
  before(async () => {
    db = await openTestDatabase(dialect);
    t = await buildTestApp(db.database, env);
  });
  after(async () => {
    await t?.close();
    await db?.cleanup();
  });
  return {
    get t() {
      if (!t) throw new Error('test app not built');
      return t;
    },
    get db() {
      if (!db) throw new Error('test database not open');
      return db;
    },
  };
}
