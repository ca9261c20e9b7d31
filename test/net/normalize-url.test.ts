import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hostileText } from '../../harness/hostile/hostile-values.js';
import { BriefError } from '../../src/errors.js';
import { statusOf } from '../../src/http/error-status.js';
import { normalizeUrl, URL_MAX_LENGTH } from '../../src/net/normalize-url.js';
import { expectValidationError } from '../support/validation-error.js';

function rejected(raw: string, message = 'expected a 422 url validation error') {
  assert.throws(
    () => normalizeUrl(raw),
    (error: unknown) => {
      assert.ok(error instanceof BriefError, `expected BriefError for ${JSON.stringify(raw.slice(0, 40))}`);
      assert.equal(error.code, 'E_VALIDATION_ERROR');
      assert.equal(statusOf(error), 422);
      assert.equal(error.errors?.[0]?.field, 'url');
      return true;
    },
    message,
  );
}

describe('normalizeUrl', () => {
  it('lower-cases scheme and host but keeps the path case', () => {
    assert.equal(normalizeUrl('HTTPS://WWW.Example.COM/Some/Path').href, 'https://www.example.com/Some/Path');
  });

  it('drops default ports and keeps other ports', () => {
    assert.equal(normalizeUrl('http://example.com:80/a').href, 'http://example.com/a');
    assert.equal(normalizeUrl('https://example.com:443/a').href, 'https://example.com/a');
    assert.equal(normalizeUrl('https://example.com:8443/a').href, 'https://example.com:8443/a');
  });

  it('resolves dot segments', () => {
    assert.equal(normalizeUrl('https://example.com/a/./b/../c').href, 'https://example.com/a/c');
  });

  it('turns an internationalized host into punycode', () => {
    assert.equal(normalizeUrl('https://bücher.de/x').href, 'https://xn--bcher-kva.de/x');
  });

  it('keeps query and fragment', () => {
    assert.equal(normalizeUrl('https://example.com/p?q=1&r=2#section').href, 'https://example.com/p?q=1&r=2#section');
  });

  it('adds the root path and trims surrounding whitespace', () => {
    assert.equal(normalizeUrl('  https://example.com  ').href, 'https://example.com/');
  });

  it('percent-encodes unsafe characters', () => {
    assert.equal(normalizeUrl('https://example.com/a b"c').href, 'https://example.com/a%20b%22c');
  });

  it('accepts a URL of exactly the maximum length', () => {
    const base = 'https://example.com/';
    const raw = base + 'a'.repeat(URL_MAX_LENGTH - base.length);
    assert.equal(normalizeUrl(raw).href.length, URL_MAX_LENGTH);
  });

  for (const raw of [
    'javascript:alert(1)',
    'JavaScript://%0aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://example.com/file',
    'file:///etc/passwd',
    'mailto:someone@example.com',
    '/relative/path',
    '../up',
    'example.com/path',
    'www.example.com',
    'http:example.com',
    'https:/example.com',
    'http://',
    'https://exa mple.com/',
    'not a url',
  ]) {
    it(`rejects ${JSON.stringify(raw)}`, () => rejected(raw));
  }

  it('rejects an empty or blank URL as undefined', () => {
    for (const raw of ['', '   ']) {
      assert.throws(
        () => normalizeUrl(raw),
        (e: unknown) => e instanceof BriefError && e.message === 'The url field must be defined',
      );
    }
  });

  it('rejects a URL longer than 8192 characters', () => {
    const raw = `https://example.com/${'a'.repeat(URL_MAX_LENGTH)}`;
    assert.throws(
      () => normalizeUrl(raw),
      (e: unknown) => e instanceof BriefError && e.code === 'E_VALIDATION_ERROR' && e.errors?.[0]?.rule === 'maxLength',
    );
  });

  it('rejects a URL whose normalized form grows past 8192 characters', () => {
    const raw = `https://example.com/${' '.repeat(URL_MAX_LENGTH - 30)}x`;
    assert.ok(raw.length <= URL_MAX_LENGTH);
    assert.throws(
      () => normalizeUrl(raw),
      (e: unknown) => e instanceof BriefError && e.code === 'E_VALIDATION_ERROR',
    );
  });

  it('uses the v2 message for an invalid URL', () => {
    assert.throws(() => normalizeUrl('example.com'), { message: 'The url field must be a valid URL' });
  });
});

// Properties of normalizeUrl over machine-made input: whatever a client sends as `url`, the
// answer is a normalized http(s) URL or a validation error, never anything else.

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
