// The analytics routes' data schemas (../shared/spec/v3-interface.md, "Analytics"): validation,
// types and, through routes.ts, the API document.
import { type Static, Type } from '@sinclair/typebox';
import { DEFAULT_TIMEZONE } from './analytics-service.js';
import { GRANULARITIES, type Granularity, RANGES, type Range } from './time-series.js';

export const ClicksQuery = Type.Object({
  range: Type.Optional(
    Type.Unsafe<Range>({
      type: 'string',
      enum: [...RANGES],
      default: '7d',
      description:
        '`24h`: the last 24 whole hours, the current one included; `Nd`: the last N days of the time zone, today included; ' +
        '`1m`: the days since the same date a month before tomorrow. The current hour or day counts so far.',
    }),
  ),
  granularity: Type.Optional(
    Type.Unsafe<Granularity>({ type: 'string', enum: [...GRANULARITIES], default: 'day', description: 'One point per day or per hour.' }),
  ),
  timezone: Type.Optional(
    Type.String({ default: DEFAULT_TIMEZONE, description: 'An IANA time zone name: where days and hours begin.', examples: ['Europe/Paris'] }),
  ),
  link: Type.Optional(
    Type.String({ description: "Brief's addition: `domain/slug`, one of the caller's links only.", examples: ['go.example.com/launch'] }),
  ),
  workspaceId: Type.Optional(
    Type.String({
      description: "The caller's workspace id; absent, empty or `undefined` mean the caller's own. Another account's is not found (404).",
    }),
  ),
});
export type ClicksQuery = Required<Omit<Static<typeof ClicksQuery>, 'link' | 'workspaceId'>> & { link?: string; workspaceId?: string };

const Timestamp = Type.String({ format: 'date-time' });

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
