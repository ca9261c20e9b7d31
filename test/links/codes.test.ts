import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hostileText } from '../../harness/hostile/hostile-values.js';
import { BriefError } from '../../src/errors.js';
import { statusOf } from '../../src/http/error-status.js';
import { hasCodeShape, LINK_KEY, RESERVED_SLUGS, refuseCodeShapedSlug, SLUG_MAX_LENGTH, validateSlug } from '../../src/links/codes.js';
import { expectValidationError } from '../support/validation-error.js';

describe('hasCodeShape and refuseCodeShapedSlug', () => {
  it("refuses exactly the domain's code length of letters and digits, and nothing else", () => {
    assert.equal(hasCodeShape('aB3dE9x', 7), true);
    assert.equal(hasCodeShape('aB3dE9', 7), false);
    assert.equal(hasCodeShape('aB3dE9xy', 7), false);
    assert.equal(hasCodeShape('aB3-E9x', 7), false);
    assert.equal(hasCodeShape('aB3_E9x', 7), false);
    assert.equal(hasCodeShape('abcd', 4), true);
    refuseCodeShapedSlug(null, 7);
    refuseCodeShapedSlug('my-slug', 7);
    assert.throws(
      () => refuseCodeShapedSlug('Promo24', 7),
      (e: unknown) => e instanceof BriefError && statusOf(e) === 422 && e.errors?.[0]?.field === 'slug' && e.errors[0].rule === 'codeShape',
    );
  });
});

function slugRejected(slug: string, rule: string) {
  assert.throws(
    () => validateSlug(slug),
    (e: unknown) => e instanceof BriefError && statusOf(e) === 422 && e.errors?.[0]?.field === 'slug' && e.errors[0].rule === rule,
    `slug ${JSON.stringify(slug)} should be rejected (${rule})`,
  );
}

describe('validateSlug', () => {
  it('accepts letters, digits, "_" and "-" from 1 to 64 characters', () => {
    for (const slug of ['a', 'Z', '0', '_', '-', 'My-Slug_2024', 'x'.repeat(64), 'ABCxyz-_09']) {
      assert.equal(validateSlug(slug), slug);
    }
  });

  it('keeps case (slugs are case-sensitive)', () => {
    assert.equal(validateSlug('CamelCase'), 'CamelCase');
  });

  it('rejects other characters with "The slug field format is invalid"', () => {
    for (const slug of ['with space', 'a/b', 'a.b', 'ümlaut', 'a%20', 'semi;colon', 'a?b', 'a#b', '', 'tab\t', 'nul\0']) {
      if (slug === '') {
        assert.throws(
          () => validateSlug(slug),
          (e: unknown) => e instanceof BriefError && e.errors?.[0]?.field === 'slug',
        );
        continue;
      }
      assert.throws(() => validateSlug(slug), { message: 'The slug field format is invalid' });
    }
  });

  it('rejects slugs longer than 64 characters', () => {
    slugRejected('x'.repeat(65), 'maxLength');
  });

  it('rejects reserved words in any case', () => {
    assert.ok(RESERVED_SLUGS.has('v2'));
    for (const slug of ['v2', 'V2', 'api', 'API', 'Admin', 'health', 'METRICS']) slugRejected(slug, 'reserved');
  });
});

// Properties of slug validation and generated codes over machine-made input.

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
