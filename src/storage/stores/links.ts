// The links' contract: what the features see of links, in their terms (decision 0004). Both
// dialects stand behind it; only src/storage/ writes SQL.

import type { TagFilter } from './tags.js';

export type LinkStatus = 'public' | 'blocked';

/** First path segments that belong to Brief itself (now or on the roadmap), never to a link: no code is ever one. */
// biome-ignore format: a list of words reads best as lines of words
export const RESERVED_KEYS: ReadonlySet<string> = new Set([
  'v1', 'v2', 'v3', 'api', 'admin', 'health', 'healthz', 'ready', 'readyz', 'live', 'livez', 'metrics',
  'docs', 'openapi', 'swagger', 'static', 'assets', 'public', 'login', 'logout', 'qr', 'stats', 'app', 'auth',
]);

/**
 * A link's redirect rule as stored: the shape of `Rule` (src/redirect/rules/rule-types.ts), which storage cannot
 * import; the links feature checks rules before they are stored, so what is read back is a Rule.
 */
export interface StoredRule {
  readonly url?: string;
  readonly split?: ReadonlyArray<{ readonly url: string; readonly weight: number }>;
  readonly conditions: ReadonlyArray<{ readonly type: string; readonly key?: string; readonly value?: string }>;
}

/** A link's card for social apps' preview fetchers (decision 0041): a title at least; Brief never fetches the image. */
export interface StoredPreview {
  readonly title: string;
  readonly description: string | null;
  /** An https URL. */
  readonly image: string | null;
}

export interface LinkRecord {
  /** Also the link's `tally`. */
  readonly id: number;
  /**
   * Generated code, unique across all links ever made (deleted ones included): made from the id
   * by a keyed permutation (decision 0026), or drawn at random for links made before.
   */
  readonly code: string;
  /** host[:port] of the short domain. */
  readonly domain: string;
  /** The path segment that redirects: the slug when there is one, else the code. */
  readonly key: string;
  readonly slug: string | null;
  readonly url: string;
  readonly title: string | null;
  readonly accountId: number;
  readonly status: LinkStatus;
  /** Epoch milliseconds, like every time in storage. */
  readonly createdAt: number;
  readonly deletedAt: number | null;
  readonly comment: string | null;
  /** scrypt hash of the link's password; null: none. */
  readonly passwordHash: string | null;
  /** After this the link answers 410; null: never. */
  readonly expiresAt: number | null;
  readonly updatedAt: number | null;
  /** In the dedupe index: the account's one slug-less link to its URL on its domain. */
  readonly reusable: boolean;
  /** Its redirect adds a visitor's query string to the destination's (decision 0015); v3's `forwardQuery`. */
  readonly forwardQuery: boolean;
  /** Its redirect rules, in order; empty when it has none. */
  readonly rules: readonly StoredRule[];
  /** Past this many counted visits (bots excluded) it answers 410; null: no limit. */
  readonly maxVisits: number | null;
  /** The card preview fetchers get; null: none (they get the redirect). */
  readonly preview: StoredPreview | null;
}

/** A link to create; the store makes its code from its id. */
export interface NewLink {
  readonly accountId: number;
  readonly domain: string;
  /** Characters of its code: the domain's length (more only once ids outgrow 62^length). */
  readonly codeLength: number;
  readonly slug: string | null;
  readonly url: string;
  /** SHA-256 of url: the dedupe index covers it instead of the (up to 8 KB) url. */
  readonly urlHash: Buffer;
  readonly title: string | null;
  readonly comment: string | null;
  readonly passwordHash: string | null;
  readonly expiresAt: number | null;
  /**
   * May be the account's dedupe link to the URL: a slug-less link without a password or an
   * expiry. The first such link to a URL is; later ones made with reuseExisting false are not.
   */
  readonly reusable: boolean;
  /** Return the account's dedupe link to the URL, when there is one, instead of making a new link. */
  readonly reuseExisting: boolean;
  readonly forwardQuery: boolean;
  /** Empty: none. */
  readonly rules: readonly StoredRule[];
  /** null: no visit limit. */
  readonly maxVisits: number | null;
  /** null: no card for preview fetchers. */
  readonly preview: StoredPreview | null;
}

/** What an edit changes; absent fields stay as they are, null clears. */
export interface LinkChanges {
  readonly url?: { readonly href: string; readonly hash: Buffer };
  readonly comment?: string | null;
  readonly passwordHash?: string | null;
  readonly expiresAt?: number | null;
  /** Turning it off also takes the link out of dedupe. */
  readonly forwardQuery?: boolean;
  /** The link's rules, replacing the ones it had; empty removes them. Rules take the link out of dedupe. */
  readonly rules?: readonly StoredRule[];
  /** The link's visit limit; null removes it. A limit takes the link out of dedupe. */
  readonly maxVisits?: number | null;
  /** The link's tags (checked names), replacing the ones it had; empty removes them. */
  readonly tags?: readonly string[];
  /** The link's card for preview fetchers, replacing the one it had; null removes it. */
  readonly preview?: StoredPreview | null;
}

/** A link with the clicks counted for it so far. */
export interface CountedLink {
  readonly link: LinkRecord;
  readonly clicks: number;
}

/**
 * What an insert came to when a unique index said no to the first try:
 * - created: a new link;
 * - duplicate: the account's live dedupe link to the same URL on the domain (only with reuseExisting);
 * - slugTaken: the link (live or deleted, anyone's) that holds the requested slug.
 */
export type CreateOutcome = { readonly created: LinkRecord } | { readonly duplicate: LinkRecord } | { readonly slugTaken: LinkRecord };

/** What a short URL resolves to, as the redirect needs it. */
export interface LinkTarget {
  readonly id: number;
  readonly url: string;
  readonly blocked: boolean;
  /** Only on links with a password or an expiry: most targets have no such property at all. */
  readonly guard?: LinkGuard;
  /** Only on links that do not forward a visitor's query string (v3 `forwardQuery: false`): absent on the rest. */
  readonly forwardQuery?: false;
  /** Only on links with redirect rules (never empty): absent on the rest. */
  readonly rules?: readonly StoredRule[];
  /** Only on links with a visit limit: absent on the rest. */
  readonly visitLimit?: VisitLimit;
  /** Only on links with a card for preview fetchers: absent on the rest. */
  readonly preview?: StoredPreview;
}

/** A link's visit limit, and the visits counted against it when the target was read. */
export interface VisitLimit {
  readonly max: number;
  readonly counted: number;
}

/** What stands between a visitor and the destination of a guarded link. */
export interface LinkGuard {
  readonly passwordHash: string | null;
  readonly expiresAt: number | null;
}

/**
 * Reads that answer without waiting: SQLite files only, on a read-only connection that
 * sees committed rows. The redirect path uses them to stay off the event loop's queue.
 */
export interface SyncLinkReads {
  /** The target of a live link, or null. */
  target(domain: string, key: string): LinkTarget | null;
  /** The highest link id there is (0 with none): how big an index of every link would be. */
  highestId(): number;
  /** Visits up to `limit` live unguarded links, newest first (flat arguments: a million of them load at start). */
  eachNewest(limit: number, visit: (domain: string, key: string, id: number, url: string, blocked: boolean) => void): void;
  /** Gives back the page cache a large scan filled. */
  releaseMemory(): void;
}

export interface LinkStore {
  /** Present on SQLite files only. */
  readonly syncReads: SyncLinkReads | undefined;
  /** The target of a live link, or null. */
  target(domain: string, key: string): Promise<LinkTarget | null>;
  /** The account's live slug-less link to this URL on the domain (the dedupe read, before any write). */
  findDuplicate(accountId: number, domain: string, urlHash: Buffer): Promise<LinkRecord | undefined>;
  /**
   * Inserts a link under the code of its new id, in one durable write. The unique indexes
   * decide races; see CreateOutcome.
   */
  create(link: NewLink): Promise<CreateOutcome>;
  /**
   * Many links, each as create() makes it, in their order, in one durable write: an outcome
   * per link, in the same order (a later link sees the earlier ones, as a dedupe or a taken
   * slug). A database failure fails them all.
   */
  createMany(links: readonly NewLink[]): Promise<CreateOutcome[]>;
  /** A live link by the key it redirects from, optionally only among one account's. */
  findByKey(domain: string, key: string, accountId?: number): Promise<LinkRecord | undefined>;
  /** A live link by its generated code, on one domain or any, optionally only among one account's. */
  findByCode(code: string, domain: string | undefined, accountId?: number): Promise<LinkRecord | undefined>;
  /** Marks a live link deleted and records the change; false when it was not live any more. */
  markDeleted(link: LinkRecord): Promise<boolean>;
  /** Sets a link's status (with the administrator's reason, kept while blocked) and records the change. */
  setStatus(link: LinkRecord, status: LinkStatus, reason?: string | null): Promise<void>;
  /** Why the link was blocked, as the administrator said; null when not said (or not blocked). */
  blockReasonOf(linkId: number): Promise<string | null>;
  /** Applies an edit and records the change; the link as it is now, or undefined when it is not live any more. */
  update(link: LinkRecord, changes: LinkChanges): Promise<LinkRecord | undefined>;
  /**
   * The account's live links, newest first, with their clicks, and how many there are; `search` (when not empty) keeps
   * those with it in their key, URL or comment, `tags` those its filter keeps.
   */
  listByAccount(
    accountId: number,
    offset: number,
    limit: number,
    search?: string,
    tags?: TagFilter,
  ): Promise<{ total: number; links: CountedLink[] }>;
  /** How many live links a domain has. */
  countLive(domain: string): Promise<number>;
  /** The account's links among these ids, deleted ones included (analytics name the links clicks went to). */
  findByIds(accountId: number, ids: readonly number[]): Promise<LinkRecord[]>;
  /** The clicks counted for a link so far (flushed ones). */
  clicksOf(linkId: number): Promise<number>;
}
