import type { FastifyBaseLogger } from 'fastify';
import { recordLinkChange, type LinkChangeSink } from '../links/link-changes.js';
import { LocalChangeBus, type ChangeBus } from '../shared-state/change-bus.js';
import type { Database } from '../storage/database.js';
import type { RedirectCache } from './redirect-cache.js';

// PostgreSQL may commit ids out of order; rows this far below the newest one seen are
// read again so a late commit is not skipped.
const LOOKBACK_IDS = 100;
const KEEP_CHANGES_MS = 3_600_000;

/**
 * Keeps this instance's redirect cache in step with link changes made anywhere: by
 * this instance (announce), by other instances and by the CLI. Notices arrive over the
 * change bus (Redis pub/sub, within milliseconds) when there is one; the link_changes
 * table, polled, is the fallback that also catches notices the bus lost. Works on
 * SQLite and PostgreSQL with nothing else running.
 */
export class ChangeFeed implements LinkChangeSink {
  private lastId = 0;
  private readonly seen = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private polls = 0;
  private polling = false;

  constructor(
    private readonly database: Database,
    private readonly cache: RedirectCache,
    private readonly log: FastifyBaseLogger,
    private readonly bus: ChangeBus = new LocalChangeBus(),
  ) {}

  record = recordLinkChange;

  /** After a commit: drop the entry here, and tell the other instances (creations too, for their negative entries). */
  announce(domain: string, key: string): void {
    this.cache.invalidate(domain, key);
    this.bus.publish(domain, key);
  }

  async start(intervalMs: number): Promise<void> {
    const newest = await this.database.db
      .selectFrom('link_changes')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    this.lastId = Number(newest?.id ?? 0);
    await this.bus.subscribe((domain, key) => this.cache.invalidate(domain, key));
    this.timer = setInterval(() => void this.pollOnce(), intervalMs);
    this.timer.unref();
  }

  /** One poll at a time: while the database is slow or down, ticks are skipped, not stacked. */
  private async pollOnce(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      await this.poll();
    } catch (err) {
      this.log.warn({ err }, 'change feed poll failed; will retry');
    } finally {
      this.polling = false;
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async poll(): Promise<void> {
    const rows = await this.database.db
      .selectFrom('link_changes')
      .select(['id', 'domain', 'key'])
      .where('id', '>', this.lastId - LOOKBACK_IDS)
      .orderBy('id')
      .limit(10_000)
      .execute();
    for (const row of rows) {
      if (this.seen.has(row.id)) continue;
      this.seen.add(row.id);
      this.cache.invalidate(row.domain, row.key);
      if (row.id > this.lastId) this.lastId = row.id;
    }
    for (const id of this.seen) if (id <= this.lastId - LOOKBACK_IDS) this.seen.delete(id);
    if (++this.polls % 600 === 0) await this.prune();
  }

  private async prune(): Promise<void> {
    await this.database.db.deleteFrom('link_changes').where('created_at', '<', Date.now() - KEEP_CHANGES_MS).execute();
  }
}
