import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BriefError } from '../../src/errors.js';
import { statusOf } from '../../src/http/error-status.js';
import { generateCode, RESERVED_SLUGS, validateSlug } from '../../src/links/codes.js';

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
