import type { DomainStore, StoredDomain } from '../storage/stores/domains.js';

/**
 * The domains table as the checks every shorten makes read it: whole, at most every
 * CHANGE_POLL_MS, so a domain added or verified on another instance (or with the CLI) counts
 * here within that.
 */
export class StoredDomains {
  private stored: { readonly at: number; readonly byHost: Map<string, StoredDomain> } | undefined;
  private loading: Promise<Map<string, StoredDomain>> | undefined;
  /** Bumped by every change made here, so a read of the table begun before it is not kept. */
  private version = 0;

  constructor(
    private readonly store: Pick<DomainStore, 'all' | 'byHostname'>,
    private readonly maxAgeMs: number,
  ) {}

  /** Every stored domain by name, from a read at most maxAgeMs old. */
  byHost(): Promise<Map<string, StoredDomain>> | Map<string, StoredDomain> {
    if (this.stored && Date.now() - this.stored.at < this.maxAgeMs) return this.stored.byHost;
    if (this.loading) return this.loading;
    const loading = this.load().finally(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    this.loading = loading;
    return loading;
  }

  /** A stored domain by name: from the periodic read, else (added since) from the table. */
  async one(hostname: string): Promise<StoredDomain | undefined> {
    return (await this.byHost()).get(hostname) ?? (await this.store.byHostname(hostname));
  }

  /** After a change made here: the copy is dropped, and a read begun before is not kept. */
  forget(): void {
    this.version++;
    this.stored = undefined;
    this.loading = undefined;
  }

  private async load(): Promise<Map<string, StoredDomain>> {
    const at = Date.now();
    const version = this.version;
    const byHost = new Map((await this.store.all()).map((domain) => [domain.hostname, domain]));
    if (version === this.version) this.stored = { at, byHost };
    return byHost;
  }
}
