// Properties of the checks every way of making or editing a link shares: titles, comments,
// passwords, expiries and bulk items refuse bad input with a validation error, nothing else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hostileText } from '../../harness/hostile/hostile-values.js';
import { bulkItemInput } from '../../src/links/bulk-items.js';
import { checkPassword, optionalText, parseExpiry } from '../../src/links/link-fields.js';
import { expectValidationError } from '../support/validation-error.js';

/** Runs fn; a throw must be Brief's validation error. Returns whether it passed. */
function acceptsOrRefuses(fn: () => unknown, field?: string): boolean {
  try {
    fn();
    return true;
  } catch (error) {
    expectValidationError(error, field);
    return false;
  }
}

describe('link fields (property)', () => {
  it('optionalText keeps bounded text without NUL and refuses the rest', () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 1, max: 2000 }), (text, max) => {
        const ok = acceptsOrRefuses(() => optionalText('comment', text, max), 'comment');
        assert.equal(ok, text.length <= max && !text.includes('\u0000'));
      }),
      { numRuns: 3000 },
    );
  });

  it('checkPassword and parseExpiry answer any string with a value or a validation error', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        acceptsOrRefuses(() => checkPassword(text), 'password');
        acceptsOrRefuses(() => parseExpiry(text), 'expiredAt');
      }),
      { numRuns: 3000 },
    );
  });

  it('parseExpiry takes any future instant as JSON writes it, and refuses any past one', () => {
    const now = Date.UTC(2026, 10, 23);
    fc.assert(
      fc.property(fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0, 1)), noInvalidDate: true }), (date) => {
        const ok = acceptsOrRefuses(() => parseExpiry(date.toISOString(), now), 'expiredAt');
        assert.equal(ok, date.getTime() > now);
      }),
      { numRuns: 3000 },
    );
  });

  it('parseExpiry takes a timestamp exactly when its parts name a moment that exists, and reads it as that moment', () => {
    const now = Date.UTC(2000, 0, 1);
    const two = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(
        fc.record({
          year: fc.integer({ min: 2001, max: 9999 }),
          month: fc.integer({ min: 0, max: 13 }),
          day: fc.integer({ min: 0, max: 32 }),
          hour: fc.integer({ min: 0, max: 25 }),
          minute: fc.integer({ min: 0, max: 61 }),
          second: fc.option(fc.integer({ min: 0, max: 61 })),
          zone: fc.option(
            fc.record({ sign: fc.constantFrom(1, -1), hours: fc.integer({ min: 0, max: 25 }), minutes: fc.integer({ min: 0, max: 61 }) }),
          ),
        }),
        ({ year, month, day, hour, minute, second, zone }) => {
          const text =
            `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}${second === null ? '' : `:${two(second)}`}` +
            (zone === null ? 'Z' : `${zone.sign > 0 ? '+' : '-'}${two(zone.hours)}:${two(zone.minutes)}`);
          // The oracle: the parts survive a round trip through a Date (which rolls 30 February over to March).
          const at = new Date(0);
          at.setUTCFullYear(year, month - 1, day);
          at.setUTCHours(hour, minute, second ?? 0);
          const offset = new Date(0);
          offset.setUTCHours(zone?.hours ?? 0, zone?.minutes ?? 0);
          const exists =
            [at.getUTCFullYear(), at.getUTCMonth() + 1, at.getUTCDate(), at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds()].join() ===
              [year, month, day, hour, minute, second ?? 0].join() &&
            offset.getUTCHours() === (zone?.hours ?? 0) &&
            offset.getUTCMinutes() === (zone?.minutes ?? 0) &&
            offset.getUTCDate() === 1;
          let parsed: number | undefined;
          const ok = acceptsOrRefuses(() => {
            parsed = parseExpiry(text, now);
          }, 'expiredAt');
          assert.equal(ok, exists, text);
          if (ok) assert.equal(parsed, at.getTime() - (zone ? zone.sign * (zone.hours * 60 + zone.minutes) * 60_000 : 0), text);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('bulkItemInput answers any JSON value with an item or a validation error', () => {
    const itemLike = fc.record(
      {
        url: fc.anything(),
        slug: fc.anything(),
        comment: fc.anything(),
        password: fc.anything(),
        expiredAt: fc.anything(),
        reuseExisting: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), itemLike), (item) => {
        if (acceptsOrRefuses(() => bulkItemInput(item))) assert.equal(typeof (item as { url: unknown }).url, 'string');
      }),
      { numRuns: 5000 },
    );
  });
});
