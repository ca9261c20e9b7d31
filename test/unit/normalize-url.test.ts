import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BriefError } from '../../src/errors.js';
import { statusOf } from '../../src/http/error-status.js';
import { normalizeUrl, URL_MAX_LENGTH } from '../../src/net/normalize-url.js';

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
