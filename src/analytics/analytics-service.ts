import type { Caller } from '../accounts/caller.js';
import { ISO_TIMESTAMP } from '../iso-instants.js';
import type { LinkService } from '../links/link-service.js';
import { tagFilterOf } from '../links/tag-names.js';
import { labelledUrl } from '../redirect/rules/rule-labels.js';
import type { AnalyticsStore, ClickCountQuery, TopColumn, TopCount } from '../storage/stores/analytics.js';
import type { LinkRecord } from '../storage/stores/links.js';
import { ANALYTICS_ERRORS } from './analytics-errors.js';
import type { AnalyticsRetention } from './analytics-retention.js';
import type { ClicksQuery, ClicksResult, RangeName, TopEntry, TopQuery, TopResult } from './schemas.js';
import { bucketIndex, ceilTo, DAY, floorTo, QUARTER_HOUR, rangeAt, seriesBetween, TimeZone } from './time-series.js';

/**
 * Clicks are counted in the store by quarter hours: every zone's offset today is a whole number
 * of quarter hours, so a slot never straddles two hours or days of any zone. A custom range is
 * taken to whole quarter hours (its start rounded down, its end up).
 */
/** A custom range spans at most this; by hour, at most 31 days (744 points). */
const CUSTOM_MAX_MS = 366 * DAY;
const HOURLY_MAX_MS = 31 * DAY;

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
  rules: 'rule',
} as const satisfies Record<string, TopColumn>;
export type TopDimension = keyof typeof TOP_DIMENSIONS;

/** A call's filter by the links' tags. */
type TagFilterQuery = Parameters<typeof tagFilterOf>[0];

/** What the calls take: their query, as validated (defaults filled in), but the workspace, which names the caller. */
type Query<Q> = Omit<Q, 'workspaceId'>;

/** The figures of click analytics, per workspace (an account's), from the events the VisitRecorder wrote. */
export class AnalyticsService {
  constructor(
    private readonly store: AnalyticsStore,
    private readonly links: Pick<LinkService, 'own' | 'shortUrls'>,
    /** Where events and quarter-hour figures are kept from (analytics-retention.ts). */
    private readonly retention: Pick<AnalyticsRetention, 'cutoff'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Clicks by people (not bots) per hour or day of the range, in the time zone. */
  async clicks(caller: Caller, query: Query<ClicksQuery>): Promise<ClicksResult> {
    const zone = this.zone(query.timezone);
    const { start, end } = this.range(query, zone);
    if (query.granularity === 'hour' && end - start > HOURLY_MAX_MS) {
      throw ANALYTICS_ERRORS.hoursTooLong();
    }
    const linkId = query.link === undefined ? undefined : (await this.ownLink(caller, query.link)).id;
    const series = seriesBetween(start, end, query.granularity, zone);
    const slots = await this.store.humanClicksBySlot(this.counting(caller, query, linkId, start, end));
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
   * not known (null) are left out. `cities` is empty unless GEOIP_CITY_DB names a city database. `rules` is one
   * link's only (what its visits took of its rules), so it needs `link`.
   */
  async top(caller: Caller, dimension: TopDimension, query: Query<TopQuery>): Promise<TopResult> {
    const zone = this.zone(query.timezone);
    const { start, end, name } = this.range(query, zone);
    const column = TOP_DIMENSIONS[dimension];
    if (column === 'rule' && query.link === undefined) throw ANALYTICS_ERRORS.linkRequired();
    const link = query.link === undefined ? undefined : await this.ownLink(caller, query.link);
    const datetimeRange: [string, string] = [new Date(start).toISOString(), new Date(end).toISOString()];
    const result = (data: TopEntry[]): TopResult => ({ datetimeRange, range: name, data });
    const counts = this.counting(caller, query, link?.id, start, end);
    if (column === 'link_id') return result(await this.topLinks(caller, counts, query.limit));
    const rows = await this.store.topCounts(counts, column, query.limit);
    if (column === 'rule') return result(rulesTaken(rows, link!));
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

  /**
   * The most clicked links, labelled by short URL, ties in label order. The store gives the most clicked ids
   * first; enough of them are read that the `limit`-th labelled link's ties are all there (a link that no
   * longer resolves has no label and is left out). A first read of a few more than `limit` is nearly always
   * enough, so the cost no longer grows with every link ever clicked in the range (the soak's finding).
   */
  private async topLinks(caller: Caller, counts: ClickCountQuery, limit: number): Promise<TopEntry[]> {
    for (let read = 2 * limit + 16; ; read *= 4) {
      const rows = await this.store.topCounts(counts, 'link_id', read);
      const urls = await this.links.shortUrls(
        caller,
        rows.map((row) => Number(row.value)),
      );
      const entries = rows.flatMap((row) => {
        const label = urls.get(Number(row.value));
        return label === undefined ? [] : [{ label, click: row.clicks }];
      });
      const last = entries[limit - 1];
      if (rows.length < read || (last !== undefined && rows.at(-1)!.clicks < last.click)) return entries.sort(byClicksThenLabel).slice(0, limit);
    }
  }

  /**
   * What the store counts: the range, where its detail ends (before it, only whole UTC days are kept), and the links:
   * one, or those the query's tag filter keeps by their tags now.
   */
  private counting(caller: Caller, query: TagFilterQuery, linkId: number | undefined, from: number, to: number): ClickCountQuery {
    const tags = tagFilterOf(query);
    return { accountId: caller.accountId, linkId, ...(tags && { tags }), from, to, detailFrom: this.retention.cutoff() };
  }

  /** The range's instants: the preset's in the zone, or the custom one to whole quarter hours. */
  private range(query: Query<ClicksQuery> | Query<TopQuery>, zone: TimeZone): { start: number; end: number; name: RangeName } {
    if (query.from === undefined && query.to === undefined) return { ...rangeAt(query.range, zone, this.now()), name: query.range };
    if (query.from === undefined) throw ANALYTICS_ERRORS.fromMissing();
    const from = instant('from', query.from);
    const to = query.to === undefined ? this.now() : instant('to', query.to);
    const start = floorTo(from, QUARTER_HOUR);
    const end = ceilTo(to, QUARTER_HOUR);
    if (end <= start) throw ANALYTICS_ERRORS.notAfterFrom();
    if (end - start > CUSTOM_MAX_MS) throw ANALYTICS_ERRORS.rangeTooLong();
    return { start, end, name: 'custom' };
  }

  private zone(name: string): TimeZone {
    const zone = TimeZone.named(name);
    if (!zone) throw ANALYTICS_ERRORS.timezone();
    return zone;
  }

  /** The caller's link named `domain/slug` (not found: 404, as any other account's link). */
  private async ownLink(caller: Caller, reference: string): Promise<LinkRecord> {
    const slash = reference.indexOf('/');
    if (slash <= 0 || slash === reference.length - 1) throw ANALYTICS_ERRORS.link();
    const { link } = await this.links.own(caller, reference.slice(0, slash), reference.slice(slash + 1));
    return link;
  }
}

/**
 * What a link's visits took of its rules, each with `meta.url`: the url its label names in the link's rules as they
 * are now; none when the label names nothing there any more (the rules were edited since).
 */
function rulesTaken(rows: readonly TopCount[], link: LinkRecord): TopEntry[] {
  return rows.map((row) => {
    const url = labelledUrl(link.rules, link.url, row.value);
    return url === undefined ? { label: row.value, click: row.clicks } : { label: row.value, click: row.clicks, meta: { url } };
  });
}

/** An ISO 8601 timestamp with its offset (or Z), as epoch milliseconds. */
function instant(field: 'from' | 'to', text: string): number {
  const at = ISO_TIMESTAMP.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at) || at < 0) throw ANALYTICS_ERRORS.instant(field);
  return at;
}

function byClicksThenLabel(a: TopEntry, b: TopEntry): number {
  return b.click - a.click || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
}
