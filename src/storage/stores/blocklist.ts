// The destination blocklist's contract (decision 0004).

/** A host on the blocklist, as stored. */
export interface BlockedHost {
  readonly host: string;
  readonly createdAt: number;
}

/** The destination blocklist every instance reads (`brief blocklist`). */
export interface BlocklistStore {
  /** Adds a host; false when it was there already. */
  add(host: string): Promise<boolean>;
  /** Removes a host; false when it was not there. */
  remove(host: string): Promise<boolean>;
  /** Every host, in order. */
  all(): Promise<BlockedHost[]>;
  /** A token that changes whenever the list does: polled, so the list is read again only then. */
  version(): Promise<string>;
}
