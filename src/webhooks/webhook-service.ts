// A workspace's webhook endpoints (issue 41): added by an owner or admin with the events they want, listed, removed,
// and their signing secret rotated. The secret is answered only when it is made (added, rotated); during a rotation
// the previous one signs too for a day, so a receiver can switch without losing a delivery.
import type { Caller } from '../accounts/caller.js';
import { requireRole } from '../accounts/roles.js';
import { BriefError, tooLong } from '../errors.js';
import { refusalOf } from '../net/outbound-request.js';
import {
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  type WebhookDeliveryStore,
  type WebhookEndpointRecord,
  type WebhookEventType,
  type WebhookStore,
} from '../storage/stores/webhooks.js';
import { WEBHOOK_ERRORS } from './webhook-errors.js';
import { TEST_EVENT } from './webhook-events.js';
import { newSecret } from './webhook-signature.js';

/** How long the previous secret still signs after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
export const WEBHOOK_URL_MAX = 2000;

/** An endpoint as its workspace sees it: never its secret (answered once, when made). */
export interface WebhookView {
  readonly id: number;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly includeBots: boolean;
  readonly createdAt: number;
  /** Until when the previous secret signs as well; null: no rotation under way. */
  readonly previousSecretUntil: number | null;
  readonly disabledAt: number | null;
  readonly disabledReason: string | null;
}

export interface NewWebhook {
  readonly url: string;
  readonly events: readonly string[];
  readonly includeBots?: boolean | undefined;
}

/** How many of an endpoint's deliveries the list shows, newest first. */
export const DELIVERIES_SHOWN = 50;

export class WebhookService {
  constructor(
    private readonly store: WebhookStore,
    private readonly deliveries: WebhookDeliveryStore,
    /** Asks the delivery worker to look for due deliveries now (a test event is sent at once). */
    private readonly wake: () => void,
    /** WEBHOOK_ALLOW_HOSTS: exempt from https-only and the public-address rule. */
    private readonly allowHosts: readonly string[],
    private readonly now: () => number = Date.now,
  ) {}

  async add(caller: Caller, asked: NewWebhook): Promise<{ readonly view: WebhookView; readonly secret: string }> {
    requireRole(caller, 'webhooks:write');
    const url = this.checkUrl(asked.url);
    const events = parseEvents(asked.events);
    const secret = newSecret();
    const record = await this.store.add({ accountId: caller.accountId, url, events, includeBots: asked.includeBots ?? false, secret });
    return { view: this.toView(record), secret };
  }

  async list(caller: Caller): Promise<WebhookView[]> {
    requireRole(caller, 'webhooks:write');
    return (await this.store.endpointsOf(caller.accountId)).map((record) => this.toView(record));
  }

  async remove(caller: Caller, id: number): Promise<void> {
    requireRole(caller, 'webhooks:write');
    if (!(await this.store.remove(caller.accountId, id))) throw WEBHOOK_ERRORS.notFound();
  }

  /** A new secret, answered this once; the one it replaces signs on for ROTATION_OVERLAP_MS. */
  async rotate(caller: Caller, id: number): Promise<{ readonly view: WebhookView; readonly secret: string }> {
    requireRole(caller, 'webhooks:write');
    const secret = newSecret();
    const record = await this.store.rotate(caller.accountId, id, secret, this.now() + ROTATION_OVERLAP_MS);
    if (record === undefined) throw WEBHOOK_ERRORS.notFound();
    return { view: this.toView(record), secret };
  }

  /**
   * PATCH: `enabled` true sends to a disabled endpoint again (from its next event; what failed while it was off stays
   * failed), false stops sending to it as a disabling after 3 days of failures does, with the reason that it was turned off.
   */
  async setEnabled(caller: Caller, id: number, enabled: boolean): Promise<WebhookView> {
    requireRole(caller, 'webhooks:write');
    const disabled = enabled ? null : { at: this.now(), reason: 'Turned off by an admin of the workspace.' };
    const record = await this.store.setDisabled(caller.accountId, id, disabled);
    if (record === undefined) throw WEBHOOK_ERRORS.notFound();
    return this.toView(record);
  }

  /** An endpoint's latest deliveries, newest first: status, attempts, the last answer's status or error. */
  async deliveriesOf(caller: Caller, id: number): Promise<WebhookDelivery[]> {
    const endpoint = await this.ownEndpoint(caller, id);
    return this.deliveries.deliveriesOf(endpoint.id, DELIVERIES_SHOWN);
  }

  /** A `webhook.test` event for this endpoint alone, sent at once (then retried like any other). */
  async sendTest(caller: Caller, id: number): Promise<WebhookDelivery> {
    const endpoint = await this.ownEndpoint(caller, id);
    const data = { webhookId: endpoint.id, message: 'A test event from Brief: this endpoint receives signed deliveries.' };
    const delivery = await this.deliveries.enqueue(endpoint.id, TEST_EVENT, JSON.stringify(data));
    this.wake();
    return delivery;
  }

  private async ownEndpoint(caller: Caller, id: number): Promise<WebhookEndpointRecord> {
    requireRole(caller, 'webhooks:write');
    const endpoint = await this.store.endpointOf(caller.accountId, id);
    if (endpoint === undefined) throw WEBHOOK_ERRORS.notFound();
    return endpoint;
  }

  /** The URL as it will be sent to, or a 422 naming `url` (what no DNS answer can make right: scheme, credentials, a private address). */
  private checkUrl(raw: string): string {
    const trimmed = raw.trim();
    if (trimmed.length > WEBHOOK_URL_MAX) throw BriefError.field(tooLong('url', WEBHOOK_URL_MAX));
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw WEBHOOK_ERRORS.badUrl('not a URL');
    }
    const refusal = refusalOf(url, this.allowHosts);
    if (refusal !== undefined) throw WEBHOOK_ERRORS.badUrl(refusal);
    return url.href;
  }

  private toView(record: WebhookEndpointRecord): WebhookView {
    const rotating = record.previousSecretUntil !== null && record.previousSecretUntil > this.now();
    return {
      id: record.id,
      url: record.url,
      events: record.events,
      includeBots: record.includeBots,
      createdAt: record.createdAt,
      previousSecretUntil: rotating ? record.previousSecretUntil : null,
      disabledAt: record.disabledAt,
      disabledReason: record.disabledReason,
    };
  }
}

/** The events asked for: each known (else 422 naming it), at least one, duplicates dropped, in WEBHOOK_EVENTS' order. */
function parseEvents(asked: readonly string[]): WebhookEventType[] {
  const unknown = asked.find((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
  if (unknown !== undefined) throw WEBHOOK_ERRORS.unknownEvent(unknown);
  if (asked.length === 0) throw WEBHOOK_ERRORS.noEvents();
  return WEBHOOK_EVENTS.filter((event) => asked.includes(event));
}
