import type { ClickEvent, ClickEventBatch } from '../stores/analytics.js';

// Click events on their way to the SQLite background thread, packed into a few typed arrays
// (moved, not copied) and one list of distinct strings: structured-cloning thousands of small
// objects cost the event loop more than recording them did.

const TEXT_FIELDS = [
  'bot',
  'browser',
  'browserVersion',
  'os',
  'deviceType',
  'deviceVendor',
  'language',
  'referrerHost',
  'country',
  'city',
  'rule',
] as const;

export interface PackedEvents {
  readonly writer: string;
  readonly seq: number;
  readonly count: number;
  readonly numbers: Float64Array;
  /** Per event and text field: an index into `strings`, or -1 for null. */
  readonly texts: Int32Array;
  readonly strings: string[];
}

export function packEvents(batch: ClickEventBatch): PackedEvents {
  const { events } = batch;
  const numbers = new Float64Array(events.length * 3);
  const texts = new Int32Array(events.length * TEXT_FIELDS.length);
  const strings: string[] = [];
  const index = new Map<string, number>();
  events.forEach((event, i) => {
    numbers[i * 3] = event.time;
    numbers[i * 3 + 1] = event.linkId;
    numbers[i * 3 + 2] = event.clicks;
    TEXT_FIELDS.forEach((field, f) => {
      const value = event[field];
      let at = -1;
      if (value !== null) {
        at = index.get(value) ?? -1;
        if (at < 0) {
          at = strings.push(value) - 1;
          index.set(value, at);
        }
      }
      texts[i * TEXT_FIELDS.length + f] = at;
    });
  });
  return { writer: batch.writer, seq: batch.seq, count: events.length, numbers, texts, strings };
}

export function unpackEvents(packed: PackedEvents): ClickEventBatch {
  const { numbers, texts, strings } = packed;
  const events: ClickEvent[] = [];
  for (let i = 0; i < packed.count; i++) {
    const text = (f: number) => {
      const at = texts[i * TEXT_FIELDS.length + f]!;
      return at < 0 ? null : strings[at]!;
    };
    events.push({
      time: numbers[i * 3]!,
      linkId: numbers[i * 3 + 1]!,
      clicks: numbers[i * 3 + 2]!,
      bot: text(0),
      browser: text(1),
      browserVersion: text(2),
      os: text(3),
      deviceType: text(4),
      deviceVendor: text(5),
      language: text(6),
      referrerHost: text(7),
      country: text(8),
      city: text(9),
      rule: text(10),
    });
  }
  return { writer: packed.writer, seq: packed.seq, events };
}
