import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hostileText } from '../../harness/hostile/hostile-values.js';
import { BriefError } from '../../src/errors.js';
import { statusOf } from '../../src/http/error-status.js';
import { generateCode, LINK_KEY, RESERVED_SLUGS, SLUG_MAX_LENGTH, validateSlug } from '../../src/links/codes.js';
import { expectValidationError } from '../support/validation-error.js';

describe('generateCode', () => {
  it('makes codes of the requested length from [0-9A-Za-z]', () => {
    for (const length of [4, 7, 12, 32]) {
      for (let i = 0; i < 50; i++) {
        const code = generateCode(length);
        assert.equal(code.length, length);
        assert.match(code, /^[0-9A-Za-z]+$/);
      }
    }
  });

  it('makes 1000 distinct codes in a row', () => {
    const codes = new Set(Array.from({ length: 1000 }, () => generateCode(7)));
    assert.equal(codes.size, 1000);
  });

  it('uses the whole alphabet', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => generateCode(7)).join(''));
    assert.equal(seen.size, 62);
  });
});

function slugRejected(slug: string, rule: string) {
  assert.throws(
    () => validateSlug(slug),
    (e: unknown) => e instanceof BriefError && statusOf(e) === 422 && e.errors?.[0]?.field === 'slug' && e.errors[0].rule === rule,
    `slug ${JSON.stringify(slug)} should be rejected (${rule})`,
  );
}

describe('generateCode and reserved words', () => {
  it('never returns a reserved word, in any case', () => {
    // At length 2, qr/v1/v2/v3 in any case are 10 of 3,844 codes: without the guard one
    // of 20,000 draws is all but certain.
    for (let i = 0; i < 20_000; i++) {
      const code = generateCode(2);
      assert.ok(!RESERVED_SLUGS.has(code.toLowerCase()), `generated reserved word ${code}`);
    }
  });
});

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
