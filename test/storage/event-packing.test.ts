// Click events packed for the SQLite background thread come out as they went in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { packEvents, unpackEvents } from '../../src/storage/sqlite/event-packing.js';
import type { ClickEventBatch } from '../../src/storage/stores/analytics.js';
import { personVisit } from '../support/events.js';

describe('event packing', () => {
  it('round-trips every field, nulls and repeated strings included', () => {
    const batch: ClickEventBatch = {
      writer: 'w',
      seq: 7,
      events: [
        {
          time: 1_800_000_000_123,
          linkId: 42,
          clicks: 3,
          bot: null,
          browser: 'Chrome',
          browserVersion: '131',
          os: 'Windows',
          deviceType: 'desktop',
          deviceVendor: null,
          language: 'en-gb',
          referrerHost: 'example.org',
          country: 'GB',
          city: 'London',
          rule: 'rules.0.split.1',
        },
        { ...personVisit(2 ** 40, 1_800_000_001_000), bot: 'Googlebot', browser: 'Chrome' },
      ],
    };
    const packed = packEvents(batch);
    assert.equal(packed.strings.filter((s) => s === 'Chrome').length, 1, 'a repeated string is sent once');
    assert.deepEqual(unpackEvents(structuredClone(packed)), batch);
    assert.deepEqual(unpackEvents(packEvents({ writer: 'w', seq: 1, events: [] })), { writer: 'w', seq: 1, events: [] });
  });
});
