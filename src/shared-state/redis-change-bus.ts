import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Log } from '../log.js';
import type { ChangeBus } from './change-bus.js';
import { closeRedis, connectRedis, delay } from './redis-connection.js';

// Start-up waits this long for the subscription, so a healthy Redis is listened to
// before the first request; a sick one does not hold start-up back.
const SUBSCRIBE_WAIT_MS = 2_000;
const CLOSE_WAIT_MS = 2_000;

interface ChangeMessage {
  /** The publishing process, which has already invalidated its own cache. */
  o: string;
  d: string;
  k: string;
}

/** Link-change notices over Redis pub/sub, on the channel `<REDIS_PREFIX>link-changes`. */
export class RedisChangeBus implements ChangeBus {
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly publisher: Redis;
  private subscriber: Redis | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly url: string,
    prefix: string,
    private readonly log: Log,
  ) {
    this.channel = `${prefix}link-changes`;
    // Connected on first publish, so a CLI command that changes no link opens no connection.
    this.publisher = connectRedis(url, 'publisher', log, { lazyConnect: true });
  }

  publish(domain: string, key: string): void {
    const message: ChangeMessage = { o: this.origin, d: domain, k: key };
    const sent = this.publisher.publish(this.channel, JSON.stringify(message)).catch((err: unknown) => {
      // Missed notices are picked up by the link_changes poll.
      this.log.warn({ err, domain, key }, 'link change not published to redis; other instances will see it by polling');
    });
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  async subscribe(onChange: (domain: string, key: string) => void): Promise<void> {
    // A subscribed connection can do nothing else, hence a second one. ioredis
    // subscribes again by itself after every reconnect.
    // It waits for Redis as long as it takes (maxRetriesPerRequest: null), so an instance
    // that started while Redis was down subscribes once Redis is back.
    this.subscriber ??= connectRedis(this.url, 'subscriber', this.log, { maxRetriesPerRequest: null });
    const subscriber = this.subscriber;
    subscriber.on('message', (channel: string, raw: string) => {
      if (channel !== this.channel) return;
      const message = parse(raw);
      if (message && message.o !== this.origin) onChange(message.d, message.k);
    });
    const subscribed = subscriber.subscribe(this.channel).then(
      () => true,
      (err: unknown) => {
        this.log.warn({ err }, 'redis subscribe failed; relying on the link_changes poll until it reconnects');
        return true;
      },
    );
    const ready = await Promise.race([subscribed, delay(SUBSCRIBE_WAIT_MS).then(() => false)]);
    if (!ready) this.log.warn({}, 'redis not reachable yet; relying on the link_changes poll until it is');
  }

  async close(): Promise<void> {
    await Promise.race([Promise.allSettled([...this.inFlight]), delay(CLOSE_WAIT_MS)]);
    await Promise.all([closeRedis(this.publisher), this.subscriber ? closeRedis(this.subscriber) : undefined]);
  }
}

function parse(raw: string): ChangeMessage | undefined {
  try {
    const value = JSON.parse(raw) as Partial<ChangeMessage>;
    if (typeof value.o === 'string' && typeof value.d === 'string' && typeof value.k === 'string') return value as ChangeMessage;
  } catch {
    // Not ours; ignore.
  }
  return undefined;
}
