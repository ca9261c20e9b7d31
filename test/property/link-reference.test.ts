// Properties of parseLinkReference (DELETE /v2/links/{link} and the CLI's LINK) over machine-made input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hostileText } from '../../bench/hostile/hostile-values.js';
import { LINK_KEY, SLUG_MAX_LENGTH } from '../../src/links/codes.js';
import { parseLinkReference } from '../../src/links/link-reference.js';

const DEFAULT = 'short.test';
const key = fc.string({ unit: fc.constantFrom(...'ABCxyz019_-'), minLength: 1, maxLength: SLUG_MAX_LENGTH });
const host = fc.tuple(fc.domain(), fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined })).map(([d, p]) => (p ? `${d}:${p}` : d));

describe('parseLinkReference (property)', () => {
  it('never throws: any string is a reference with a valid key and a clean domain, or null', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hostileText,
          key,
          fc.tuple(host, key).map(([h, k]) => `${h}/${k}`),
        ),
        (raw) => {
          const ref = parseLinkReference(raw, DEFAULT);
          if (ref === null) return;
          assert.ok(LINK_KEY.test(ref.key), ref.key);
          assert.ok(ref.domain.length > 0);
          // biome-ignore lint/suspicious/noControlCharactersInRegex: what must never reach a query
          assert.doesNotMatch(ref.domain, /[\s\u0000-\u001f\u007f]/);
          assert.equal(ref.domain, ref.domain.toLowerCase());
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('reads a key, domain/key and http(s)://domain/key back to the same place', () => {
    fc.assert(
      fc.property(host, key, fc.constantFrom('http', 'https', 'HTTPS'), (h, k, scheme) => {
        assert.deepEqual(parseLinkReference(k, DEFAULT), { domain: DEFAULT, key: k, explicitDomain: false });
        assert.deepEqual(parseLinkReference(`${h}/${k}`, DEFAULT), { domain: h.toLowerCase(), key: k, explicitDomain: true });
        const viaUrl = parseLinkReference(`${scheme}://${h}/${k}`, DEFAULT);
        assert.equal(viaUrl?.key, k);
        assert.equal(viaUrl?.domain, new URL(`${scheme}://${h}/`).host);
      }),
      { numRuns: 3000 },
    );
  });
});
