import { type Kysely, sql } from 'kysely';
import { within } from '../../nested-maps.js';
import type { ClickEvent } from '../stores/analytics.js';
import type { ClickRollupTable, Tables } from '../tables.js';

// The rollups of click events (click_rollups, migration 0005): what each row counts and how rows
// are made from events, once for the writes (rollupRows) and once in SQL from stored events
// (rollUpEvents: retention's per-link day rows). Migrations keep their own frozen copy of the SQL.

export const QUARTER_MS = 15 * 60_000;
export const DAY_MS = 86_400_000;
export const PERIOD_MS = { quarter: QUARTER_MS, day: DAY_MS } as const;
export type RollupPeriod = keyof typeof PERIOD_MS;

/** The event columns counted per value: people's clicks, but `bot` bots' visits only. */
export const VALUE_DIMENSIONS = [
  'bot',
  'browser',
  'os',
  'device_type',
  'device_vendor',
  'language',
  'referrer_host',
  'country',
  'city',
  'link_id',
] as const;

/**
 * The event columns counted per value for one link only: in its day rows (retention), never in the
 * workspace's rows (link_id 0). `rule` (what a visit of a link with rules took) names rules of one link,
 * so it means nothing summed over a workspace.
 */
const LINK_DIMENSIONS = ['rule'] as const;

/**
 * What a rollup row counts: a column's values, people's clicks in all (`clicks`, value ''), or
 * people's clicks per browser and major version (`browser_version`, value `Chrome 120`:
 * a version has no space, so the last space splits the two).
 */
export type RollupDimension = (typeof VALUE_DIMENSIONS)[number] | (typeof LINK_DIMENSIONS)[number] | 'clicks' | 'browser_version';

/** The event fields counted per value, beside `clicks` and the `link_id` and `browser_version` made below. */
const EVENT_FIELDS = [
  ['browser', 'browser'],
  ['os', 'os'],
  ['device_type', 'deviceType'],
  ['device_vendor', 'deviceVendor'],
  ['language', 'language'],
  ['referrer_host', 'referrerHost'],
  ['country', 'country'],
  ['city', 'city'],
] as const satisfies ReadonlyArray<readonly [RollupDimension, keyof ClickEvent]>;

/** One account's clicks in one period: per dimension, per value. */
type PeriodCounts = Map<RollupDimension, Map<string, number>>;

/**
 * The workspace's rollup rows (link_id 0) of a batch of events, each event with its link's account.
 * The quarter-hour rows are counted first, per account and quarter (a batch rarely spans more than
 * one), and each day row is the sum of its quarters' rows: the write path's share of the thread's
 * time, so no key is built per event and value. Without `links`, no rows of the `link_id`
 * dimension: on SQLite those are rolled up from the stored events afterwards (sqlite/link-rollups.ts).
 */
export function rollupRows(events: ReadonlyArray<{ event: ClickEvent; accountId: number }>, { links }: { links: boolean }): ClickRollupTable[] {
  const quarters = new Map<number, Map<number, PeriodCounts>>();
  for (const { event, accountId } of events) {
    const start = event.time - (event.time % QUARTER_MS);
    const counts = within(within(quarters, accountId), start);
    const n = event.clicks;
    if (event.bot !== null) {
      addCount(counts, 'bot', event.bot, n);
      continue;
    }
    addCount(counts, 'clicks', '', n);
    if (links) addCount(counts, 'link_id', String(event.linkId), n);
    for (const [dimension, field] of EVENT_FIELDS) {
      const value = event[field] as string | null;
      if (value !== null) addCount(counts, dimension, value, n);
    }
    if (event.browser !== null && event.browserVersion !== null) addCount(counts, 'browser_version', `${event.browser} ${event.browserVersion}`, n);
  }
  const rows: ClickRollupTable[] = [];
  for (const [accountId, byStart] of quarters) {
    const days = new Map<number, PeriodCounts>();
    for (const [start, counts] of byStart) {
      const day = start - (start % DAY_MS);
      const dayCounts = within(days, day);
      for (const [dimension, values] of counts) {
        for (const [value, clicks] of values) {
          rows.push({ account_id: accountId, link_id: 0, period: 'quarter', start, dimension, value, clicks });
          addCount(dayCounts, dimension, value, clicks);
        }
      }
    }
    for (const [start, counts] of days)
      for (const [dimension, values] of counts)
        for (const [value, clicks] of values) rows.push({ account_id: accountId, link_id: 0, period: 'day', start, dimension, value, clicks });
  }
  return rows;
}

function addCount(counts: PeriodCounts, dimension: RollupDimension, value: string, n: number): void {
  const values = within(counts, dimension);
  values.set(value, (values.get(value) ?? 0) + n);
}

/** The SQL expression of a dimension's value in a click_events row, and the condition for the row to count. */
export function eventValue(dimension: RollupDimension) {
  if (dimension === 'clicks') return { value: sql<string>`''`, counts: sql`bot is null` };
  if (dimension === 'bot') return { value: sql<string>`bot`, counts: sql`bot is not null` };
  if (dimension === 'browser_version')
    return {
      value: sql<string>`browser || ' ' || browser_version`,
      counts: sql`bot is null and browser is not null and browser_version is not null`,
    };
  if (dimension === 'link_id') return { value: sql<string>`cast(link_id as text)`, counts: sql`bot is null` };
  const column = sql.ref(dimension);
  return { value: sql<string>`${column}`, counts: sql`bot is null and ${column} is not null` };
}

/** The dimensions of the workspace's rows (link_id 0). */
export const ALL_DIMENSIONS: readonly RollupDimension[] = ['clicks', 'browser_version', ...VALUE_DIMENSIONS];
/** The dimensions of a link's day rows: the workspace's, and those of one link only. */
const PER_LINK_DIMENSIONS: readonly RollupDimension[] = [...ALL_DIMENSIONS, ...LINK_DIMENSIONS];

/**
 * Adds to click_rollups what the click_events rows in [from, to) count: the workspace's rows
 * (link_id 0, quarter hours and days), or with `perLink` each link's day rows (retention), which
 * also count what a link's visits took of its rules.
 */
export async function rollUpEvents(db: Kysely<Tables>, options: { from?: number; to?: number; accountId?: number; perLink: boolean }): Promise<void> {
  const periods: RollupPeriod[] = options.perLink ? ['day'] : ['quarter', 'day'];
  for (const period of periods) {
    const length = sql.lit(PERIOD_MS[period]);
    const start = sql<number>`time - time % ${length}`;
    for (const dimension of options.perLink ? PER_LINK_DIMENSIONS : ALL_DIMENSIONS) {
      const { value, counts } = eventValue(dimension);
      const link = options.perLink ? sql`link_id` : sql`0`;
      const where = [counts];
      if (options.accountId !== undefined) where.push(sql`account_id = ${options.accountId}`);
      if (options.from !== undefined) where.push(sql`time >= ${options.from}`);
      if (options.to !== undefined) where.push(sql`time < ${options.to}`);
      await sql`
        insert into click_rollups (account_id, link_id, period, dimension, start, value, clicks)
        select account_id, ${link}, ${sql.lit(period)}, ${sql.lit(dimension)}, ${start}, ${value}, sum(clicks)
        from click_events
        where ${sql.join(where, sql` and `)}
        group by ${sql.join([sql`account_id`, ...(options.perLink ? [sql`link_id`] : []), start, ...(dimension === 'clicks' ? [] : [value])])}
        on conflict (account_id, link_id, period, dimension, start, value)
        do update set clicks = click_rollups.clicks + excluded.clicks`.execute(db);
    }
  }
}
