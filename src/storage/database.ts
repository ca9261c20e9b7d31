import type { Kysely } from 'kysely';
import type { DatabaseTarget } from '../config.js';
import { SqlAccountStore } from './account-store.js';
import { SqlAnalyticsStore } from './analytics-store.js';
import { SqlBlocklistStore } from './blocklist-store.js';
import { SqlLinkChangeStore } from './change-store.js';
import { SqlClickStore } from './click-store.js';
import { type Connection, type ConnectionOptions, type Dialect, openConnection } from './connection.js';
import { SqlDomainStore } from './domain-store.js';
import { SqlImportStore } from './import-store.js';
import { SqlLinkStore } from './link-store.js';
import { SqlPasskeyStore } from './passkey-store.js';
import { SqlPasswordStore } from './password-store.js';
import { SqlPeopleStore } from './people-store.js';
import { SqlServerSettingsStore } from './server-settings-store.js';
import type { AccountStore } from './stores/accounts.js';
import type { AnalyticsStore } from './stores/analytics.js';
import type { BlocklistStore } from './stores/blocklist.js';
import type { LinkChangeStore } from './stores/changes.js';
import type { ClickStore } from './stores/clicks.js';
import type { DomainStore } from './stores/domains.js';
import type { ImportStore } from './stores/imports.js';
import type { LinkStore } from './stores/links.js';
import type { PasskeyStore } from './stores/passkeys.js';
import type { PasswordStore } from './stores/passwords.js';
import type { PeopleStore } from './stores/people.js';
import type { ServerSettingsStore } from './stores/server-settings.js';
import type { Tables } from './tables.js';

export type { Dialect } from './connection.js';
export type DatabaseOptions = ConnectionOptions;

/**
 * An open database: the stores the services are given, plus the raw connection for
 * migrations and for tests that arrange rows directly. Only the composition root
 * (services.ts) holds a Database; services see their stores alone.
 */
export interface Database {
  readonly dialect: Dialect;
  readonly links: LinkStore;
  readonly changes: LinkChangeStore;
  readonly clicks: ClickStore;
  readonly accounts: AccountStore;
  readonly people: PeopleStore;
  readonly passkeys: PasskeyStore;
  /** Password changes and resets, and invitations' wrong passwords (decision 0034). */
  readonly passwords: PasswordStore;
  readonly domains: DomainStore;
  readonly analytics: AnalyticsStore;
  readonly blocklist: BlocklistStore;
  readonly imports: ImportStore;
  /** What a running server records for the CLI (its domains). */
  readonly settings: ServerSettingsStore;
  /** Kysely on the writer connection: migrations and tests. */
  readonly db: Kysely<Tables>;
  /** A durable write (group-committed on SQLite): migrations and tests. */
  write: Connection['write'];
  close(): Promise<void>;
}

export function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Database {
  const connection = openConnection(target, options);
  return {
    dialect: connection.dialect,
    links: new SqlLinkStore(connection),
    changes: new SqlLinkChangeStore(connection),
    clicks: new SqlClickStore(connection),
    accounts: new SqlAccountStore(connection),
    people: new SqlPeopleStore(connection),
    passkeys: new SqlPasskeyStore(connection),
    passwords: new SqlPasswordStore(connection),
    domains: new SqlDomainStore(connection),
    analytics: new SqlAnalyticsStore(connection),
    blocklist: new SqlBlocklistStore(connection),
    imports: new SqlImportStore(connection),
    settings: new SqlServerSettingsStore(connection),
    db: connection.db,
    write: connection.write,
    close: connection.close,
  };
}
