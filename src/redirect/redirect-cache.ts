import { LRUCache } from 'lru-cache';
import type { SyncLinkReads } from '../storage/stores/links.js';
import type { RedirectTarget } from './steps/redirect-step.js';
import { Doorkeeper } from './structures/doorkeeper.js';
import { LinkIndex } from './structures/link-index.js';

// A window of 4M keys is a 4 MB bitset; a larger cache shares it.
const MAX_DOORKEEPER_WINDOW = 4_000_000;

/** A cached "no such link", kept briefly so floods of unknown keys do not reach the database. */
const MISSING: RedirectTarget = Object.freeze({ id: 0, url: '', blocked: false });

export interface RedirectCacheOptions {
  /** LRU entries; 0 turns the LRU off. */
  max: number;
  ttlMs: number;
  missingTtlMs: number;
  /**
   * SQLite files: a LinkIndex of up to `max` links loaded from `source` by loadIndex()
   * (docs/decisions/0002-in-memory-link-index.md). Omitted, or max 0: no index.
   */
  index?: { max: number; source: SyncLinkReads };
}

/**
 * Host + key → target, in front of the database. Two tiers:
 *
 * - On SQLite, a LinkIndex that this cache alone builds, loads and keeps: it holds links
 *   without age or eviction, because there no change notice can be missed.
 * - An LRU bounded in entries and in age, for links the index does not hold and for
 *   misses. A key enters on its second miss within the doorkeeper's window, not its first.
 *
 * Entries are dropped by invalidate() when a link changes here or on another instance;
 * the LRU's age bound caps staleness when a change notice is missed.
 */
export class RedirectCache {
  private readonly entries: LRUCache<string, RedirectTarget> | undefined;
  private readonly index: LinkIndex | undefined;
  private readonly indexSource: SyncLinkReads | undefined;
  /** True once loadIndex() has filled the index: from then on it is asked first. */
  private indexed = false;
  private readonly missingTtlMs: number;
  private readonly doorkeeper: Doorkeeper;
  private generation = 0;
  /** Lookups answered by the link index, by the LRU with a link, by the LRU with a cached miss (GET /metrics); the resolver counts the rest. */
  indexHits = 0;
  entryHits = 0;
  missingHits = 0;

  constructor(options: RedirectCacheOptions) {
    this.missingTtlMs = options.missingTtlMs;
    this.entries = options.max > 0 ? new LRUCache({ max: options.max, ttl: options.ttlMs }) : undefined;
    this.doorkeeper = new Doorkeeper(Math.min(Math.max(options.max, 1), MAX_DOORKEEPER_WINDOW));
    if (options.index && options.index.max > 0) {
      // Sized for the links there are now, and allocated now, while the app is built: the
      // same million-link index allocated after Fastify's start-up made every request
      // ~20% dearer, hot and cold alike, though nothing else changed (docs/benchmarks.md).
      this.indexSource = options.index.source;
      this.index = new LinkIndex(options.index.max, this.indexSource.highestId());
    }
  }

  /**
   * Puts the newest live links into the index and asks it first from then on, so
   * redirects at a million links need no database read. Synchronous, so nothing changes
   * between the read and the switch; call it once the change feed listens, so a change
   * committed after this read is still announced. Returns the links loaded (0 without an index).
   */
  loadIndex(): number {
    const index = this.index;
    const source = this.indexSource;
    if (!index || !source || this.indexed) return 0;
    source.eachNewest(index.max, (domain, key, id, url, blocked) => index.put(domain, key, id, url, blocked));
    // The scan filled the reader's page cache with table pages that misses will not need.
    source.releaseMemory();
    this.indexed = true;
    this.entries?.clear();
    return index.size;
  }

  /** A target, null for a cached miss, undefined when the cache has no answer. */
  get(domain: string, key: string): RedirectTarget | null | undefined {
    if (this.indexed) {
      const held = this.index!.get(domain, key);
      if (held) {
        this.indexHits++;
        return held;
      }
    }
    const entry = this.entries?.get(cacheKey(domain, key));
    if (entry === undefined) return undefined;
    if (entry === MISSING) {
      this.missingHits++;
      return null;
    }
    this.entryHits++;
    return entry;
  }

  /**
   * A token to hand back to set(): a lookup that raced with an invalidation must not
   * put the value it read before the change into the cache.
   */
  snapshot(): number {
    return this.generation;
  }

  set(domain: string, key: string, target: RedirectTarget | null, snapshot: number): void {
    if (snapshot !== this.generation) return;
    // The index holds plain links only: a link with steps (any per-link option, steps/steps.ts) does not fit its records.
    if (target && target.steps === undefined && this.indexed && this.index!.put(domain, key, target.id, target.url, target.blocked)) return;
    if (!this.entries) return;
    // One-hit wonders stay out (see Doorkeeper): they would only evict links that are visited again.
    if (!this.doorkeeper.admit(domain, key)) return;
    if (target) this.entries.set(cacheKey(domain, key), target);
    else this.entries.set(cacheKey(domain, key), MISSING, { ttl: this.missingTtlMs });
  }

  invalidate(domain: string, key: string): void {
    this.generation++;
    if (this.indexed) this.index!.remove(domain, key);
    this.entries?.delete(cacheKey(domain, key));
  }

  /** Links in the link index (0 without one: PostgreSQL, or LINK_INDEX_MAX=0). */
  get indexSize(): number {
    return this.indexed ? this.index!.size : 0;
  }

  /** Entries in the LRU (the index aside). */
  get size(): number {
    return this.entries?.size ?? 0;
  }
}

function cacheKey(domain: string, key: string): string {
  return `${domain}/${key}`;
}
