import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
