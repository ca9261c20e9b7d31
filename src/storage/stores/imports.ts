// `brief import`'s records (decision 0025): a row checked and placed, what became of it, and where it goes.
import type { StoredPreview, StoredRule } from './links.js';

/** A row of an import, checked and placed: what its link will be. */
export interface ImportedLink {
  /** The row's key where it came from (with its domain there): unique within its source. */
  readonly originKey: string;
  readonly accountId: number;
  readonly domain: string;
  /** The key the link keeps; null: it gets a code made from its new id. */
  readonly key: string | null;
  /** The key was a generated code (a Brief export's `isSlug: false`): kept as the link's code when free. */
  readonly keyIsCode: boolean;
  readonly url: string;
  readonly urlHash: Buffer;
  readonly title: string | null;
  readonly comment: string | null;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly status: 'public' | 'blocked';
  /** Clicks counted where it came from: the link starts with them. */
  readonly clicks: number;
  readonly forwardQuery: boolean;
  /** Its redirect rules, checked as the API checks them; empty: none. */
  readonly rules: readonly StoredRule[];
  /** Its visit limit; null: none. */
  readonly maxVisits: number | null;
  /** The visits already counted against that limit where it came from (0 when it has none): `links.limited_visits`. */
  readonly limitedVisits: number;
  /** Its tags' names, checked as the API checks them; empty: none. */
  readonly tags: readonly string[];
  /** Its card for preview fetchers, checked as the API checks it (the image's host not blocked); null: none. */
  readonly preview: StoredPreview | null;
}

/** What became of one row: its new link, already imported by an earlier run, or its key held by another link. */
export type ImportOutcome =
  | { readonly imported: { readonly id: number; readonly domain: string; readonly key: string; readonly slug: string | null } }
  | { readonly skipped: true }
  | { readonly keyTaken: true };

export interface ImportStore {
  /**
   * Writes a batch in one short transaction; outcomes in the batch's order. `dryRun`: the same
   * work, rolled back, so the outcomes say what a real run would do. `codeLength`: the length of
   * the codes made on a domain. `alone`: no other process has the database open, so on SQLite the
   * batches may be written back to back on the background thread (nobody else waits for the lock).
   */
  write(
    source: string,
    links: readonly ImportedLink[],
    codeLength: (domain: string) => number,
    dryRun: boolean,
    alone?: boolean,
  ): Promise<ImportOutcome[]>;
}

/** Where a row's link goes: a kept code (stored, as links from before keep theirs), or a code made from its id with its slug. */
export type Placement = { readonly keptCode: string } | { readonly slug: string | null };

/** The first try, and after a collision on a kept code the next: the code becomes a slug. */
export function placements(link: ImportedLink): Placement[] {
  if (link.key === null) return [{ slug: null }];
  return link.keyIsCode ? [{ keptCode: link.key }, { slug: link.key }] : [{ slug: link.key }];
}
