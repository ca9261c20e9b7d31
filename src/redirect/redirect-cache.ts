import { LRUCache } from 'lru-cache';
import { Doorkeeper } from './doorkeeper.js';
import type { LinkIndex } from './link-index.js';

/** What a short URL resolves to, as the redirect needs it. */
export interface RedirectTarget {
  readonly id: number;
  readonly url: string;
  readonly blocked: boolean;
}

// A window of 4M keys is a 4 MB bitset; a larger cache shares it.
const MAX_DOORKEEPER_WINDOW = 4_000_000;

/** A cached "no such link", kept briefly so floods of unknown keys do not reach the database. */
const MISSING: RedirectTarget = Object.freeze({ id: 0, url: '', blocked: false });

/**
 * In-process LRU of host + key → target, bounded in entries and in age. A key enters
 * on its second miss within the doorkeeper's window, not its first. Entries are
 * dropped by invalidate() when a link changes here or on another instance; the age
 * bound caps staleness when a change notice is missed.
 *
 * On SQLite a LinkIndex may stand in front (useIndex): it holds links without age or
 * eviction, because there no change notice can be missed (docs/decisions/0002).
 */
export class RedirectCache {
  private readonly entries: LRUCache<string, RedirectTarget> | undefined;
  private index: LinkIndex | undefined;
  private readonly missingTtlMs: number;
  private readonly doorkeeper: Doorkeeper;
  private generation = 0;

  constructor(options: { max: number; ttlMs: number; missingTtlMs: number }) {
    this.missingTtlMs = options.missingTtlMs;
    // CACHE_SIZE=0 turns the cache off.
    this.entries = options.max > 0 ? new LRUCache({ max: options.max, ttl: options.ttlMs }) : undefined;
    this.doorkeeper = new Doorkeeper(Math.min(Math.max(options.max, 1), MAX_DOORKEEPER_WINDOW));
  }

  /** From now on, links go to the index first, and to the LRU only when it is full. */
  useIndex(index: LinkIndex): void {
    this.index = index;
    this.entries?.clear();
  }

  /** A target, null for a cached miss, undefined when the cache has no answer. */
  get(domain: string, key: string): RedirectTarget | null | undefined {
    const held = this.index?.get(domain, key);
    if (held) return held;
    const entry = this.entries?.get(cacheKey(domain, key));
    return entry === MISSING ? null : entry;
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
    if (target && this.index?.put(domain, key, target.id, target.url, target.blocked)) return;
    if (!this.entries) return;
    // One-hit wonders stay out (see Doorkeeper): they would only evict links that are visited again.
    if (!this.doorkeeper.admit(domain, key)) return;
    if (target) this.entries.set(cacheKey(domain, key), target);
    else this.entries.set(cacheKey(domain, key), MISSING, { ttl: this.missingTtlMs });
  }

  invalidate(domain: string, key: string): void {
    this.generation++;
    this.index?.remove(domain, key);
    this.entries?.delete(cacheKey(domain, key));
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}

function cacheKey(domain: string, key: string): string {
  return `${domain}/${key}`;
}
