import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RedirectCache } from '../../src/redirect/redirect-cache.js';
import { withSteps } from '../../src/redirect/steps/steps.js';
import { LinkIndex } from '../../src/redirect/structures/link-index.js';
import type { SyncLinkReads } from '../../src/storage/stores/links.js';

describe('LinkIndex', () => {
  it('answers what was put, per domain and case-sensitive key, and undefined for the rest', () => {
    const index = new LinkIndex(100);
    assert.equal(index.get('d', 'k'), undefined);
    assert.equal(index.put('d', 'k', 7, 'https://example.com/a', false), true);
    assert.equal(index.put('e', 'k', 8, 'https://example.com/b', true), true);
    assert.deepEqual(index.get('d', 'k'), { id: 7, url: 'https://example.com/a', blocked: false });
    assert.deepEqual(index.get('e', 'k'), { id: 8, url: 'https://example.com/b', blocked: true });
    assert.equal(index.get('d', 'K'), undefined);
    assert.equal(index.get('d', 'k2'), undefined);
    assert.equal(index.get('unknown', 'k'), undefined);
  });

  it('forgets a removed link until it is put again, with whatever it then resolves to', () => {
    const index = new LinkIndex(100);
    index.put('d', 'k', 1, 'https://example.com/old', false);
    index.remove('d', 'k');
    index.remove('d', 'never-there');
    assert.equal(index.get('d', 'k'), undefined);
    index.put('d', 'k', 2, 'https://example.com/a-longer-new-one', true);
    assert.deepEqual(index.get('d', 'k'), { id: 2, url: 'https://example.com/a-longer-new-one', blocked: true });
    index.put('d', 'k', 2, 'https://example.com/a-longer-new-one', false);
    assert.deepEqual(index.get('d', 'k'), { id: 2, url: 'https://example.com/a-longer-new-one', blocked: false });
    assert.equal(index.size, 1);
  });

  it('grows past the size it was made for, and every link stays findable', () => {
    const index = new LinkIndex(50_000, 10);
    for (let i = 0; i < 20_000; i++) assert.ok(index.put(`d${i % 3}`, `key${i}`, i + 1, `https://example.com/${'x'.repeat(i % 200)}/${i}`, false));
    for (let i = 0; i < 20_000; i++) {
      assert.deepEqual(index.get(`d${i % 3}`, `key${i}`), { id: i + 1, url: `https://example.com/${'x'.repeat(i % 200)}/${i}`, blocked: false });
      assert.equal(index.get(`d${(i + 1) % 3}`, `key${i}`), undefined);
    }
    assert.equal(index.size, 20_000);
  });

  it('refuses new links once it holds max, and keys it cannot store', () => {
    const index = new LinkIndex(2);
    assert.equal(index.put('d', 'a', 1, 'https://example.com/1', false), true);
    assert.equal(index.put('d', 'b', 2, 'https://example.com/2', false), true);
    assert.equal(index.put('d', 'c', 3, 'https://example.com/3', false), false);
    assert.equal(index.put('d', 'a', 1, 'https://example.com/1', true), true, 'a link it holds can still change');
    assert.equal(index.get('d', 'c'), undefined);
    assert.equal(new LinkIndex(10).put('d', 'é', 1, 'https://example.com/', false), false);
  });

  it('gives back http and https URLs (stored without their scheme) and any other URL exactly', () => {
    const index = new LinkIndex(10);
    const urls = ['http://example.com/a', 'https://example.com/b', 'https://', 'ftp://legacy.example/c', 'httpsx://odd/d'];
    for (const [i, url] of urls.entries()) index.put('d', `k${i}`, i + 1, url, false);
    for (const [i, url] of urls.entries()) assert.deepEqual(index.get('d', `k${i}`), { id: i + 1, url, blocked: false });
  });

  it('takes a new id or URL for a link it holds, and refuses a URL it has no room for', () => {
    const index = new LinkIndex(10);
    index.put('d', 'k', 1, 'https://example.com/a', false);
    index.put('d', 'k', 2, 'https://example.com/a', false);
    assert.deepEqual(index.get('d', 'k'), { id: 2, url: 'https://example.com/a', blocked: false });
    assert.equal(index.put('d', 'k', 2, `https://example.com/${'x'.repeat(20_000)}`, false), false);
    assert.equal(index.get('d', 'k'), undefined, 'what it cannot hold it forgets, rather than answer the old URL');
  });

  it('keeps a URL with characters outside ASCII intact', () => {
    const index = new LinkIndex(10);
    index.put('d', 'k', 1, 'https://example.com/päth?q=✓', false);
    assert.equal(index.get('d', 'k')?.url, 'https://example.com/päth?q=✓');
  });
});

describe('LinkIndex at the scale of the benchmark', () => {
  it('holds 200,000 links in typed arrays and finds each', () => {
    const index = new LinkIndex(200_000, 200_000);
    for (let i = 0; i < 200_000; i++) index.put('short.test', i.toString(36), i, `https://example.com/${i}`, false);
    for (let i = 0; i < 200_000; i += 7) assert.equal(index.get('short.test', i.toString(36))?.url, `https://example.com/${i}`);
  });
});

describe('RedirectCache with a LinkIndex', () => {
  const target = { id: 1, url: 'https://example.com/', blocked: false };
  /** A database with no links yet: the index starts empty and is filled by lookups. */
  const noLinks: SyncLinkReads = { target: () => null, highestId: () => 0, eachNewest: () => {}, releaseMemory: () => {} };
  const make = (indexMax: number) => {
    const cache = new RedirectCache({ max: 100, ttlMs: 60_000, missingTtlMs: 60_000, index: { max: indexMax, source: noLinks } });
    cache.loadIndex();
    return cache;
  };

  it('holds a link from its first lookup (no doorkeeper), and forgets it on invalidate', () => {
    const cache = make(10);
    cache.set('d', 'k', target, cache.snapshot());
    assert.deepEqual(cache.get('d', 'k'), target);
    cache.invalidate('d', 'k');
    assert.equal(cache.get('d', 'k'), undefined);
  });

  it('refuses a stale set, as without the index', () => {
    const cache = make(10);
    const snapshot = cache.snapshot();
    cache.invalidate('d', 'k');
    cache.set('d', 'k', target, snapshot);
    assert.equal(cache.get('d', 'k'), undefined);
  });

  it('keeps links with a password or an expiry out of the index: the LRU holds them, guard and steps and all', () => {
    const cache = make(10);
    // As the resolver hands it over: with the steps of its options (steps/steps.ts).
    const guarded = withSteps({ ...target, guard: { passwordHash: 'scrypt$x', expiresAt: null } })!;
    assert.equal(guarded.steps?.length, 1, 'one step: the password gate');
    cache.set('d', 'g', guarded, cache.snapshot());
    assert.equal(cache.get('d', 'g'), undefined, 'not in the index after one miss');
    cache.set('d', 'g', guarded, cache.snapshot()); // its second miss: into the LRU
    assert.deepEqual(cache.get('d', 'g'), guarded);
  });

  it('keeps misses in the LRU, and links the full index has no room for', () => {
    const cache = make(1);
    cache.set('d', 'a', target, cache.snapshot());
    cache.set('d', 'b', { ...target, id: 2 }, cache.snapshot());
    cache.set('d', 'b', { ...target, id: 2 }, cache.snapshot()); // its second miss: into the LRU
    cache.set('d', 'gone', null, cache.snapshot());
    cache.set('d', 'gone', null, cache.snapshot());
    assert.deepEqual(cache.get('d', 'a'), target);
    assert.deepEqual(cache.get('d', 'b'), { ...target, id: 2 });
    assert.equal(cache.get('d', 'gone'), null);
    cache.invalidate('d', 'gone');
    assert.equal(cache.get('d', 'gone'), undefined);
  });
});
