import { LINK_KEY } from '../links/codes.js';
import type { LinkStore } from '../storage/stores/links.js';
import type { RedirectCache } from './redirect-cache.js';
import type { RedirectTarget, StepContext } from './steps/redirect-step.js';
import { withSteps } from './steps/steps.js';

const MAX_HOST_LENGTH = 300;

/** resolveNow's answer when only an asynchronous read can tell (PostgreSQL, on a cache miss). */
export const ASK_DATABASE = Symbol('ask the database');

/**
 * Domain + key → where to send the visitor: from the cache when possible, else from the store.
 * The domain is lower-case host[:port], as DomainRedirects.domainOf answers it for a request's Host.
 */
export class LinkResolver {
  /** Lookups the cache could not answer, read from the store (GET /metrics); each lookup counts once, here or in the cache. */
  storeReads = 0;

  constructor(
    private readonly store: LinkStore,
    private readonly cache: RedirectCache,
    /** What the steps of the links loaded here read of this instance (the visits counted against limits). */
    private readonly context: StepContext = {},
  ) {}

  /**
   * The answer without waiting: from the cache, else (SQLite) from the store's
   * synchronous read. null when there is no such link (or the key cannot be one). A target read
   * from the store gets its steps here, once, before the cache keeps it.
   */
  resolveNow(domain: string, key: string): RedirectTarget | null | typeof ASK_DATABASE {
    if (!LINK_KEY.test(key) || domain.length > MAX_HOST_LENGTH) return null;
    const cached = this.cache.get(domain, key);
    if (cached !== undefined) return cached;
    const reads = this.store.syncReads;
    if (!reads) return ASK_DATABASE;
    // Synchronous: no change can land between the snapshot and set().
    this.storeReads++;
    const snapshot = this.cache.snapshot();
    const target = withSteps(reads.target(domain, key), this.context);
    this.cache.set(domain, key, target, snapshot);
    return target;
  }

  async resolve(domain: string, key: string): Promise<RedirectTarget | null> {
    const now = this.resolveNow(domain, key);
    if (now !== ASK_DATABASE) return now;
    this.storeReads++;
    const snapshot = this.cache.snapshot();
    const target = withSteps(await this.store.target(domain, key), this.context);
    this.cache.set(domain, key, target, snapshot);
    return target;
  }
}
