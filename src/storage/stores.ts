// What the features see of storage: one store per aggregate, with records in the
// features' terms. Both dialects stand behind each interface; nothing outside storage/
// writes SQL or touches a driver (the dependency rules in .dependency-cruiser.cjs check it).

export type LinkStatus = 'public' | 'blocked';

export interface LinkRecord {
  /** Also the link's `tally`. */
  readonly id: number;
  /** Generated code, unique across all links ever made (deleted ones included). */
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
}

/** A link to create; the store draws its code. */
export interface NewLink {
  readonly accountId: number;
  readonly domain: string;
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
}

/** What an edit changes; absent fields stay as they are, null clears. */
export interface LinkChanges {
  readonly url?: { readonly href: string; readonly hash: Buffer };
  readonly comment?: string | null;
  readonly passwordHash?: string | null;
  readonly expiresAt?: number | null;
  /** Turning it off also takes the link out of dedupe. */
  readonly forwardQuery?: boolean;
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
   * Inserts a link under a code from `drawCode`, drawing again while codes collide, in one
   * durable write. The unique indexes decide races; see CreateOutcome.
   */
  create(link: NewLink, drawCode: () => string): Promise<CreateOutcome>;
  /**
   * Many links, each as create() makes it, in their order, in one durable write: an outcome
   * per link, in the same order (a later link sees the earlier ones, as a dedupe or a taken
   * slug). A database failure fails them all.
   */
  createMany(links: readonly NewLink[], drawCode: (index: number) => string): Promise<CreateOutcome[]>;
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
  /** An account's live links, newest first, with their clicks, and how many there are. */
  /** The account's live links, newest first; `search` (when not empty) keeps those with it in their key, URL or comment. */
  listByAccount(accountId: number, offset: number, limit: number, search?: string): Promise<{ total: number; links: CountedLink[] }>;
  /** How many live links a domain has. */
  countLive(domain: string): Promise<number>;
  /** The account's links among these ids, deleted ones included (analytics name the links clicks went to). */
  findByIds(accountId: number, ids: readonly number[]): Promise<LinkRecord[]>;
  /** The clicks counted for a link so far (flushed ones). */
  clicksOf(linkId: number): Promise<number>;
}

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

/**
 * One counted visit as analytics keeps it: what was learnt of the visitor, never an address.
 * Null where unknown, not recorded (ANALYTICS=minimal) or refused (DNT / Sec-GPC).
 */
export interface ClickEvent {
  /** Epoch milliseconds. */
  readonly time: number;
  readonly linkId: number;
  /** The crawler's or link-preview fetcher's name; null for a person. */
  readonly bot: string | null;
  readonly browser: string | null;
  /** The browser's major version. */
  readonly browserVersion: string | null;
  readonly os: string | null;
  /** mobile, tablet, console, smarttv, wearable, embedded or desktop. */
  readonly deviceType: string | null;
  readonly deviceVendor: string | null;
  /** The first Accept-Language tag, lower-case (`en-gb`). */
  readonly language: string | null;
  readonly referrerHost: string | null;
  /** ISO 3166-1 alpha-2. */
  readonly country: string | null;
  readonly city: string | null;
  /** Visits this event stands for: identical ones within the same second are one event. */
  readonly clicks: number;
}

/** Events numbered by their writer, like a ClickBatch: applied at most once per writer and number. */
export interface ClickEventBatch {
  readonly writer: string;
  readonly seq: number;
  readonly events: readonly ClickEvent[];
}

/** Which clicks to count: one account's (a workspace's), optionally one link's, in [from, to). */
export interface ClickCountQuery {
  readonly accountId: number;
  readonly linkId?: number;
  readonly from: number;
  readonly to: number;
  /**
   * The start of a UTC day: the workspace's quarter-hour figures and raw events are kept from
   * here on (ANALYTICS_RETENTION_DAYS); before it, only whole days are known.
   */
  readonly detailFrom: number;
}

/** Clicks in the slot of time that starts at `start` (epoch ms). */
export interface ClickSlot {
  readonly start: number;
  readonly clicks: number;
}

/**
 * The columns a top list can group by: a fixed set, so no text of a request ever reaches the SQL.
 * `bot` counts bots' visits only; every other column counts people's only.
 */
export const TOP_COLUMNS = [
  'browser',
  'device_type',
  'link_id',
  'bot',
  'device_vendor',
  'os',
  'country',
  'referrer_host',
  'language',
  'city',
] as const;
export type TopColumn = (typeof TOP_COLUMNS)[number];

/** Clicks on one value of a column (never null: null values are left out). */
export interface TopCount {
  readonly value: string;
  readonly clicks: number;
}

export interface AnalyticsStore {
  /** Stores events with their link's account (any number of instances at once), at most once per batch number of a writer. */
  add(batch: ClickEventBatch): Promise<void>;
  /**
   * Clicks by people (bots excluded) per quarter hour (UTC), and per UTC day before `detailFrom`;
   * slots without clicks are left out.
   */
  humanClicksBySlot(query: ClickCountQuery): Promise<ClickSlot[]>;
  /**
   * Clicks per non-null value of the column (people's; bots' only for `bot`), most clicked first, then by value
   * (text by code point; link ids by number), at most `limit` (all without it).
   */
  topCounts(query: ClickCountQuery, column: TopColumn, limit?: number): Promise<TopCount[]>;
  /** The most clicked `browser_version` of each of these browsers (people's clicks); ties go to the lowest version text. */
  topBrowserVersions(query: ClickCountQuery, browsers: readonly string[]): Promise<Map<string, string>>;
  /**
   * Retention: events before `cutoff` (the start of a UTC day) become their links' day figures
   * and are deleted, and so are the workspaces' quarter-hour figures before it; day figures stay.
   */
  expire(cutoff: number): Promise<void>;
}

export interface AccountRecord {
  readonly id: number;
  readonly name: string;
  readonly createdAt: number;
}

export interface TokenRecord {
  readonly id: number;
  readonly accountId: number;
  readonly label: string | null;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly revokedAt: number | null;
}

export interface AccountStore {
  /** A new account, or undefined when the name is taken. */
  create(name: string): Promise<AccountRecord | undefined>;
  byName(name: string): Promise<AccountRecord | undefined>;
  list(): Promise<AccountRecord[]>;
  /** Stores a token by its hash (the token itself is never stored). */
  addToken(token: { accountId: number; hash: string; label: string | null; expiresAt: number | null }): Promise<TokenRecord>;
  tokensOf(accountId: number): Promise<TokenRecord[]>;
  /** Revokes a live token; false when there is none with this id. */
  revokeToken(id: number): Promise<boolean>;
  /** The owner and expiry of an unrevoked token, by its hash. */
  tokenByHash(hash: string): Promise<{ id: number; accountId: number; expiresAt: number | null } | undefined>;
}

export interface DomainRecord {
  readonly hostname: string;
  readonly urlPrefix: string;
  /** null for a public domain; the owner for a private one. */
  readonly accountId: number | null;
}

/** A stored domain's own settings; null: the default. */
export interface DomainSettings {
  /** Length of codes generated on the domain. */
  readonly codeLength: number | null;
  /** Where the bare domain (`/`) redirects. */
  readonly homeRedirectUrl: string | null;
  /** Where unknown keys on the domain redirect, instead of the 404 page. */
  readonly notFoundRedirectUrl: string | null;
}

/** Whether a domain's control is proven (decision 0019). */
export interface DomainVerification {
  /** When it was verified (or added by an administrator); null: an unverified claim. */
  readonly verifiedAt: number | null;
  /** The value its `_brief-verify` TXT record must hold; null for domains an administrator added. */
  readonly verificationToken: string | null;
}

export type StoredDomain = DomainRecord & DomainSettings & DomainVerification;

/** A domain to add: verified (an administrator's) or a claim waiting for its token. */
export type NewDomain = DomainRecord & Partial<DomainSettings> & DomainVerification;

export interface DomainStore {
  all(): Promise<StoredDomain[]>;
  byHostname(hostname: string): Promise<StoredDomain | undefined>;
  /** Public domains and, when given, one account's private ones. */
  usableBy(accountId: number | undefined): Promise<StoredDomain[]>;
  /** Every domain with its owner's name, by hostname. */
  allWithOwners(): Promise<Array<StoredDomain & { owner: string | null }>>;
  /**
   * 'taken' when the hostname is; 'limit' when `maxOfAccount` is given and the owner has that
   * many domains already (counted in the same write as the insert, so racing claims cannot pass it).
   */
  add(domain: NewDomain, maxOfAccount?: number): Promise<'added' | 'taken' | 'limit'>;
  /** Changes a domain's settings; false when there is no such domain. */
  updateSettings(hostname: string, settings: Partial<DomainSettings>): Promise<boolean>;
  /** Marks a domain verified now, unless it is already; false when there is no such domain. */
  markVerified(hostname: string): Promise<boolean>;
  /** false when there was no such domain. */
  remove(hostname: string): Promise<boolean>;
  /**
   * Removes a domain and, in the same write, marks its live links deleted (recording each in the
   * change feed): the keys of the links it deleted, or undefined when there was no such domain.
   */
  removeWithLinks(hostname: string): Promise<string[] | undefined>;
}

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
