// The shorten form's completion of what a person types (web/src/typed-url.ts): https:// where no scheme was typed,
// anything with a scheme left for the API to judge (the API itself stays strict).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withScheme } from '../../web/src/typed-url.js';

describe('withScheme (the shorten form)', () => {
  it('adds https:// to a host and path typed without a scheme', () => {
    assert.equal(withScheme('example.com/page'), 'https://example.com/page');
    assert.equal(withScheme('  www.example.com  '), 'https://www.example.com');
    assert.equal(withScheme('//example.com/x'), 'https://example.com/x');
    assert.equal(withScheme('example.com/a?b=c#d'), 'https://example.com/a?b=c#d');
  });

  it('takes a host with a port for a host, not a scheme', () => {
    assert.equal(withScheme('localhost:3000/x'), 'https://localhost:3000/x');
    assert.equal(withScheme('example.com:8080/x'), 'https://example.com:8080/x');
  });

  it('leaves a URL with a scheme as typed, whatever the scheme, and an empty field empty', () => {
    for (const typed of ['https://example.com', 'http://example.com/x', 'HTTP://EXAMPLE.COM', 'ftp://example.com/x', 'mailto:a@example.com']) {
      assert.equal(withScheme(typed), typed);
    }
    assert.equal(withScheme('   '), '');
  });
});
