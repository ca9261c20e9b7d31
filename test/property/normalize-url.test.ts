// Properties of normalizeUrl over machine-made input: whatever a client sends as `url`, the
// answer is a normalized http(s) URL or a validation error, never anything else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hostileText } from '../../bench/hostile/hostile-values.js';
import { normalizeUrl, URL_MAX_LENGTH } from '../../src/net/normalize-url.js';
import { expectValidationError } from './validation-error.js';

/** Absolute http(s) URLs, some with odd but legal parts (user info, ports, IPv6, unicode hosts, dot segments). */
const webUrl = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true, authoritySettings: { withIPv4: true, withIPv6: true, withPort: true } }),
  fc
    .tuple(
      fc.constantFrom('http', 'HTTP', 'https', 'HtTpS'),
      fc.constantFrom('example.com', 'EXAMPLE.com', 'bücher.example', 'xn--bcher-kva.example', '127.0.0.1', '[::1]', 'a.b.c.d.e'),
      fc.option(fc.integer({ min: 0, max: 65535 }), { nil: undefined }),
      fc.array(fc.constantFrom('a', '..', '.', '%41', 'ü', ' ', '%', '%zz', '"', '<>', '{}', '|', '\\', '^', '`'), { maxLength: 6 }),
    )
    .map(([scheme, host, port, segments]) => `${scheme}://${host}${port === undefined ? '' : `:${port}`}/${segments.join('/')}`),
);

describe('normalizeUrl (property)', () => {
  it('answers any string with an http(s) URL or a validation error', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, webUrl), (raw) => {
        let url: URL;
        try {
          url = normalizeUrl(raw);
        } catch (error) {
          expectValidationError(error, 'url');
          return;
        }
        assert.ok(url.protocol === 'http:' || url.protocol === 'https:', url.href);
        assert.notEqual(url.hostname, '');
        assert.ok(url.href.length <= URL_MAX_LENGTH);
      }),
      { numRuns: 5000 },
    );
  });

  it('accepts every absolute http(s) URL with a host, and its normal form is a fixed point', () => {
    fc.assert(
      fc.property(webUrl, (raw) => {
        const once = normalizeUrl(raw);
        // What Brief stores and redirects to normalizes to itself: stored URLs never change meaning.
        assert.equal(normalizeUrl(once.href).href, once.href);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what is over the limit before or after normalizing, with the maxLength rule', () => {
    fc.assert(
      fc.property(fc.integer({ min: 20, max: 200 }), fc.string({ minLength: 1, maxLength: 300 }), (max, tail) => {
        const raw = `https://example.com/${tail}`;
        try {
          const url = normalizeUrl(raw, max);
          assert.ok(raw.length <= max && url.href.length <= max);
        } catch (error) {
          expectValidationError(error, 'url');
        }
      }),
      { numRuns: 2000 },
    );
  });
});
