// The contract of the files domains serve under `/.well-known/` for app links (decision 0042): bodies by domain and
// file name. Which names exist and what a body must be is the domains feature's (domains/well-known-files.ts).

export interface WellKnownFile {
  /** host[:port], lower-case. */
  readonly domain: string;
  readonly name: string;
  /** As uploaded, byte for byte (UTF-8). */
  readonly body: string;
  /** Epoch milliseconds. */
  readonly updatedAt: number;
}

/** What a list shows of a file: everything but its body. */
export type WellKnownEntry = Omit<WellKnownFile, 'body'> & { readonly bytes: number };

export interface WellKnownStore {
  get(domain: string, name: string): Promise<WellKnownFile | undefined>;
  /** A domain's files, by name. */
  list(domain: string): Promise<WellKnownEntry[]>;
  /** Stores a file, replacing the domain's file of that name. */
  put(domain: string, name: string, body: string): Promise<WellKnownFile>;
  /** false when the domain had no such file. */
  remove(domain: string, name: string): Promise<boolean>;
}
