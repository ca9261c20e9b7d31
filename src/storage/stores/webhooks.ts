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
}
