import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hostileText } from '../../harness/hostile/hostile-values.js';
import { LINK_KEY, SLUG_MAX_LENGTH } from '../../src/links/codes.js';
import { parseLinkReference } from '../../src/links/link-reference.js';

const DEFAULT = 'short.test';

describe('parseLinkReference', () => {
  it('reads a bare code or slug as a key on the default domain', () => {
    assert.deepEqual(parseLinkReference('aB3xY9z', DEFAULT), { domain: DEFAULT, key: 'aB3xY9z', explicitDomain: false });
    assert.deepEqual(parseLinkReference('my-slug_1', DEFAULT), { domain: DEFAULT, key: 'my-slug_1', explicitDomain: false });
  });

  it('reads domain/key, lower-casing the domain but not the key', () => {
    assert.deepEqual(parseLinkReference('Go.Example.COM/AbC', DEFAULT), { domain: 'go.example.com', key: 'AbC', explicitDomain: true });
    assert.deepEqual(parseLinkReference('localhost:3000/abc', DEFAULT), { domain: 'localhost:3000', key: 'abc', explicitDomain: true });
  });

  it('reads a full short URL, http or https, with or without a port', () => {
    assert.deepEqual(parseLinkReference('https://go.example.com/Xy12', DEFAULT), { domain: 'go.example.com', key: 'Xy12', explicitDomain: true });
    assert.deepEqual(parseLinkReference('HTTP://Short.Test:8080/k', DEFAULT), { domain: 'short.test:8080', key: 'k', explicitDomain: true });
  });

  it('reads the decoded form of encodeURIComponent(shortened)', () => {
    const shortened = 'https://go.example.com/abc';
    const encoded = encodeURIComponent(shortened);
    // The router hands the handler the decoded segment.
    assert.deepEqual(parseLinkReference(decodeURIComponent(encoded), DEFAULT), { domain: 'go.example.com', key: 'abc', explicitDomain: true });
  });

  it('returns null for junk', () => {
    for (const raw of [
      '',
      '   ',
      'has space',
      'a'.repeat(65),
      'https://go.example.com/',
      'https://go.example.com/a/b',
      'https://go.example.com/abc?x=1',
      'https://go.example.com/abc#frag',
      'https://',
      'go.example.com/',
      '/abc',
      'go.example.com/a/b',
      'ftp://go.example.com/abc',
      'javascript:alert(1)',
      '%00',
      'a\u0000b',
      'a\u0000b/abc',
      'a b/abc',
      '../../etc/passwd',
    ]) {
      assert.equal(parseLinkReference(raw, DEFAULT), null, `expected null for ${JSON.stringify(raw)}`);
    }
  });
});

// Properties of parseLinkReference (DELETE /v2/links/{link} and the CLI's LINK) over machine-made input.

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
