/** A weekday as rules write it, Monday first. */
// biome-ignore format: a list of words reads best as a line of words
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** Intl's short English weekday names, by the index of WEEKDAYS. */
const INTL_WEEKDAYS: Readonly<Record<string, number>> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

const MINUTE = 60_000;

/**
 * The wall clock of one IANA time zone: the local weekday and hour at an instant, DST included (Intl's zone
 * rules). Reading Intl costs a few microseconds, so the clock keeps the last minute it read: within a UTC
 * minute a zone's weekday and hour cannot change, as every zone's offset is a whole number of minutes
 * (so they have been everywhere since 1972).
 */
export class ZoneClock {
  private minute = Number.NaN;
  private weekdayIndex = 0;
  private hourOfDay = 0;

  private constructor(
    /** The zone's canonical name (`Europe/Berlin`, whatever case it was written in). */
    readonly zone: string,
    private readonly format: Intl.DateTimeFormat,
  ) {}

  private static readonly clocks = new Map<string, ZoneClock>();

  /** The zone's clock (one per zone, shared), or undefined when Intl knows no zone of that name. */
  static of(zone: string): ZoneClock | undefined {
    const known = ZoneClock.clocks.get(zone);
    if (known !== undefined) return known;
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', weekday: 'short', hour: 'numeric' });
    } catch {
      return undefined;
    }
    const canonical = format.resolvedOptions().timeZone;
    const clock = ZoneClock.clocks.get(canonical) ?? new ZoneClock(canonical, format);
    // Zones are a few hundred, but names in other cases are not: the bound keeps a caller from growing the map.
    if (ZoneClock.clocks.size >= 1000) ZoneClock.clocks.clear();
    ZoneClock.clocks.set(zone, clock);
    ZoneClock.clocks.set(canonical, clock);
    return clock;
  }

  /** The local weekday at an instant, as an index of WEEKDAYS (0 is Monday). */
  weekday(at: number): number {
    this.read(at);
    return this.weekdayIndex;
  }

  /** The local hour at an instant, 0 to 23. */
  hour(at: number): number {
    this.read(at);
    return this.hourOfDay;
  }

  private read(at: number): void {
    const minute = Math.floor(at / MINUTE);
    if (minute === this.minute) return;
    for (const part of this.format.formatToParts(minute * MINUTE)) {
      if (part.type === 'weekday') this.weekdayIndex = INTL_WEEKDAYS[part.value] ?? 0;
      else if (part.type === 'hour') this.hourOfDay = Number(part.value) % 24;
    }
    this.minute = minute;
  }
}
