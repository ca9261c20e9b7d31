import type { Caller } from '../accounts/account-service.js';
import { BriefError } from '../errors.js';
import type { LinkService } from '../links/link-service.js';
import type { AnalyticsStore, TopColumn } from '../storage/stores.js';
import { bucketIndex, type Granularity, type Range, rangeAt, seriesOf, TimeZone } from './time-series.js';

/**
 * Clicks are counted in the store by slots of 15 minutes: every zone's offset today is a
 * whole number of quarter hours, so a slot never straddles two hours or days of any zone.
 */
const SLOT_MS = 15 * 60_000;

export const DEFAULT_TIMEZONE = 'Etc/UTC';

export interface ClicksQuery {
  readonly range: Range;
  readonly granularity: Granularity;
  /** An IANA time zone name. */
  readonly timezone: string;
  /** `domain/slug`: one of the caller's links only. */
  readonly link?: string;
}

/** The dimensions of the top lists, each with the click_events column it groups by (a fixed map: no request text reaches SQL). */
export const TOP_DIMENSIONS = {
  browsers: 'browser',
  'device-types': 'device_type',
  'short-links': 'link_id',
  bots: 'bot',
  'device-vendors': 'device_vendor',
  'operating-systems': 'os',
  countries: 'country',
  referers: 'referrer_host',
  languages: 'language',
  cities: 'city',
} as const satisfies Record<string, TopColumn>;
export type TopDimension = keyof typeof TOP_DIMENSIONS;

export const DEFAULT_TOP_LIMIT = 10;

export interface TopQuery {
  readonly range: Range;
  readonly timezone: string;
  readonly link?: string;
  /** Brief's addition: at most this many entries (1–100; 10 by default, as the spec's service). */
  readonly limit?: number;
}

export interface TopEntry {
  label: string;
  click: number;
  meta?: Record<string, string | number | null>;
}

export interface TopList {
  /** ISO timestamps: the range as [start, end). */
  readonly datetimeRange: [string, string];
  readonly range: Range;
  /** Most clicked first, then by label (code point order). */
  readonly data: TopEntry[];
}

export interface ClickSeries {
  /** ISO timestamps: the range as [start, end). */
  readonly start: string;
  readonly end: string;
  /** Every bucket of the range, in order, zero-filled. */
  readonly data: Array<{ date: string; click: number }>;
}

/** The figures of click analytics, per workspace (an account's), from the events the VisitRecorder wrote. */
export class AnalyticsService {
  constructor(
    private readonly store: AnalyticsStore,
    private readonly links: Pick<LinkService, 'own' | 'shortUrls'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Clicks by people (not bots) per hour or day of the range, in the time zone. */
  async clicks(caller: Caller, query: ClicksQuery): Promise<ClickSeries> {
    const zone = this.zone(query.timezone);
    const linkId = query.link === undefined ? undefined : await this.linkId(caller, query.link);
    const series = seriesOf(query.range, query.granularity, zone, this.now());
    const slots = await this.store.humanClicksBySlot({ accountId: caller.accountId, linkId, from: series.start, to: series.end }, SLOT_MS);
    const counts = series.buckets.map(() => 0);
    for (const { start, clicks } of slots) {
      const at = bucketIndex(series, start);
      if (at >= 0) counts[at]! += clicks;
    }
    return {
      start: new Date(series.start).toISOString(),
      end: new Date(series.end).toISOString(),
      data: series.buckets.map((bucket, i) => ({ date: bucket.label, click: counts[i]! })),
    };
  }

  /**
   * The most clicked values of a dimension in the range: people's clicks, or bots' visits only for `bots`; values
   * not known (null) are left out. `cities` is always empty: there is no city database yet.
   */
  async top(caller: Caller, dimension: TopDimension, query: TopQuery): Promise<TopList> {
    const zone = this.zone(query.timezone);
    const linkId = query.link === undefined ? undefined : await this.linkId(caller, query.link);
    const { start, end } = rangeAt(query.range, zone, this.now());
    const limit = query.limit ?? DEFAULT_TOP_LIMIT;
    const datetimeRange: [string, string] = [new Date(start).toISOString(), new Date(end).toISOString()];
    const result = (data: TopEntry[]): TopList => ({ datetimeRange, range: query.range, data });
    if (dimension === 'cities') return result([]);
    const counts = { accountId: caller.accountId, linkId, from: start, to: end };
    const column = TOP_DIMENSIONS[dimension];
    if (column === 'link_id') {
      // Grouped by id, labelled by short URL: sorted by label here, so every link's count is needed (one per link at most).
      const rows = await this.store.topCounts(counts, column);
      const urls = await this.links.shortUrls(
        caller,
        rows.map((row) => Number(row.value)),
      );
      const entries = rows.flatMap((row) => {
        const label = urls.get(Number(row.value));
        return label === undefined ? [] : [{ label, click: row.clicks }];
      });
      return result(entries.sort(byClicksThenLabel).slice(0, limit));
    }
    const rows = await this.store.topCounts(counts, column, limit);
    const entries: TopEntry[] = rows.map((row) => ({ label: row.value, click: row.clicks }));
    if (column === 'browser') {
      const versions = await this.store.topBrowserVersions(
        counts,
        rows.map((row) => row.value),
      );
      for (const entry of entries) {
        const version = versions.get(entry.label);
        if (version !== undefined) entry.meta = { version };
      }
    }
    return result(entries);
  }

  private zone(name: string): TimeZone {
    const zone = TimeZone.named(name);
    if (!zone) throw BriefError.invalid('timezone', 'timezone', 'The timezone field must be an IANA time zone name, such as Europe/Paris');
    return zone;
  }

  /** The id of the caller's link named `domain/slug` (not found: 404, as any other account's link). */
  private async linkId(caller: Caller, reference: string): Promise<number> {
    const slash = reference.indexOf('/');
    if (slash <= 0 || slash === reference.length - 1) throw BriefError.invalid('link', 'link', 'The link field must be domain/slug');
    const { link } = await this.links.own(caller, reference.slice(0, slash), reference.slice(slash + 1));
    return link.id;
  }
}

function byClicksThenLabel(a: TopEntry, b: TopEntry): number {
  return b.click - a.click || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
}
