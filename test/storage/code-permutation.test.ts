// The keyed permutation behind generated codes (decision 0026): each id's code decodes back to
// it, no two ids share a code, and the codes of consecutive ids spread evenly over the alphabet.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CODE_ALPHABET, CodePermutation } from '../../src/storage/sql/code-permutation.js';

const permutation = new CodePermutation(randomBytes(32));
const SPACE_7 = 62 ** 7;

describe('CodePermutation', () => {
  it('round-trips every id of the range in use: the first 200,000, all distinct codes', () => {
    const seen = new Set<string>();
    for (let id = 1; id <= 200_000; id++) {
      const code = permutation.encode(id, 7);
      assert.match(code, /^[0-9A-Za-z]{7}$/);
      assert.equal(permutation.decode(code), id);
      seen.add(code);
    }
    assert.equal(seen.size, 200_000, 'no two ids give one code');
  });

  it('round-trips any id of the whole 7-character space, and any code of it decodes to an id that encodes back (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: SPACE_7 - 1 }), (id) => assert.equal(permutation.decode(permutation.encode(id, 7)), id)),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...CODE_ALPHABET), minLength: 7, maxLength: 7 }), (code) => {
        const id = permutation.decode(code);
        assert.ok(id !== undefined && id >= 0 && id < SPACE_7);
        assert.equal(permutation.encode(id, 7), code);
      }),
      { numRuns: 20_000 },
    );
  });

  it('no two ids give one code (property: distinct ids, distinct codes, any length)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 8 }),
        fc.integer({ min: 0, max: 14_776_335 }),
        fc.integer({ min: 0, max: 14_776_335 }),
        (length, a, b) => {
          fc.pre(a !== b);
          assert.notEqual(permutation.encode(a, length), permutation.encode(b, length));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('round-trips at every length from 4 to 32 (the BigInt path past 8)', () => {
    for (let length = 4; length <= 32; length++) {
      const top = Math.min(62 ** length, Number.MAX_SAFE_INTEGER);
      for (const id of [0, 1, 2, 61, 62, 1_000_003, top - 1]) {
        if (id >= top) continue;
        const code = permutation.encode(id, length);
        assert.equal(code.length, length);
        assert.equal(permutation.decode(code), id, `length ${length}, id ${id}`);
      }
    }
  });

  it('spreads the codes of consecutive ids evenly over the alphabet at every position (chi-square)', () => {
    const ids = 62 * 2_000;
    const counts = Array.from({ length: 7 }, () => new Array<number>(62).fill(0));
    for (let id = 1; id <= ids; id++) {
      const code = permutation.encode(id, 7);
      for (let at = 0; at < 7; at++) counts[at]![CODE_ALPHABET.indexOf(code[at]!)]!++;
    }
    const expected = ids / 62;
    // 61 degrees of freedom: the 99.99th percentile of chi-square is about 112; an even spread stays well under it.
    for (const [at, row] of counts.entries()) {
      const chi = row.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
      assert.ok(chi < 112, `position ${at}: chi-square ${chi.toFixed(1)}`);
    }
  });

  it('makes other codes under another secret, and the same under the same one', () => {
    const secret = randomBytes(32);
    const [a, b, c] = [new CodePermutation(secret), new CodePermutation(secret), new CodePermutation(randomBytes(32))];
    const codes = (p: CodePermutation) => Array.from({ length: 100 }, (_, i) => p.encode(i + 1, 7)).join();
    assert.equal(codes(a), codes(b));
    assert.notEqual(codes(a), codes(c));
  });

  it('grows a code past its length only when the id outgrows the space', () => {
    assert.equal(permutation.codeFor(62 ** 4 - 1, 4).length, 4);
    const past = 62 ** 4 + 5;
    assert.equal(permutation.codeFor(past, 4).length, 5);
    assert.equal(permutation.decode(permutation.codeFor(past, 4)), past);
  });

  it('decodes nothing that is not code-shaped', () => {
    for (const key of ['abc', 'my-slug', 'with_under', 'x'.repeat(33), '', 'café12']) assert.equal(permutation.decode(key), undefined);
  });
});
