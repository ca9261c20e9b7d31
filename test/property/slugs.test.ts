// Properties of slug validation and generated codes over machine-made input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hostileText } from '../../bench/hostile/hostile-values.js';
import { generateCode, LINK_KEY, RESERVED_SLUGS, SLUG_MAX_LENGTH, validateSlug } from '../../src/links/codes.js';
import { expectValidationError } from './validation-error.js';

const SLUG_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
const slugShaped = fc.string({ unit: fc.constantFrom(...SLUG_CHARS), minLength: 1, maxLength: SLUG_MAX_LENGTH });
/** Reserved words in any mix of cases. */
const reservedWord = fc
  .tuple(fc.constantFrom(...RESERVED_SLUGS), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }))
  .map(([word, upper]) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

/** assert.throws' check: the error is a validation error on `slug`. */
function refusedAsSlug(error: unknown): true {
  expectValidationError(error, 'slug');
  return true;
}

describe('validateSlug (property)', () => {
  it('answers any string with the slug itself or a validation error on `slug`', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, slugShaped, reservedWord), (slug) => {
        let accepted: string;
        try {
          accepted = validateSlug(slug);
        } catch (error) {
          expectValidationError(error, 'slug');
          return;
        }
        assert.equal(accepted, slug);
        assert.ok(LINK_KEY.test(accepted));
        assert.ok(!RESERVED_SLUGS.has(accepted.toLowerCase()));
      }),
      { numRuns: 5000 },
    );
  });

  it('accepts every 1–64 characters of A-Z a-z 0-9 _ - that is not a reserved word', () => {
    fc.assert(
      fc.property(slugShaped, (slug) => {
        fc.pre(!RESERVED_SLUGS.has(slug.toLowerCase()));
        assert.equal(validateSlug(slug), slug);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses reserved words in any case, and anything longer than 64', () => {
    fc.assert(fc.property(reservedWord, (word) => assert.throws(() => validateSlug(word), refusedAsSlug)));
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...SLUG_CHARS), minLength: SLUG_MAX_LENGTH + 1, maxLength: 500 }), (slug) =>
        assert.throws(() => validateSlug(slug), refusedAsSlug),
      ),
    );
  });
});

describe('generateCode (property)', () => {
  it('makes codes of the asked length that validate as keys and are never reserved', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 32 }), (length) => {
        const code = generateCode(length);
        assert.equal(code.length, length);
        assert.match(code, /^[0-9A-Za-z]+$/);
        assert.ok(!RESERVED_SLUGS.has(code.toLowerCase()));
      }),
      { numRuns: 2000 },
    );
  });
});
