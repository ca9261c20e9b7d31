// The click counters' contract (decision 0004): clicks added to links' counts in numbered batches.

/**
 * A chunk numbered by its writer (a random id per process, numbers rising by one). The
 * number is recorded with the clicks in one transaction, so a batch retried after an
 * unclear failure is applied at most once (migrations/0002-click-writers.ts).
 */
export interface ClickBatch {
  readonly writer: string;
  readonly seq: number;
  readonly clicks: ReadonlyArray<readonly [linkId: number, clicks: number]>;
}

export interface ClickStore {
  /**
   * Adds clicks to links, additively (any number of instances can do it at once), and at
   * most once per batch number of a writer (a retry after an unclear failure is safe).
   */
  add(batch: ClickBatch): Promise<void>;
}
