import type { Log } from '../log.js';
import { pollEvery } from '../periodic-poll.js';
import { type ChangeBus, LocalChangeBus } from '../shared-state/change-bus.js';
import type { LinkChangeStore } from '../storage/stores/changes.js';

// PostgreSQL may commit ids out of order; rows this far below the newest one seen are
// read again so a late commit is not skipped.
const LOOKBACK_IDS = 100;
const POLL_LIMIT = 10_000;
const KEEP_CHANGES_MS = 3_600_000;
const POLLS_BETWEEN_PRUNES = 600;

export type LinkChangeListener = (domain: string, key: string) => void;

/**
 * Tells this instance's listeners (the redirect's caches) when what a short URL
 * resolves to changes anywhere: here (announce), on other instances and in the CLI.
 * Notices arrive over the change bus (Redis pub/sub, within milliseconds) when there is
 * one; the link_changes table, polled, is the fallback that also catches notices the bus
 * lost. Works on SQLite and PostgreSQL with nothing else running.
 */
export class LinkChangeFeed {
  private readonly listeners: LinkChangeListener[] = [];
  private lastId = 0;
  private readonly seen = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private polls = 0;

  constructor(
    private readonly store: LinkChangeStore,
    private readonly log: Log,
    private readonly bus: ChangeBus = new LocalChangeBus(),
  ) {}

  onChange(listener: LinkChangeListener): void {
    this.listeners.push(listener);
  }

  /** After a commit: tells the listeners here, and the other instances (creations too, for their negative entries). */
  announce(domain: string, key: string): void {
    this.notify(domain, key);
    this.bus.publish(domain, key);
  }

  /** Starts listening to the bus and polling the table; changes committed from now on are heard. */
  async start(intervalMs: number): Promise<void> {
    this.lastId = await this.store.newestId();
    await this.bus.subscribe((domain, key) => this.notify(domain, key));
    this.timer = pollEvery(intervalMs, () => this.poll(), this.log, 'change feed');
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async poll(): Promise<void> {
    const rows = await this.store.since(this.lastId - LOOKBACK_IDS, POLL_LIMIT);
    for (const row of rows) {
      if (this.seen.has(row.id)) continue;
      this.seen.add(row.id);
      this.notify(row.domain, row.key);
      if (row.id > this.lastId) this.lastId = row.id;
    }
    for (const id of this.seen) if (id <= this.lastId - LOOKBACK_IDS) this.seen.delete(id);
    if (++this.polls % POLLS_BETWEEN_PRUNES === 0) await this.store.prune(Date.now() - KEEP_CHANGES_MS);
  }

  private notify(domain: string, key: string): void {
    for (const listener of this.listeners) listener(domain, key);
  }
}
