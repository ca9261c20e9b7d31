// The clicks series' calendar: ranges and buckets in time zones, daylight-saving days included.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bucketIndex, rangeAt, seriesOf, TimeZone } from '../../src/analytics/time-series.js';

const at = (iso: string) => Date.parse(iso);
const iso = (instant: number) => new Date(instant).toISOString();
const zone = (name: string) => {
  const found = TimeZone.named(name);
  assert.ok(found, name);
  return found;
};
const UTC = zone('Etc/UTC');
const PARIS = zone('Europe/Paris');

describe('time zones', () => {
  it('knows IANA names and nothing else', () => {
    assert.ok(TimeZone.named('America/New_York'));
    assert.equal(TimeZone.named('Mars/Olympus_Mons'), undefined);
    assert.equal(TimeZone.named(''), undefined);
  });

  it('reads the wall clock and the offset at an instant', () => {
    assert.equal(iso(PARIS.wall(at('2026-07-01T10:00:00.999Z'))), '2026-07-01T12:00:00.000Z');
    assert.equal(PARIS.offset(at('2026-01-01T10:00:00Z')), 3_600_000);
    assert.equal(zone('Asia/Kolkata').offset(at('2026-01-01T10:00:00Z')), 5.5 * 3_600_000);
  });

  it('finds the instant of a wall time: the earlier one when clocks go back, the end of the gap when they go forward', () => {
    assert.equal(iso(PARIS.instantOf(at('2026-07-01T12:00:00Z'))), '2026-07-01T10:00:00.000Z');
    // 25 October 2026, 03:00 CEST → 02:00 CET: 02:30 happens twice.
    assert.equal(iso(PARIS.instantOf(at('2026-10-25T02:30:00Z'))), '2026-10-25T00:30:00.000Z');
    // 29 March 2026, 02:00 CET → 03:00 CEST: 02:30 never happens.
    assert.equal(iso(PARIS.instantOf(at('2026-03-29T02:30:00Z'))), '2026-03-29T01:00:00.000Z');
    // Chile moves its clocks forward at midnight: that day begins at 01:00.
    const santiago = zone('America/Santiago');
    const midnight = santiago.instantOf(at('2026-09-06T00:00:00Z'));
    assert.equal(iso(santiago.wall(midnight)), '2026-09-06T01:00:00.000Z');
    assert.equal(iso(santiago.wall(midnight - 1000)), '2026-09-05T23:59:59.000Z');
  });
});

describe('ranges', () => {
  const now = at('2026-11-21T15:30:12.345Z');
  const range = (r: Parameters<typeof rangeAt>[0], z = UTC, instant = now) => {
    const { start, end } = rangeAt(r, z, instant);
    return [iso(start), iso(end)];
  };

  it('Nd: the last N days, today included, to the next midnight', () => {
    assert.deepEqual(range('7d'), ['2026-11-15T00:00:00.000Z', '2026-11-22T00:00:00.000Z']);
    assert.deepEqual(range('1d'), ['2026-11-21T00:00:00.000Z', '2026-11-22T00:00:00.000Z']);
    assert.deepEqual(range('3d'), ['2026-11-19T00:00:00.000Z', '2026-11-22T00:00:00.000Z']);
    assert.deepEqual(range('60d'), ['2026-09-23T00:00:00.000Z', '2026-11-22T00:00:00.000Z']);
    assert.deepEqual(range('7d', PARIS), ['2026-11-14T23:00:00.000Z', '2026-11-21T23:00:00.000Z']);
  });

  it('24h: the last 24 whole hours, the current one included', () => {
    assert.deepEqual(range('24h'), ['2026-11-20T16:00:00.000Z', '2026-11-21T16:00:00.000Z']);
    // Kolkata's hours begin at half past UTC hours.
    assert.deepEqual(range('24h', zone('Asia/Kolkata')), ['2026-11-20T16:30:00.000Z', '2026-11-21T16:30:00.000Z']);
  });

  it('1m: from tomorrow’s date a month earlier, clamped to that month’s last day', () => {
    assert.deepEqual(range('1m'), ['2026-10-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z']);
    assert.deepEqual(range('1m', UTC, at('2026-03-30T12:00:00Z')), ['2026-02-28T00:00:00.000Z', '2026-03-31T00:00:00.000Z']);
    assert.deepEqual(range('1m', UTC, at('2026-01-15T12:00:00Z')), ['2025-12-16T00:00:00.000Z', '2026-01-16T00:00:00.000Z']);
  });
});

describe('series', () => {
  it('cuts days at the zone’s midnights, a 23-hour day included', () => {
    const series = seriesOf('3d', 'day', PARIS, at('2026-03-30T10:00:00Z'));
    assert.deepEqual(
      series.buckets.map((b) => [b.label, iso(b.start), iso(b.end)]),
      [
        ['2026-03-28', '2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z'],
        ['2026-03-29', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'],
        ['2026-03-30', '2026-03-29T22:00:00.000Z', '2026-03-30T22:00:00.000Z'],
      ],
    );
  });

  it('cuts hours with labels of wall time and offset, unique on the night clocks go back', () => {
    const spring = seriesOf('1d', 'hour', PARIS, at('2026-03-29T12:00:00Z'));
    assert.equal(spring.buckets.length, 23);
    assert.deepEqual(
      spring.buckets.slice(0, 3).map((b) => b.label),
      ['2026-03-29T00:00:00+01:00', '2026-03-29T01:00:00+01:00', '2026-03-29T03:00:00+02:00'],
    );
    const autumn = seriesOf('1d', 'hour', PARIS, at('2026-10-25T12:00:00Z'));
    assert.equal(autumn.buckets.length, 25);
    assert.deepEqual(
      autumn.buckets.slice(1, 4).map((b) => b.label),
      ['2026-10-25T01:00:00+02:00', '2026-10-25T02:00:00+02:00', '2026-10-25T02:00:00+01:00'],
    );
    assert.equal(new Set(autumn.buckets.map((b) => b.label)).size, 25);
    const utc = seriesOf('24h', 'hour', UTC, at('2026-11-21T15:30:00Z'));
    assert.equal(utc.buckets[0]!.label, '2026-11-20T16:00:00+00:00');
    assert.equal(utc.buckets[23]!.label, '2026-11-21T15:00:00+00:00');
  });

  it('covers the range exactly, a partly covered day counting its part only', () => {
    const series = seriesOf('24h', 'day', UTC, at('2026-11-21T15:30:00Z'));
    assert.deepEqual(
      series.buckets.map((b) => [b.label, iso(b.start), iso(b.end)]),
      [
        ['2026-11-20', '2026-11-20T16:00:00.000Z', '2026-11-21T00:00:00.000Z'],
        ['2026-11-21', '2026-11-21T00:00:00.000Z', '2026-11-21T16:00:00.000Z'],
      ],
    );
    for (const granularity of ['day', 'hour'] as const) {
      for (const range of ['24h', '1d', '3d', '7d', '14d', '30d', '60d', '1m'] as const) {
        const { start, end, buckets } = seriesOf(range, granularity, zone('America/New_York'), at('2026-11-02T03:00:00Z'));
        assert.equal(buckets[0]!.start, start, `${range} ${granularity}`);
        assert.equal(buckets.at(-1)!.end, end, `${range} ${granularity}`);
        for (let i = 1; i < buckets.length; i++) assert.equal(buckets[i]!.start, buckets[i - 1]!.end, `${range} ${granularity} ${i}`);
      }
    }
  });

  it('finds the bucket of an instant', () => {
    const series = seriesOf('7d', 'day', UTC, at('2026-11-21T15:30:00Z'));
    assert.equal(bucketIndex(series, at('2026-11-15T00:00:00Z')), 0);
    assert.equal(bucketIndex(series, at('2026-11-18T23:59:59.999Z')), 3);
    assert.equal(bucketIndex(series, at('2026-11-21T23:59:59Z')), 6);
    assert.equal(bucketIndex(series, at('2026-11-14T23:59:59Z')), -1);
    assert.equal(bucketIndex(series, at('2026-11-22T00:00:00Z')), -1);
  });
});
