import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { urlHash } from '../../src/links/url-hash.js';

// Links stored before keep their url_hash: the key must stay exactly SHA-256 of the URL's UTF-8 bytes,
// whatever call computes it, or dedupe would stop finding them.
describe('urlHash', () => {
  it('is the SHA-256 of the URL, as the links stored before were keyed', () => {
    for (const url of ['https://example.com/', 'https://exämple.com/päth?q=ü#x', `https://example.com/${'a'.repeat(5000)}`]) {
      const got = urlHash(url);
      assert.ok(Buffer.isBuffer(got));
      assert.deepEqual(got, createHash('sha256').update(url, 'utf8').digest());
    }
  });
});
