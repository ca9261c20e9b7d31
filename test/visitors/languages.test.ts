// Accept-Language read as the languages a visitor accepts, with their weights.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptedLanguages, languageTag } from '../../src/visitors/languages.js';

describe('accepted languages', () => {
  it('lists the tags by weight, equal weights in the header order, lower-case', () => {
    assert.deepEqual(acceptedLanguages('fr;q=0.5, en-GB, de;q=0.8, en;q=0.8'), [
      { tag: 'en-gb', q: 1 },
      { tag: 'de', q: 0.8 },
      { tag: 'en', q: 0.8 },
      { tag: 'fr', q: 0.5 },
    ]);
  });

  it('leaves out what the visitor refuses (q=0), `*` and malformed entries', () => {
    assert.deepEqual(acceptedLanguages('en;q=0, de;q=0.000, *;q=0.1, fr;q=1.5, es;q=abc, x_Y'), [{ tag: 'x-y', q: 1 }]);
    assert.deepEqual(acceptedLanguages('*'), []);
    assert.deepEqual(acceptedLanguages(''), []);
    assert.deepEqual(acceptedLanguages(undefined), []);
  });

  it('reads at most 32 entries of a long header', () => {
    const header = Array.from({ length: 100 }, (_, i) => `l${String.fromCharCode(97 + (i % 26))}`).join(',');
    assert.equal(acceptedLanguages(header).length, 32);
  });

  it('writes a tag in one form, or says it is none', () => {
    assert.equal(languageTag(' en_GB '), 'en-gb');
    assert.equal(languageTag('zh-Hant-TW'), 'zh-hant-tw');
    for (const text of ['*', '', 'en-', '1en', 'en GB', 'x'.repeat(36)]) assert.equal(languageTag(text), null, text);
  });
});
