import type { Caller } from '../accounts/account-service.js';
import { BriefError } from '../errors.js';
import type { LinkService } from '../links/link-service.js';
import type { AnalyticsStore } from '../storage/stores.js';
import { bucketIndex, type Granularity, type Range, seriesOf, TimeZone } from './time-series.js';

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
    private readonly links: Pick<LinkService, 'own'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Clicks by people (not bots) per hour or day of the range, in the time zone. */
  async clicks(caller: Caller, query: ClicksQuery): Promise<ClickSeries> {
    const zone = TimeZone.named(query.timezone);
    if (!zone) throw BriefError.invalid('timezone', 'timezone', 'The timezone field must be an IANA time zone name, such as Europe/Paris');
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

  /** The id of the caller's link named `domain/slug` (not found: 404, as any other account's link). */
  private async linkId(caller: Caller, reference: string): Promise<number> {
    const slash = reference.indexOf('/');
    if (slash <= 0 || slash === reference.length - 1) throw BriefError.invalid('link', 'link', 'The link field must be domain/slug');
    const { link } = await this.links.own(caller, reference.slice(0, slash), reference.slice(slash + 1));
    return link.id;
  }
}
