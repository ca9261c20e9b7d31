import type { Statement } from 'better-sqlite3';
import { LINK_KEY } from '../links/codes.js';
import type { Database } from '../storage/database.js';
import { LinkIndex } from './link-index.js';
import type { RedirectCache, RedirectTarget } from './redirect-cache.js';

const MAX_HOST_LENGTH = 300;

type LinkRow = { id: number; url: string; status: string };
const toTarget = (row: LinkRow | undefined): RedirectTarget | null => (row ? { id: row.id, url: row.url, blocked: row.status === 'blocked' } : null);

/** Host + key → where to send the visitor, from the cache when possible. */
export class RedirectService {
  private lookup: Statement<[string, string], LinkRow> | undefined | null = null;
  private reserved: LinkIndex | undefined;

  constructor(
    private readonly database: Database,
    private readonly cache: RedirectCache,
  ) {}

  /**
   * The answer without waiting: from the cache, else (SQLite) from a prepared statement
   * on the read-only connection. undefined when only the async path can tell (PostgreSQL).
   */
  resolveNow(host: string, key: string): RedirectTarget | null | undefined {
    if (!LINK_KEY.test(key) || host.length > MAX_HOST_LENGTH) return null;
    const domain = host.toLowerCase();
    const cached = this.cache.get(domain, key);
    if (cached !== undefined) return cached;
    const lookup = this.prepared();
    if (!lookup) return undefined;
    // Synchronous: no change can land between the snapshot and set().
    const snapshot = this.cache.snapshot();
    const target = toTarget(lookup.get(domain, key));
    this.cache.set(domain, key, target, snapshot);
    return target;
  }

  async resolve(host: string, key: string): Promise<RedirectTarget | null> {
    const now = this.resolveNow(host, key);
    if (now !== undefined) return now;
    const domain = host.toLowerCase();
    const snapshot = this.cache.snapshot();
    const row = await this.database.db
      .selectFrom('links')
      .select(['id', 'url', 'status'])
      .where('domain', '=', domain)
      .where('key', '=', key)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const target = toTarget(row);
    this.cache.set(domain, key, target, snapshot);
    return target;
  }

  /**
   * SQLite files only: makes an empty LinkIndex for up to `max` links, sized for the links
   * there are now; loadIndex() fills it. Call it while the app is built: the same
   * million-link index allocated after Fastify's start-up made every request ~20% dearer,
   * hot and cold alike, though nothing else changed (docs/benchmarks.md).
   */
  reserveIndex(max: number): void {
    const reader = this.database.reader;
    if (!reader || max === 0) return;
    const newest = reader.prepare<[], number | null>('select max(id) from links').pluck().get() ?? 0;
    this.reserved = new LinkIndex(max, newest);
  }

  /**
   * Puts the newest live links into the reserved LinkIndex (none: nothing to do) and puts
   * it in front of the cache, so redirects at a million links need no database read.
   * Synchronous, so nothing changes between the read and the switch; call it after the
   * change feed has started, so any change committed after this read is still announced.
   * Returns the links loaded.
   */
  loadIndex(): number {
    const index = this.reserved;
    const reader = this.database.reader;
    if (!index || !reader) return 0;
    this.reserved = undefined;
    const rows = reader
      .prepare<[number], [string, string, number, string, string]>(
        'select domain, key, id, url, status from links where deleted_at is null order by id desc limit ?',
      )
      .raw()
      .iterate(index.max);
    for (const [domain, key, id, url, status] of rows) index.put(domain, key, id, url, status === 'blocked');
    // The scan filled the reader's page cache with table pages that misses will not need.
    reader.pragma('shrink_memory');
    this.cache.useIndex(index);
    return index.size;
  }

  private prepared(): Statement<[string, string], LinkRow> | undefined {
    if (this.lookup === null) {
      this.lookup = this.database.reader?.prepare<[string, string], LinkRow>(
        'select id, url, status from links where domain = ? and key = ? and deleted_at is null',
      );
    }
    return this.lookup;
  }
}
