// The click analytics' contract (decision 0004): click events as analytics keeps them, and the
// queries on them.
import type { TagFilter } from './tags.js';

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
  /**
   * What a visit of a link with rules took: `rules.N`, `rules.N.split.M` or `url` (decision 0039); null for a link
   * without rules, and where nothing of the visitor is recorded (ANALYTICS=minimal, DNT / Sec-GPC).
   */
  readonly rule: string | null;
  /** Visits this event stands for: identical ones within the same second are one event. */
  readonly clicks: number;
}

/** Events numbered by their writer, like a ClickBatch: applied at most once per writer and number. */
export interface ClickEventBatch {
  readonly writer: string;
  readonly seq: number;
  readonly events: readonly ClickEvent[];
}

/** Which clicks to count: one account's (a workspace's), optionally one link's or those of the links a tag filter keeps, in [from, to). */
export interface ClickCountQuery {
  readonly accountId: number;
  readonly linkId?: number;
  /** Only the links with (or without) these tags now (decision 0040). */
  readonly tags?: TagFilter;
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
 * `bot` counts bots' visits only; every other column counts people's only. `rule` is one link's only: it is
 * not among a workspace's rollups, so it is asked for with a link.
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
  'rule',
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
