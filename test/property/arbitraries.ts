// Generators of hostile input and the one check every property shares: an input that is
// refused is refused with Brief's validation error, nothing else.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BriefError } from '../../src/errors.js';

/** Characters that break parsers: controls, NUL, separators, quotes, percent signs, unpaired surrogates, RTL marks. */
const nasty = fc.constantFrom(
  '\u0000',
  '\u0001',
  '\t',
  '\n',
  '\r',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u202e',
  '\u2028',
  '\ufeff',
  '\ufffd',
  '\ud800',
  '\udfff',
  '%',
  '%00',
  '%zz',
  '%2F',
  '%C0%AF',
  '/',
  '\\',
  '?',
  '#',
  '@',
  ':',
  '&',
  '=',
  ' ',
  '"',
  "'",
  '<',
  '>',
  '`',
  '{',
  '}',
  '|',
  '^',
  '..',
  '.',
  '*',
  '\u{1F600}',
  'İ',
  'ß',
  'ﬀ',
  'K', // Kelvin sign: lower-cases to k
);

/** Any string, biased towards what breaks parsers: nasty characters, URL-like pieces, very long runs. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
  { weight: 3, arbitrary: fc.array(fc.oneof(nasty, fc.string({ maxLength: 6 })), { maxLength: 20 }).map((parts) => parts.join('')) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom('', 'http://', 'https://', 'HTTPS://', 'ftp://', 'javascript:', 'http:', '//', 'http:///', 'https://user:pass@'),
        fc.array(fc.oneof(nasty, fc.domain(), fc.string({ maxLength: 8 })), { maxLength: 8 }),
      )
      .map(([scheme, parts]) => scheme + parts.join('')),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('a', '%', 'é', '\u0000', '/'), fc.integer({ min: 60, max: 20_000 })).map(([c, n]) => c.repeat(n)),
  },
);

/** Asserts that `error` is Brief's validation error, about `field` when given. */
export function expectValidationError(error: unknown, field?: string): void {
  assert.ok(error instanceof BriefError, `expected a BriefError, got ${String(error)}`);
  assert.equal(error.code, 'E_VALIDATION_ERROR');
  assert.ok(typeof error.message === 'string' && error.message.length > 0);
  if (field !== undefined) assert.equal(error.errors?.[0]?.field, field);
}
