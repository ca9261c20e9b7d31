import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RedirectCache } from '../../src/redirect/redirect-cache.js';

const target = { id: 1, url: 'https://example.com/', blocked: false };
const make = (max = 100) => new RedirectCache({ max, ttlMs: 60_000, missingTtlMs: 60_000 });

describe('RedirectCache', () => {
  it('returns undefined when it has no answer, the target on a hit', () => {
    const cache = make();
    assert.equal(cache.get('d', 'k'), undefined);
    cache.set('d', 'k', target, cache.snapshot());
    assert.deepEqual(cache.get('d', 'k'), target);
    assert.equal(cache.get('other', 'k'), undefined);
    assert.equal(cache.get('d', 'K'), undefined);
  });

  it('caches a miss as null', () => {
    const cache = make();
    cache.set('d', 'gone', null, cache.snapshot());
    assert.equal(cache.get('d', 'gone'), null);
  });

  it('forgets an entry on invalidate', () => {
    const cache = make();
    cache.set('d', 'k', target, cache.snapshot());
    cache.set('d', 'j', null, cache.snapshot());
    cache.invalidate('d', 'k');
    cache.invalidate('d', 'j');
    assert.equal(cache.get('d', 'k'), undefined);
    assert.equal(cache.get('d', 'j'), undefined);
  });

  it('refuses a set whose lookup started before an invalidation (stale set)', () => {
    const cache = make();
    const snapshot = cache.snapshot();
    cache.invalidate('d', 'k'); // the link changed while the lookup was reading the old row
    cache.set('d', 'k', target, snapshot);
    assert.equal(cache.get('d', 'k'), undefined);
    cache.set('d', 'k', target, cache.snapshot());
    assert.deepEqual(cache.get('d', 'k'), target);
  });

  it('stores nothing when its size is 0', () => {
    const cache = make(0);
    cache.set('d', 'k', target, cache.snapshot());
    assert.equal(cache.get('d', 'k'), undefined);
    assert.equal(cache.size, 0);
  });

  it('is bounded in entries', () => {
    const cache = make(10);
    for (let i = 0; i < 50; i++) cache.set('d', `k${i}`, { ...target, id: i }, cache.snapshot());
    assert.equal(cache.size, 10);
  });
});
