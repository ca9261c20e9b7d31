// The UTM builder's URL logic (web/src/utm/utm-params.ts): the five utm_ parameters read from and written into a URL
// as typed, everything else of it kept as typed; what the link will go to, as the server stores it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { normalizeUrl } from '../../../src/net/normalize-url.js';
import { destination, hasUtm, readUtm, UTM_KEYS, writeUtm } from '../../../web/src/utm/utm-params.js';

const NONE = { utm_source: '', utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '' };

describe('readUtm and hasUtm', () => {
  it('reads the five parameters, decoded, and leaves the absent ones empty', () => {
    assert.deepEqual(readUtm('https://example.com/p?a=1&utm_source=news%20letter&utm_medium=e+mail&utm_campaign=caf%C3%A9#top'), {
      ...NONE,
      utm_source: 'news letter',
      utm_medium: 'e mail',
      utm_campaign: 'café',
    });
    assert.deepEqual(readUtm('https://example.com/?utm_term=a%26b%3Dc&utm_content=caf\u00e9'), { ...NONE, utm_term: 'a&b=c', utm_content: 'café' });
    assert.deepEqual(readUtm('https://example.com/'), NONE);
    assert.equal(hasUtm('https://example.com/?a=1'), false);
    assert.equal(hasUtm('https://example.com/?utm_id=7&utm_sourcery=1'), false, 'only the five');
    assert.equal(hasUtm('https://example.com/?a=1&utm_content='), true, 'an empty one counts');
  });

  it('takes a key in any case (and percent-encoded), the first of a key given twice, and a pair without "="', () => {
    assert.deepEqual(readUtm('https://example.com/?UTM_Source=Mail&Utm_Medium=x'), { ...NONE, utm_source: 'Mail', utm_medium: 'x' });
    assert.deepEqual(readUtm('https://example.com/?utm%5Fsource=a&utm_source=b'), { ...NONE, utm_source: 'a' });
    assert.deepEqual(readUtm('https://example.com/?utm_source&utm_medium=m'), { ...NONE, utm_medium: 'm' });
    assert.equal(hasUtm('https://example.com/?UTM_CAMPAIGN=x'), true);
  });

  it('reads only the query: not a "?" or a utm_ pair in the fragment', () => {
    assert.deepEqual(readUtm('https://example.com/#/route?utm_source=no'), NONE);
    assert.deepEqual(readUtm('https://example.com/?utm_source=yes#x?utm_source=no'), { ...NONE, utm_source: 'yes' });
    assert.equal(hasUtm('https://example.com/#utm_source=x'), false);
  });

  it('keeps a broken escape as typed rather than throw, and reads text that is no URL', () => {
    assert.deepEqual(readUtm('https://example.com/?utm_source=100%&utm_medium=%E0%A4%A'), { ...NONE, utm_source: '100%', utm_medium: '%E0%A4%A' });
    assert.deepEqual(readUtm('not a url ?utm_campaign=x'), { ...NONE, utm_campaign: 'x' });
  });
});

describe('writeUtm', () => {
  it('adds a parameter after the others, keeping their order, their encoding and the fragment', () => {
    assert.equal(writeUtm('https://example.com/p', 'utm_source', 'news'), 'https://example.com/p?utm_source=news');
    assert.equal(
      writeUtm('https://example.com/p?b=2&a=1+1&flag&x=%7E#frag?not=query', 'utm_source', 'news'),
      'https://example.com/p?b=2&a=1+1&flag&x=%7E&utm_source=news#frag?not=query',
    );
    assert.equal(writeUtm('https://example.com/p?#f', 'utm_medium', 'email'), 'https://example.com/p?utm_medium=email#f');
    assert.equal(writeUtm('https://example.com/p?a=1&', 'utm_medium', 'email'), 'https://example.com/p?a=1&utm_medium=email');
    let url = 'https://example.com/?z=0';
    for (const key of ['utm_campaign', 'utm_source', 'utm_medium'] as const) url = writeUtm(url, key, key.slice(4));
    assert.equal(url, 'https://example.com/?z=0&utm_campaign=campaign&utm_source=source&utm_medium=medium', 'in the order they were set');
  });

  it('replaces a parameter in its place', () => {
    assert.equal(writeUtm('https://example.com/?a=1&utm_source=old&b=2#f', 'utm_source', 'new'), 'https://example.com/?a=1&utm_source=new&b=2#f');
  });

  it('encodes spaces, &, =, #, +, % and non-ASCII so the value reads back whole', () => {
    const value = 'spring sale & more = 50% +1 #1 café 🎉 ü/?';
    const written = writeUtm('https://example.com/?a=1#f', 'utm_campaign', value);
    assert.equal(
      written,
      'https://example.com/?a=1&utm_campaign=spring%20sale%20%26%20more%20%3D%2050%25%20%2B1%20%231%20caf%C3%A9%20%F0%9F%8E%89%20%C3%BC%2F%3F#f',
    );
    assert.equal(readUtm(written).utm_campaign, value);
    assert.equal(new URL(written).searchParams.get('utm_campaign'), value, 'as the WHATWG parser (and an analytics tool) reads it');
    assert.equal(new URL(written).hash, '#f');
  });

  it('turns half an emoji into U+FFFD rather than throw', () => {
    assert.equal(readUtm(writeUtm('https://example.com/', 'utm_term', 'a\uD83Cb')).utm_term, 'a\uFFFDb');
  });

  it('removes a parameter when its value is emptied, and the "?" when nothing is left', () => {
    assert.equal(writeUtm('https://example.com/?a=1&utm_source=x&b=2', 'utm_source', ''), 'https://example.com/?a=1&b=2');
    assert.equal(writeUtm('https://example.com/p?utm_source=x#frag', 'utm_source', ''), 'https://example.com/p#frag');
    assert.equal(writeUtm('https://example.com/p?utm_source=x&utm_medium=y', 'utm_source', ''), 'https://example.com/p?utm_medium=y');
  });

  it('leaves the URL as typed when an absent parameter is emptied', () => {
    assert.equal(writeUtm('https://example.com/p?#f', 'utm_term', ''), 'https://example.com/p?#f');
    assert.equal(writeUtm('  https://example.com/p?a  ', 'utm_term', ''), 'https://example.com/p?a');
  });

  it('takes a key in another case for the same parameter: replaced in its place in lower case, or removed', () => {
    assert.equal(writeUtm('https://example.com/?UTM_Source=Mail&a=1', 'utm_source', 'mail'), 'https://example.com/?utm_source=mail&a=1');
    assert.equal(writeUtm('https://example.com/?a=1&UTM_Source=Mail', 'utm_source', ''), 'https://example.com/?a=1');
    assert.equal(
      writeUtm('https://example.com/?UTM_SOURCE=x', 'utm_medium', 'y'),
      'https://example.com/?UTM_SOURCE=x&utm_medium=y',
      'another key in upper case is left as typed',
    );
  });

  it('keeps one pair of a key given twice: the first, replaced; removing drops them all', () => {
    assert.equal(writeUtm('https://example.com/?utm_source=a&b=1&UTM_SOURCE=c', 'utm_source', 'z'), 'https://example.com/?utm_source=z&b=1');
    assert.equal(writeUtm('https://example.com/?utm_source=a&b=1&utm_source=c', 'utm_source', ''), 'https://example.com/?b=1');
  });

  it('works on a URL typed without a scheme, leaving it so (the shorten form adds https:// when it sends)', () => {
    assert.equal(writeUtm('example.com/page?x=1', 'utm_source', 'a'), 'example.com/page?x=1&utm_source=a');
  });
});

describe('destination (the preview)', () => {
  it('is the URL as the server stores it', () => {
    assert.equal(destination(' HTTPS://Example.COM/a/../b?utm_source=x#f '), 'https://example.com/b?utm_source=x#f');
    assert.equal(destination('https://bücher.example/?utm_campaign=caf%C3%A9'), 'https://xn--bcher-kva.example/?utm_campaign=caf%C3%A9');
  });

  it('is null for what the server refuses: no scheme, another scheme, no host, not a URL', () => {
    for (const text of [
      '',
      '   ',
      'example.com/page',
      'http:example.com',
      'ftp://example.com/',
      'mailto:a@example.com',
      'https://',
      'https://exa mple.com/',
      'http://[::1/',
    ]) {
      assert.equal(destination(text), null, text);
    }
  });

  // Checked against the server's own parser: the preview is exactly what it will store, and null where it refuses.
  it('agrees with the server on what it accepts and what it refuses (property)', () => {
    const stored = (raw: string) => {
      try {
        return normalizeUrl(raw).href;
      } catch {
        return null;
      }
    };
    const typed = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.tuple(fc.constantFrom('', 'https://', 'http:', 'ftp://', 'HTTP://', '//'), fc.string()).map(([scheme, rest]) => scheme + rest),
    );
    fc.assert(
      fc.property(typed, (raw) => assert.equal(destination(raw), stored(raw))),
      { numRuns: 2000 },
    );
  });
});

describe('writeUtm and readUtm (properties)', () => {
  const otherPair = fc
    .tuple(fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/), fc.stringMatching(/^[A-Za-z0-9%+~.-]{0,8}$/))
    .filter(([key]) => !key.startsWith('utm_'))
    .map(([key, value]) => `${key}=${value}`);
  const base = fc.constantFrom('https://example.com', 'https://example.com/', 'http://a.example:8080/p/q', 'example.com/x');
  const fragment = fc.constantFrom('', '#', '#top', '#/r?utm_source=no&x=1');
  const key = fc.constantFrom(...UTM_KEYS);

  it('reads back what was written, keeps every other pair in its order, the base and the fragment', () => {
    fc.assert(
      fc.property(base, fc.array(otherPair, { maxLength: 5 }), fragment, key, fc.string({ unit: 'grapheme' }), (start, others, hash, utm, value) => {
        const url = `${start}${others.length ? `?${others.join('&')}` : ''}${hash}`;
        const written = writeUtm(url, utm, value);
        assert.equal(readUtm(written)[utm], value);
        assert.ok(written.startsWith(start) && written.endsWith(hash));
        const query = written.slice(start.length, written.length - hash.length).replace(/^\?/, '');
        assert.deepEqual(
          query.split('&').filter((pair) => pair !== '' && !pair.startsWith('utm_')),
          others.filter((pair) => pair !== ''),
        );
        // Emptied again, it is the URL it was.
        assert.equal(writeUtm(written, utm, ''), url);
      }),
      { numRuns: 2000 },
    );
  });
});
