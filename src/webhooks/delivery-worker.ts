// The webhooks' delivery worker (decision 0045): a timer in the server process that claims due deliveries from
// the outbox, sends each with the guarded client (net/outbound-request.ts), signed, and records the outcome. A
// failure is retried with exponential backoff and jitter until 24 h after the event, then the delivery is failed.
// Claims are leases: an instance killed mid-send leaves rows that another (or the restarted one) takes once the
// lease runs out, so delivery is at least once, with the same webhook-id every time.
import type { Log } from '../log.js';
import type { WebhookFigures } from '../metrics/metrics.js';
import type { OutboundOutcome } from '../net/outbound-request.js';
import type { WebhookDelivery, WebhookDeliveryStore, WebhookEndpointRecord } from '../storage/stores/webhooks.js';
import { eventBody, type UrlPrefixOf } from './webhook-events.js';
import { webhookHeaders } from './webhook-signature.js';

export interface DeliveryWorkerOptions {
  /** How often due deliveries are looked for. */
  readonly pollMs: number;
  /** Deliveries claimed at a time, sent side by side. */
  readonly batch: number;
  /** Sends under way at most, this instance's: a hanging receiver holds one of them for the 10 s of its timeout. */
  readonly inFlight: number;
  /** After a full claim, the pause before the next: at most `batch` deliveries this often, an instance's ceiling. */
  readonly burstPauseMs: number;
  /** How long a claim holds: longer than one send (10 s) with room to spare. */
  readonly leaseMs: number;
  /** The first retry's delay; each next one doubles, up to maxDelayMs, each with jitter. */
  readonly retryBaseMs: number;
  readonly maxDelayMs: number;
  /** After this long since the event a delivery is failed, not retried. */
  readonly giveUpAfterMs: number;
  /** An endpoint whose every attempt failed for this long is disabled. */
  readonly disableAfterMs: number;
  /** Delivered and failed deliveries are kept this long after their event (the list shows them), then forgotten. */
  readonly keepMs: number;
  /** How often the forgetting runs. */
  readonly pruneEveryMs: number;
}

export const DELIVERY_DEFAULTS: DeliveryWorkerOptions = {
  pollMs: 1000,
  batch: 20,
  inFlight: 50,
  burstPauseMs: 100,
  leaseMs: 60_000,
  retryBaseMs: 5000,
  maxDelayMs: 3_600_000,
  giveUpAfterMs: 24 * 3_600_000,
  disableAfterMs: 3 * 24 * 3_600_000,
  keepMs: 7 * 24 * 3_600_000,
  pruneEveryMs: 10 * 60_000,
};

export interface Sender {
  post(url: string, headers: Readonly<Record<string, string>>, body: string, stop?: AbortSignal): Promise<OutboundOutcome>;
}

/** The delay before retry `attempt` (1: the first retry): base × 2^(attempt-1), capped, then between half and all of it. */
export function retryDelay(attempt: number, options: Pick<DeliveryWorkerOptions, 'retryBaseMs' | 'maxDelayMs'>, random = Math.random): number {
  const full = Math.min(options.retryBaseMs * 2 ** Math.min(attempt - 1, 30), options.maxDelayMs);
  return Math.round(full * (0.5 + random() / 2));
}

/** What an attempt's outcome says, for the delivery's record. */
function describe(outcome: OutboundOutcome): { delivered: boolean; responseStatus: number | null; error: string | null } {
  switch (outcome.kind) {
    case 'response': {
      const delivered = outcome.status >= 200 && outcome.status < 300;
      return { delivered, responseStatus: outcome.status, error: delivered ? null : `answered ${outcome.status}` };
    }
    case 'refused':
      return { delivered: false, responseStatus: null, error: `refused: ${outcome.reason}` };
    case 'timeout':
      return { delivered: false, responseStatus: null, error: 'no answer within 10 s' };
    case 'error':
      return { delivered: false, responseStatus: null, error: outcome.reason };
  }
}

export class WebhookDeliveryWorker {
  /** Attempts of this process by outcome, and the outbox's queue: what GET /metrics shows. */
  readonly figures: WebhookFigures;
  private readonly outcomes = { delivered: 0, retried: 0, failed: 0 };
  private timer: NodeJS.Timeout | undefined;
  private prunedAt = 0;
  /** The claim under way, if one is. */
  private claiming: Promise<void> | undefined;
  /** Sends under way (wake's): at most `inFlight`. */
  private readonly sending = new Set<Promise<void>>();
  private readonly options: DeliveryWorkerOptions;
  /** Aborted by stop(): the sends under way end at once, their deliveries left pending for the next start. */
  private stopping = new AbortController();

  constructor(
    private readonly store: WebhookDeliveryStore,
    private readonly sender: Sender,
    private readonly urlPrefixOf: UrlPrefixOf,
    private readonly log: Log,
    options: Partial<DeliveryWorkerOptions> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.options = { ...DELIVERY_DEFAULTS, ...options };
    this.figures = { outcomes: this.outcomes, queue: () => this.store.queue() };
  }

  start(): void {
    this.stopping = new AbortController();
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
  }

  /**
   * Stops the timer and ends the sends under way at once rather than within their 10 s: a receiver that hangs must not
   * hold a server's stop. Their deliveries are released unattempted (no attempt counted, due at once), so the next
   * start, or another instance, sends them; at least once, with the same webhook-id.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping.abort();
    await this.claiming;
    await Promise.all([...this.sending]);
  }

  /**
   * Claims what is due, up to the room left of `inFlight` sends, and sends it without waiting: a receiver that hangs holds
   * one of those places for its 10 s, never the others' deliveries. While claims come back full it claims again after
   * burstPauseMs, so a burst goes out at up to 200 a second, not a batch a tick. Not started (the CLI): nothing.
   */
  wake(): void {
    if (this.claiming !== undefined || this.timer === undefined) return;
    const room = Math.min(this.options.batch, this.options.inFlight - this.sending.size);
    if (room <= 0) return;
    this.claiming = this.claimAndSend(room)
      .then((claimed) => {
        this.claiming = undefined;
        // Full: more is due. Again soon, not at once: a burst of deliveries must not take the writer from links and visits.
        if (claimed === room) setTimeout(() => this.wake(), this.options.burstPauseMs).unref();
      })
      .catch((err: unknown) => {
        this.claiming = undefined;
        this.log.warn({ err }, 'webhook delivery round failed; will retry');
      });
  }

  /** One round, waiting for its sends: claims a batch of due deliveries and sends them side by side; how many it sent. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim(this.options.batch);
    await Promise.all(claimed.map(({ delivery, endpoint }) => this.deliver(delivery, endpoint)));
    return claimed.length;
  }

  private async claimAndSend(limit: number): Promise<number> {
    const claimed = await this.claim(limit);
    for (const { delivery, endpoint } of claimed) {
      const send: Promise<void> = this.deliver(delivery, endpoint)
        .catch((err: unknown) => this.log.warn({ err }, 'webhook delivery failed to record; its claim runs out and it is sent again'))
        .finally(() => this.sending.delete(send));
      this.sending.add(send);
    }
    return claimed.length;
  }

  private async claim(limit: number) {
    // link.clicked writes a delivery a flush per endpoint: what is done with is forgotten after keepMs, not kept forever.
    if (this.now() - this.prunedAt >= this.options.pruneEveryMs) {
      this.prunedAt = this.now();
      await this.store.prune(this.now() - this.options.keepMs);
    }
    return this.store.claimDue(this.now(), this.options.leaseMs, limit);
  }

  private async deliver(delivery: WebhookDelivery, endpoint: WebhookEndpointRecord): Promise<void> {
    if (endpoint.disabledAt !== null) {
      // Written before it was disabled: not sent, and said why.
      await this.record(delivery, endpoint, { delivered: false, responseStatus: null, error: 'the webhook is disabled' }, true);
      return;
    }
    const body = await eventBody(delivery, this.urlPrefixOf);
    const sentAt = this.now();
    const secrets = [endpoint.secret];
    if (endpoint.previousSecret !== null && endpoint.previousSecretUntil !== null && endpoint.previousSecretUntil > sentAt) {
      secrets.push(endpoint.previousSecret);
    }
    const outcome = await this.sender.post(
      endpoint.url,
      webhookHeaders(secrets, delivery.eventId, new Date(sentAt), body),
      body,
      this.stopping.signal,
    );
    // Cut short by stop(), not by the receiver: no attempt to hold against it. An answer that came first counts.
    if (this.stopping.signal.aborted && outcome.kind !== 'response') {
      await this.store.release(delivery.id);
      return;
    }
    await this.record(delivery, endpoint, describe(outcome), false);
  }

  private async record(
    delivery: WebhookDelivery,
    endpoint: WebhookEndpointRecord,
    { delivered, responseStatus, error }: ReturnType<typeof describe>,
    giveUp: boolean,
  ): Promise<void> {
    const at = this.now();
    const retryAt = at + retryDelay(delivery.attempts + 1, this.options);
    const status = delivered ? 'delivered' : giveUp || retryAt - delivery.createdAt > this.options.giveUpAfterMs ? 'failed' : 'pending';
    const days = Math.round(this.options.disableAfterMs / 86_400_000);
    await this.store.finish(delivery.id, {
      endpointId: endpoint.id,
      disableAfterMs: this.options.disableAfterMs,
      disableReason: `Every delivery failed for ${days} days; the last: ${error ?? 'no answer'}. Re-enable it once it answers 2xx.`,
      at,
      status,
      nextAttemptAt: status === 'pending' ? retryAt : at,
      responseStatus,
      error,
    });
    this.outcomes[status === 'pending' ? 'retried' : status]++;
  }
}
