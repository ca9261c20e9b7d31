/**
 * Tells the other instances that what a short URL resolves to has changed, so they drop
 * it from their redirect caches. Best-effort and fast: the link_changes table, polled by
 * every instance (links/link-change-feed.ts), is the guarantee behind it.
 */
export interface ChangeBus {
  /** Fire and forget; never throws. */
  publish(domain: string, key: string): void;
  /** Calls `onChange` for changes published by other processes. Resolves once listening (or given up waiting). */
  subscribe(onChange: (domain: string, key: string) => void): Promise<void>;
  /** Waits briefly for publishes still in flight, then disconnects. */
  close(): Promise<void>;
}

/** One process, nobody to tell: the in-process cache is invalidated directly by its owner. */
export class LocalChangeBus implements ChangeBus {
  publish(): void {}
  async subscribe(): Promise<void> {}
  async close(): Promise<void> {}
}
