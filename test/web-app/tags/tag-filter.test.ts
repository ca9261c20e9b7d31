// A page's filter by tags (web/src/tags/tag-filter.ts): read from and written into the page's URL query, and sent
// to the API as its own parameters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeFilter, filterOfSearch, filterQuery, isFiltering, NO_FILTER, searchWithFilter } from '../../../web/src/tags/tag-filter.js';

describe('the filter in the URL query', () => {
  it('reads tags, tagMode and excludeTags, each name once whatever its case', () => {
    assert.deepEqual(filterOfSearch('?tags=launch,News,%C3%A9t%C3%A9,LAUNCH&tagMode=all&excludeTags=archive'), {
      tags: ['launch', 'News', 'été'],
      mode: 'all',
      exclude: ['archive'],
    });
    assert.deepEqual(filterOfSearch('?tags=a%2Cb'), { tags: ['a', 'b'], mode: 'any', exclude: [] });
  });

  it('reads no filter from a query without one, and any mode but all as any', () => {
    assert.deepEqual(filterOfSearch(''), NO_FILTER);
    assert.deepEqual(filterOfSearch('?tagMode=sometimes&tags=,'), NO_FILTER);
  });

  it('writes names joined by commas, escaped, tagMode only when all, keeping the query’s other parameters', () => {
    assert.equal(
      searchWithFilter('', { tags: ['launch', 'a&b=c #1'], mode: 'all', exclude: ['old'] }),
      '?tags=launch,a%26b%3Dc%20%231&tagMode=all&excludeTags=old',
    );
    assert.equal(searchWithFilter('?page=2&tags=x&tagMode=all', { tags: ['y'], mode: 'any', exclude: [] }), '?page=2&tags=y');
    assert.equal(searchWithFilter('?tags=x', NO_FILTER), '');
    // All with no tags to match says nothing.
    assert.equal(searchWithFilter('', { tags: [], mode: 'all', exclude: ['z'] }), '?excludeTags=z');
  });

  it('reads back what it writes', () => {
    const filter = { tags: ['été', 'a+b', '50%'], mode: 'all' as const, exclude: ['x y'] };
    assert.deepEqual(filterOfSearch(searchWithFilter('', filter)), filter);
  });
});

describe('the filter for the API and in words', () => {
  it('sends only the parameters that filter', () => {
    assert.deepEqual(filterQuery(NO_FILTER), {});
    assert.deepEqual(filterQuery({ tags: ['a', 'b'], mode: 'all', exclude: [] }), { tags: 'a,b', tagMode: 'all' });
    assert.deepEqual(filterQuery({ tags: [], mode: 'any', exclude: ['c'] }), { excludeTags: 'c' });
    assert.ok(!isFiltering({ ...NO_FILTER, mode: 'all' }));
    assert.ok(isFiltering({ ...NO_FILTER, exclude: ['c'] }));
  });

  it('says the filter in words', () => {
    assert.equal(describeFilter({ tags: ['a', 'b'], mode: 'any', exclude: ['c'] }), 'tagged “a” or “b”, not tagged “c”');
    assert.equal(describeFilter({ tags: ['a', 'b'], mode: 'all', exclude: [] }), 'tagged “a” and “b”');
  });
});
