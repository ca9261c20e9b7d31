// The link change feed's contract (decision 0004): how instances learn that a short URL changed.

/** A change to what a short URL resolves to, from the link_changes feed. */
export interface LinkChange {
  readonly id: number;
  readonly domain: string;
  readonly key: string;
}

/** The append-only feed of link changes that every instance polls (the store's own writes append to it). */
export interface LinkChangeStore {
  newestId(): Promise<number>;
  /** Changes with an id above `afterId`, oldest first, at most `limit`. */
  since(afterId: number, limit: number): Promise<LinkChange[]>;
  /** Forgets changes recorded before `before` (epoch ms). */
  prune(before: number): Promise<void>;
}
