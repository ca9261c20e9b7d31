import type { Connection } from '../connection.js';
import { SqlAccountStore } from '../sql/account-store.js';
import { SqlBlocklistStore } from '../sql/blocklist-store.js';
import { SqlLinkChangeStore } from '../sql/change-store.js';
import { SqlClickStore } from '../sql/click-store.js';
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
import { PostgresAnalyticsStore } from './analytics-store.js';
import { PostgresImportStore } from './import-store.js';
import { PostgresLinkStore } from './link-store.js';
import { postgresWorkspaceLocks } from './workspace-locks.js';

/**
 * Every store on PostgreSQL: its own where it makes ids from the sequence or writes in batches of arrays
 * (links, imports) and where it locks (click events' expiry, workspaces' rows), those both dialects share (sql/)
 * elsewhere.
 */
export function postgresStores(connection: Connection): StoreSet {
  return {
    links: new PostgresLinkStore(connection),
    changes: new SqlLinkChangeStore(connection),
    clicks: new SqlClickStore(connection),
    accounts: new SqlAccountStore(connection, postgresWorkspaceLocks),
    people: new SqlPeopleStore(connection, postgresWorkspaceLocks),
    passkeys: new SqlPasskeyStore(connection),
    passwords: new SqlPasswordStore(connection),
    domains: new SqlDomainStore(connection, postgresWorkspaceLocks),
    analytics: new PostgresAnalyticsStore(connection),
    blocklist: new SqlBlocklistStore(connection),
    imports: new PostgresImportStore(connection),
    settings: new SqlServerSettingsStore(connection),
    visitLimits: new SqlVisitLimitStore(connection),
    wellKnown: new SqlWellKnownStore(connection),
    tags: new SqlTagStore(connection, postgresWorkspaceLocks),
    webhooks: new SqlWebhookStore(connection),
    webhookDeliveries: new SqlWebhookDeliveryStore(connection, true),
  };
}
