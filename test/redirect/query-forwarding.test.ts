// The visitor's query string added to a destination (decision 0015): the rules, one by one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { URL_MAX_LENGTH } from '../../src/net/normalize-url.js';
import { withVisitorQuery } from '../../src/redirect/query-forwarding.js';

describe('withVisitorQuery', () => {
  it('adds the visitor’s parameters, in order, to a destination without a query', () => {
    assert.equal(withVisitorQuery('https://example.com/p', 'utm_source=news&ref=x'), 'https://example.com/p?utm_source=news&ref=x');
    assert.equal(withVisitorQuery('https://example.com/p?', 'a=1'), 'https://example.com/p?a=1');
  });

  it('adds them after the destination’s own; the destination’s value wins a clash (compared decoded)', () => {
    assert.equal(withVisitorQuery('https://example.com/p?utm_source=brief', 'utm_source=news&ref=x'), 'https://example.com/p?utm_source=brief&ref=x');
    assert.equal(withVisitorQuery('https://example.com/p?a%20b=1', 'a+b=2&a%20b=3&c=4'), 'https://example.com/p?a%20b=1&c=4');
    assert.equal(withVisitorQuery('https://example.com/p?a=1', 'a=2&a=3'), 'https://example.com/p?a=1');
  });

  it('keeps repeated and valueless parameters, and skips empty pieces', () => {
    assert.equal(withVisitorQuery('https://example.com/', 'tag=a&&tag=b&flag&'), 'https://example.com/?tag=a&tag=b&flag');
    assert.equal(withVisitorQuery('https://example.com/', '&&'), 'https://example.com/');
    assert.equal(withVisitorQuery('https://example.com/', ''), 'https://example.com/');
  });

  it('keeps the destination’s fragment at the end', () => {
    assert.equal(withVisitorQuery('https://example.com/p#top', 'a=1'), 'https://example.com/p?a=1#top');
    assert.equal(withVisitorQuery('https://example.com/p?q=1#top', 'a=1&q=2'), 'https://example.com/p?q=1&a=1#top');
  });

  it('keeps the visitor’s escapes and escapes what a Location header must not carry as it is', () => {
    assert.equal(withVisitorQuery('https://example.com/', 'q=a%20b+c&x=%E2%9C%93'), 'https://example.com/?q=a%20b+c&x=%E2%9C%93');
    assert.equal(withVisitorQuery('https://example.com/', 'q="<x>"&y=a b'), 'https://example.com/?q=%22%3Cx%3E%22&y=a%20b');
    // Node reads the request line as latin1: a raw UTF-8 byte is one character, escaped back to its byte.
    assert.equal(withVisitorQuery('https://example.com/', 'q=\u00e2\u009c\u0093'), 'https://example.com/?q=%E2%9C%93');
  });

  it('forwards nothing from a query that cannot be parsed', () => {
    for (const query of ['a=%zz', 'a=1&b=%', 'a=%4', 'q=\u2713']) {
      assert.equal(withVisitorQuery('https://example.com/p?k=v#f', query), 'https://example.com/p?k=v#f', query);
    }
  });

  it('forwards nothing when the result would pass the length limit of a destination', () => {
    const destination = `https://example.com/${'a'.repeat(URL_MAX_LENGTH - 30)}`;
    assert.equal(withVisitorQuery(destination, 'short=1'), `${destination}?short=1`);
    assert.equal(withVisitorQuery(destination, `long=${'b'.repeat(40)}`), destination);
  });
});
