// The webhooks' contract (issue 41): a workspace's endpoints and their secrets.

/** The event types an endpoint can ask for, as the API names them. */
export const WEBHOOK_EVENTS = ['link.created', 'link.updated', 'link.deleted', 'link.clicked', 'domain.verified'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookEndpointRecord {
  readonly id: number;
  readonly accountId: number;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly includeBots: boolean;
  readonly secret: string;
  /** The secret before the last rotation and until when it still signs; null when none does. */
  readonly previousSecret: string | null;
  readonly previousSecretUntil: number | null;
  readonly disabledAt: number | null;
  readonly disabledReason: string | null;
  readonly createdAt: number;
}

export type NewWebhookEndpoint = Pick<WebhookEndpointRecord, 'accountId' | 'url' | 'events' | 'includeBots' | 'secret'>;

export interface WebhookStore {
  add(endpoint: NewWebhookEndpoint): Promise<WebhookEndpointRecord>;
  /** An account's endpoints, oldest first. */
  endpointsOf(accountId: number): Promise<WebhookEndpointRecord[]>;
  /** One of an account's endpoints; undefined when it has none by that id. */
  endpointOf(accountId: number, id: number): Promise<WebhookEndpointRecord | undefined>;
  /** false when the account has no endpoint by that id. */
  remove(accountId: number, id: number): Promise<boolean>;
  /** Puts a new secret in, the current one signing on until `previousUntil`; undefined when the account has no such endpoint. */
  rotate(accountId: number, id: number, secret: string, previousUntil: number): Promise<WebhookEndpointRecord | undefined>;
  /**
   * Turns an endpoint off (`disabled` given: when and why) or back on (null: sent to again, its failing spell forgotten;
   * deliveries failed meanwhile stay failed). Undefined when the account has no such endpoint.
   */
  setDisabled(
    accountId: number,
    id: number,
    disabled: { readonly at: number; readonly reason: string } | null,
  ): Promise<WebhookEndpointRecord | undefined>;
}

/** What a link event carries of the link, at the moment of the change: the worker renders it into the body. */
export interface LinkEventData {
  readonly linkId: number;
  readonly accountId: number;
  readonly domain: string;
  readonly key: string;
  readonly slug: string | null;
  readonly url: string;
  readonly title: string | null;
  readonly comment: string | null;
  readonly createdAt: number;
  readonly updatedAt: number | null;
  readonly expiresAt: number | null;
  readonly deletedAt: number | null;
}

/** What link.clicked carries of one stored click event. */
export interface ClickEventData {
  readonly linkId: number;
  readonly time: number;
  readonly clicks: number;
  readonly bot: string | null;
  readonly country: string | null;
  readonly city: string | null;
  readonly browser: string | null;
  readonly os: string | null;
  readonly deviceType: string | null;
  readonly referrerHost: string | null;
  readonly language: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one endpoint, and how sending it went. */
export interface WebhookDelivery {
  readonly id: number;
  readonly endpointId: number;
  /** `msg_…`: the webhook-id of every attempt. */
  readonly eventId: string;
  readonly type: string;
  /** The event's snapshot, JSON. */
  readonly data: string;
  readonly createdAt: number;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly lastAttemptAt: number | null;
  readonly responseStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: number | null;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  readonly endpointId: number;
  /** How long an endpoint may fail every attempt before it is disabled, with `disableReason`. */
  readonly disableAfterMs: number;
  readonly disableReason: string;
  readonly at: number;
  readonly status: DeliveryStatus;
  /** When to try again (pending only). */
  readonly nextAttemptAt: number;
  readonly responseStatus: number | null;
  readonly error: string | null;
}

export interface WebhookDeliveryStore {
  /** An event for one endpoint only, due now (the test event); its event id. */
  enqueue(endpointId: number, type: string, data: string): Promise<WebhookDelivery>;
  /**
   * Claims up to `limit` pending deliveries due by `now` that no live claim holds, until `now + leaseMs`; each
   * with its endpoint. On PostgreSQL the rows are taken with FOR UPDATE SKIP LOCKED, so instances never claim one twice.
   */
  claimDue(now: number, leaseMs: number, limit: number): Promise<Array<{ delivery: WebhookDelivery; endpoint: WebhookEndpointRecord }>>;
  /**
   * Records an attempt's outcome and lets the claim go; in the same write, its endpoint's run of failures: ended by a
   * success, else begun if it was not, and when it began `disableAfterMs` ago or more the endpoint is disabled.
   */
  finish(id: number, outcome: AttemptOutcome): Promise<void>;
  /** A claimed delivery handed back unattempted (its send cut short by a stop): pending, due at once for any instance. */
  release(id: number): Promise<void>;
  /** Forgets delivered and failed deliveries of events before `before`; how many. */
  prune(before: number): Promise<number>;
  /** How many deliveries wait, and when the oldest of them happened. */
  queue(): Promise<{ pending: number; oldestCreatedAt: number | null }>;
  /** An endpoint's deliveries, newest first. */
  deliveriesOf(endpointId: number, limit: number): Promise<WebhookDelivery[]>;
}
