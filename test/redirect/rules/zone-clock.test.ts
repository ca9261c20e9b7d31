// A time zone's wall clock: the local weekday and hour, one clock per zone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ZoneClock } from '../../../src/redirect/rules/zone-clock.js';

describe('zone clock', () => {
  it('is one clock per zone, named canonically, and none for an unknown name', () => {
    const berlin = ZoneClock.of('Europe/Berlin');
    assert.equal(berlin?.zone, 'Europe/Berlin');
    assert.equal(ZoneClock.of('europe/berlin'), berlin);
    assert.equal(ZoneClock.of('Europe/Atlantis'), undefined);
    assert.equal(ZoneClock.of(''), undefined);
  });

  it('reads the local weekday (0 Monday) and hour, minute after minute', () => {
    const tokyo = ZoneClock.of('Asia/Tokyo')!;
    // 2026-11-29T14:59:59Z is Sunday 23:59:59 in Tokyo; a second later it is Monday 00:00.
    const sunday = Date.parse('2026-11-29T14:59:59Z');
    assert.deepEqual([tokyo.weekday(sunday), tokyo.hour(sunday)], [6, 23]);
    assert.deepEqual([tokyo.weekday(sunday + 1000), tokyo.hour(sunday + 1000)], [0, 0]);
    assert.deepEqual([tokyo.weekday(sunday), tokyo.hour(sunday)], [6, 23], 'going back reads again');
    const kathmandu = ZoneClock.of('Asia/Kathmandu')!;
    // UTC+05:45: 18:14 UTC is 23:59, 18:15 is midnight.
    assert.equal(kathmandu.hour(Date.parse('2026-11-27T18:14:00Z')), 23);
    assert.equal(kathmandu.hour(Date.parse('2026-11-27T18:15:00Z')), 0);
  });
});
