// The analytics routes' data schemas (docs/api/v3.md, "Analytics"): validation, the types of
// the routes and of AnalyticsService (plain TypeBox data, no HTTP, so the service imports them)
// and, through v3-routes.ts, the API document. The web app imports their types (type-only).
import { type Static, Type } from '@sinclair/typebox';
import { TagFilterQuery } from '../links/v3-schemas.js';
import { withDefaults } from '../query-defaults.js';
import { GRANULARITIES, type Granularity, RANGES, type Range } from './time-series.js';

const DEFAULT_TOP_LIMIT = 10;

/** The response's `range`: the preset asked for, or `custom`. */
export type RangeName = Range | 'custom';

// range, granularity and timezone have defaults: optional for a client, always there for the handler (withDefaults).
const clicksQuery = Type.Object({
  range: Type.Unsafe<Range>({
    type: 'string',
    enum: [...RANGES],
    default: '7d',
    description:
      '`24h`: the last 24 whole hours, the current one included; `Nd`: the last N days of the time zone, today included; ' +
      '`1m`: the days since the same date a month before tomorrow. The current hour or day counts so far.',
  }),
  granularity: Type.Unsafe<Granularity>({ type: 'string', enum: [...GRANULARITIES], default: 'day', description: 'One point per day or per hour.' }),
  timezone: Type.String({ default: 'Etc/UTC', description: 'An IANA time zone name: where days and hours begin.', examples: ['Europe/Paris'] }),
  link: Type.Optional(
    Type.String({ description: "Brief's addition: `domain/slug`, one of the caller's links only.", examples: ['go.example.com/launch'] }),
  ),
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        "Brief's addition: a custom range's start, an ISO timestamp with its offset; it replaces `range` (the response says `custom`). " +
        'Taken down to the quarter hour; at most 366 days before `to` (31 by hour).',
      examples: ['2026-11-01T00:00:00Z'],
    }),
  ),
  to: Type.Optional(
    Type.String({
      maxLength: 40,
      description: "Brief's addition: a custom range's end (exclusive), an ISO timestamp; now when absent. Taken up to the quarter hour.",
      examples: ['2026-11-08T00:00:00Z'],
    }),
  ),
  ...TagFilterQuery,
  workspaceId: Type.Optional(
    Type.String({
      description: "The caller's workspace id; absent, empty or `undefined` mean the caller's own. Another account's is not found (404).",
    }),
  ),
});
export const ClicksQuery = withDefaults(clicksQuery);
export type ClicksQuery = Static<typeof ClicksQuery>;

/** The top lists' parameters: the clicks call's, without granularity, with Brief's `limit`. */
export const TopQuery = withDefaults(
  Type.Composite([
    Type.Omit(clicksQuery, ['granularity']),
    Type.Object({
      limit: Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_TOP_LIMIT, description: "Brief's addition: at most this many entries." }),
    }),
  ]),
);
export type TopQuery = Static<typeof TopQuery>;

const Timestamp = Type.String({ format: 'date-time' });

const TopEntry = Type.Object({
  label: Type.String(),
  click: Type.Integer({ minimum: 0 }),
  meta: Type.Optional(
    Type.Object(
      {
        version: Type.Optional(Type.String({ description: 'top-browsers: the most clicked major version of the browser.' })),
        url: Type.Optional(
          Type.String({
            description: "top-rules: the url the label names in the link's rules as they are now; absent when it names none any more.",
          }),
        ),
      },
      { additionalProperties: Type.Union([Type.String(), Type.Number(), Type.Null()]) },
    ),
  ),
});
export type TopEntry = Static<typeof TopEntry>;

const topResultFields = {
  datetimeRange: Type.Array(Timestamp, { minItems: 2, maxItems: 2, description: 'The range as [start, end): ISO timestamps.' }),
  range: Type.Unsafe<RangeName>({ type: 'string', enum: [...RANGES, 'custom'], description: 'The range asked for; `custom` with `from`.' }),
  data: Type.Array(TopEntry, { description: 'Most clicked first, then by label; values not known are left out.' }),
};
const WEEK: [string, string] = ['2026-11-15T00:00:00.000Z', '2026-11-22T00:00:00.000Z'];

export const TopResult = Type.Object(topResultFields, {
  examples: [
    {
      datetimeRange: WEEK,
      range: '7d',
      data: [
        { label: 'Chrome', click: 41, meta: { version: '131' } },
        { label: 'Firefox', click: 7 },
      ],
    },
  ],
});
export type TopResult = Static<typeof TopResult>;

/** top-rules' answer: the same shape, its example labels those of a link's rules (decision 0039). */
export const TopRulesResult = Type.Object(topResultFields, {
  examples: [
    {
      datetimeRange: WEEK,
      range: '7d',
      data: [
        { label: 'rules.0.split.0', click: 52, meta: { url: 'https://example.com/a' } },
        { label: 'rules.0.split.1', click: 48, meta: { url: 'https://example.com/b' } },
        { label: 'url', click: 31, meta: { url: 'https://example.com/' } },
        { label: 'rules.1', click: 9, meta: { url: 'https://example.com/fr' } },
        { label: 'rules.2', click: 2 },
      ],
    },
  ],
});

export const ClicksResult = Type.Object(
  {
    start: Timestamp,
    end: Timestamp,
    data: Type.Array(
      Type.Object({
        date: Type.String({ description: '`YYYY-MM-DD` by day; by hour, the wall time with its offset, `YYYY-MM-DDTHH:00:00+hh:mm`.' }),
        click: Type.Integer({ minimum: 0 }),
      }),
    ),
  },
  {
    examples: [
      {
        start: '2026-11-15T00:00:00.000Z',
        end: '2026-11-22T00:00:00.000Z',
        data: [
          { date: '2026-11-15', click: 3 },
          { date: '2026-11-16', click: 0 },
        ],
      },
    ],
  },
);
export type ClicksResult = Static<typeof ClicksResult>;
