// The clicks time series' calendar: what a `range` covers in a time zone, and its buckets.
// Node 20 has no Temporal, so wall-clock times come from Intl (the ICU time-zone data Node ships).

export const RANGES = ['24h', '1d', '3d', '7d', '14d', '30d', '60d', '1m'] as const;
export type Range = (typeof RANGES)[number];
export const GRANULARITIES = ['day', 'hour'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

const MINUTE = 60_000;
export const QUARTER_HOUR = 15 * MINUTE;
const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** The instant rounded down to a whole number of `unit` milliseconds since the epoch (UTC quarter hours, days). */
export const floorTo = (instant: number, unit: number): number => instant - (((instant % unit) + unit) % unit);

/** The instant rounded up to a whole number of `unit` milliseconds since the epoch. */
export const ceilTo = (instant: number, unit: number): number => floorTo(instant + unit - 1, unit);

/** One point of the series: its label and the instants [start, end) it counts. */
interface Bucket {
  readonly label: string;
  readonly start: number;
  readonly end: number;
}

/** A range as instants [start, end), cut into buckets that cover it exactly, in order. */
interface Series {
  readonly start: number;
  readonly end: number;
  readonly buckets: readonly Bucket[];
}

/**
 * A time zone by its IANA name, with what the series needs of it. A "wall" time is the
 * zone's clock reading written as if it were UTC: epoch milliseconds whose UTC fields are
 * the local ones, so calendar arithmetic on it needs no zone rules.
 */
export class TimeZone {
  private constructor(
    readonly name: string,
    private readonly format: Intl.DateTimeFormat,
  ) {}

  private static readonly known = new Map<string, TimeZone>();

  /** The zone, or undefined when Intl does not know the name. */
  static named(name: string): TimeZone | undefined {
    const cached = TimeZone.known.get(name);
    if (cached) return cached;
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: name,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      return undefined;
    }
    // A handful of zones are ever asked for; the bound only keeps a caller from growing the map.
    if (TimeZone.known.size >= 500) TimeZone.known.clear();
    const zone = new TimeZone(name, format);
    TimeZone.known.set(name, zone);
    return zone;
  }

  /** The wall time at an instant (to the second). */
  wall(instant: number): number {
    const fields: Record<string, number> = {};
    for (const part of this.format.formatToParts(instant)) {
      if (part.type !== 'literal') fields[part.type] = Number(part.value);
    }
    const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = fields;
    return Date.UTC(year, month - 1, day, hour, minute, second);
  }

  /** The zone's offset from UTC at an instant, in milliseconds (positive east of Greenwich). */
  offset(instant: number): number {
    return this.wall(instant) - Math.floor(instant / 1000) * 1000;
  }

  /**
   * The first instant whose wall time is `wall` or later: the instant itself when the wall
   * time occurs once, the earlier one when it occurs twice (clocks set back), and the end of
   * the gap when it never occurs (clocks set forward past it).
   */
  instantOf(wall: number): number {
    // Offsets lie within -12 h and +14 h, so the instant lies within these bounds, and a zone
    // changes its offset at most once in a day: the two ends' offsets are the only candidates.
    const early = wall - this.offset(wall - 14 * HOUR);
    const late = wall - this.offset(wall + 12 * HOUR);
    const valid = [early, late].filter((instant) => this.wall(instant) === wall);
    if (valid.length > 0) return Math.min(...valid);
    // In a gap: the transition lies between the two candidates; find it to the millisecond.
    let lo = Math.min(early, late);
    let hi = Math.max(early, late);
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.wall(mid) >= wall) hi = mid;
      else lo = mid;
    }
    return hi;
  }
}

/**
 * The instants a range covers, at `now`, in the zone (decided in the README, "Analytics"):
 * - `24h`: the last 24 whole hours, the current one included: [start of this hour − 23 h, start of the next hour);
 * - `Nd`: the last N calendar days, today included: [midnight N − 1 days ago, next midnight);
 * - `1m`: the calendar month up to tomorrow: [tomorrow's date one month earlier (clamped to that month's last day), next midnight).
 * The end is in the future: the current hour or day is counted so far.
 */
export function rangeAt(range: Range, zone: TimeZone, now: number): { start: number; end: number } {
  const second = Math.floor(now / 1000) * 1000;
  const wallNow = zone.wall(second);
  if (range === '24h') {
    const end = second - (wallNow % HOUR) + HOUR;
    return { start: end - 24 * HOUR, end };
  }
  const today = wallNow - (wallNow % DAY);
  const tomorrow = today + DAY;
  const end = zone.instantOf(tomorrow);
  if (range === '1m') {
    const next = new Date(tomorrow);
    const year = next.getUTCFullYear();
    const month = next.getUTCMonth() - 1;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    return { start: zone.instantOf(Date.UTC(year, month, Math.min(next.getUTCDate(), lastDay))), end };
  }
  const days = Number(range.slice(0, -1));
  return { start: zone.instantOf(today - (days - 1) * DAY), end };
}

/**
 * The range's buckets: calendar days of the zone, labelled `YYYY-MM-DD`, or hours labelled
 * with the zone's wall time and offset (`2026-11-15T13:00:00+01:00`: unique even on the night
 * clocks are set back). A day bucket that the range only partly covers (`24h` by day) counts
 * only the covered part.
 */
export function seriesOf(range: Range, granularity: Granularity, zone: TimeZone, now: number): Series {
  const { start, end } = rangeAt(range, zone, now);
  return seriesBetween(start, end, granularity, zone);
}

/** The buckets of any [start, end) (a custom range): hours from `start`, or the zone's days, the first and last cut to the range. */
export function seriesBetween(start: number, end: number, granularity: Granularity, zone: TimeZone): Series {
  const buckets: Bucket[] = [];
  if (granularity === 'hour') {
    for (let at = start; at < end; at += HOUR) buckets.push({ label: hourLabel(zone, at), start: at, end: Math.min(at + HOUR, end) });
  } else {
    const first = zone.wall(start);
    for (let day = first - (first % DAY); ; day += DAY) {
      const from = Math.max(zone.instantOf(day), start);
      if (from >= end) break;
      buckets.push({ label: new Date(day).toISOString().slice(0, 10), start: from, end: Math.min(zone.instantOf(day + DAY), end) });
    }
  }
  return { start, end, buckets };
}

/** The index of the bucket holding an instant of the series' range, or -1. */
export function bucketIndex(series: Series, instant: number): number {
  const { buckets } = series;
  let lo = 0;
  let hi = buckets.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const bucket = buckets[mid]!;
    if (instant < bucket.start) hi = mid - 1;
    else if (instant >= bucket.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

function hourLabel(zone: TimeZone, instant: number): string {
  const wall = zone.wall(instant);
  const offsetMinutes = Math.round(zone.offset(instant) / MINUTE);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${new Date(wall).toISOString().slice(0, 19)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
