import { SqlAccountStore } from '../sql/account-store.js';
import { SqlBlocklistStore } from '../sql/blocklist-store.js';
import { SqlLinkChangeStore } from '../sql/change-store.js';
import { SqlDomainStore } from '../sql/domain-store.js';
import { SqlPasskeyStore } from '../sql/passkey-store.js';
import { SqlPasswordStore } from '../sql/password-store.js';
import { SqlPeopleStore } from '../sql/people-store.js';
import { SqlServerSettingsStore } from '../sql/server-settings-store.js';
import { SqlTagStore } from '../sql/tag-store.js';
import { SqlVisitLimitStore } from '../sql/visit-limit-store.js';
import { SqlWebhookDeliveryStore } from '../sql/webhook-delivery-store.js';
import { SqlWebhookStore } from '../sql/webhook-store.js';
import { SqlWellKnownStore } from '../sql/well-known-store.js';
import type { StoreSet } from '../stores/store-set.js';
import { SqliteAnalyticsStore } from './analytics-store.js';
import { SqliteClickStore } from './click-store.js';
import type { SqliteConnection } from './connection.js';
import { SqliteImportStore } from './import-store.js';
import { SqliteLinkStore } from './link-store.js';
import { sqliteWorkspaceLocks } from './workspace-locks.js';

/**
 * Every store on SQLite: its own where it writes with statements prepared once or on the background
 * thread (links, clicks, click events, imports), those both dialects share (sql/) with no locks to take.
 */
export function sqliteStores(connection: SqliteConnection): StoreSet {
  return {
    links: new SqliteLinkStore(connection),
    changes: new SqlLinkChangeStore(connection),
    clicks: new SqliteClickStore(connection),
    accounts: new SqlAccountStore(connection, sqliteWorkspaceLocks),
    people: new SqlPeopleStore(connection, sqliteWorkspaceLocks),
    passkeys: new SqlPasskeyStore(connection),
    passwords: new SqlPasswordStore(connection),
    domains: new SqlDomainStore(connection, sqliteWorkspaceLocks),
    analytics: new SqliteAnalyticsStore(connection),
    blocklist: new SqlBlocklistStore(connection),
    imports: new SqliteImportStore(connection),
    settings: new SqlServerSettingsStore(connection),
    visitLimits: new SqlVisitLimitStore(connection),
    wellKnown: new SqlWellKnownStore(connection),
    tags: new SqlTagStore(connection, sqliteWorkspaceLocks),
    webhooks: new SqlWebhookStore(connection),
    webhookDeliveries: new SqlWebhookDeliveryStore(connection, false),
  };
}
