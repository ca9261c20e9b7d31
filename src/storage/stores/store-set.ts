// Every store of one database: what the composition root (services.ts) hands each service its part of.
// Each dialect makes the whole set (sqlite/stores.ts, postgres/stores.ts).
import type { AccountStore } from './accounts.js';
import type { AnalyticsStore } from './analytics.js';
import type { BlocklistStore } from './blocklist.js';
import type { LinkChangeStore } from './changes.js';
import type { ClickStore } from './clicks.js';
import type { DomainStore } from './domains.js';
import type { ImportStore } from './imports.js';
import type { LinkStore } from './links.js';
import type { PasskeyStore } from './passkeys.js';
import type { PasswordStore } from './passwords.js';
import type { PeopleStore } from './people.js';
import type { ServerSettingsStore } from './server-settings.js';
import type { TagStore } from './tags.js';
import type { VisitLimitStore } from './visit-limits.js';
import type { WebhookDeliveryStore, WebhookStore } from './webhooks.js';
import type { WellKnownStore } from './well-known.js';

export interface StoreSet {
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
  /** The visits counted against links' visit limits. */
  readonly visitLimits: VisitLimitStore;
  /** The files domains serve under `/.well-known/` (app links). */
  readonly wellKnown: WellKnownStore;
  /** Workspaces' tags and the links that carry them. */
  readonly tags: TagStore;
  /** Webhook endpoints (issue 41). */
  readonly webhooks: WebhookStore;
  /** The webhooks' outbox: deliveries claimed, sent and recorded (decision 0045). */
  readonly webhookDeliveries: WebhookDeliveryStore;
}
