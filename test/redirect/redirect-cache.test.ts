import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RedirectCache } from '../../src/redirect/redirect-cache.js';
import { Doorkeeper } from '../../src/redirect/structures/doorkeeper.js';
import type { LinkTarget } from '../../src/storage/stores/links.js';

const target = { id: 1, url: 'https://example.com/', blocked: false };
const make = (max = 100) => new RedirectCache({ max, ttlMs: 60_000, missingTtlMs: 60_000 });
/** What the redirect service does on two misses in a row: the second one is let in. */
const fill = (cache: RedirectCache, domain: string, key: string, value: LinkTarget | null) => {
  cache.set(domain, key, value, cache.snapshot());
  cache.set(domain, key, value, cache.snapshot());
};

describe('RedirectCache', () => {
  it('returns undefined when it has no answer, the target on a hit', () => {
    const cache = make();
    assert.equal(cache.get('d', 'k'), undefined);
    fill(cache, 'd', 'k', target);
    assert.deepEqual(cache.get('d', 'k'), target);
    assert.equal(cache.get('other', 'k'), undefined);
    assert.equal(cache.get('d', 'K'), undefined);
  });

  it('caches a miss as null', () => {
    const cache = make();
    fill(cache, 'd', 'gone', null);
    assert.equal(cache.get('d', 'gone'), null);
  });

  it('forgets an entry on invalidate', () => {
    const cache = make();
    fill(cache, 'd', 'k', target);
    fill(cache, 'd', 'j', null);
    cache.invalidate('d', 'k');
    cache.invalidate('d', 'j');
    assert.equal(cache.get('d', 'k'), undefined);
    assert.equal(cache.get('d', 'j'), undefined);
  });

  it('refuses a set whose lookup started before an invalidation (stale set)', () => {
    const cache = make();
    cache.set('d', 'k', target, cache.snapshot()); // a first miss: the doorkeeper now knows the key
    const snapshot = cache.snapshot();
    cache.invalidate('d', 'k'); // the link changed while the lookup was reading the old row
    cache.set('d', 'k', target, snapshot);
    assert.equal(cache.get('d', 'k'), undefined);
    cache.set('d', 'k', target, cache.snapshot());
    assert.deepEqual(cache.get('d', 'k'), target);
  });

  it('stores nothing when its size is 0', () => {
    const cache = make(0);
    fill(cache, 'd', 'k', target);
    assert.equal(cache.get('d', 'k'), undefined);
    assert.equal(cache.size, 0);
  });

  it('is bounded in entries', () => {
    const cache = make(10);
    for (let i = 0; i < 50; i++) fill(cache, 'd', `k${i}`, { ...target, id: i });
    assert.equal(cache.size, 10);
  });

  it('lets a key in on its second miss, not its first, so a scan of one-off keys evicts nothing', () => {
    const cache = make(10);
    for (let i = 0; i < 5; i++) fill(cache, 'd', `hot${i}`, { ...target, id: i });
    for (let i = 0; i < 50; i++) cache.set('d', `once${i}`, { ...target, id: 100 + i }, cache.snapshot());
    assert.equal(cache.size, 5);
    for (let i = 0; i < 5; i++) assert.deepEqual(cache.get('d', `hot${i}`), { ...target, id: i });
    assert.equal(cache.get('d', 'once49'), undefined);
    cache.set('d', 'once49', null, cache.snapshot()); // its second miss within the window (the last 10 keys)
    assert.equal(cache.get('d', 'once49'), null);
  });
});

describe('Doorkeeper', () => {
  it('admits a key the second time it is offered, per domain', () => {
    const door = new Doorkeeper(100);
    assert.equal(door.admit('d', 'k'), false);
    assert.equal(door.admit('e', 'k'), false);
    assert.equal(door.admit('d', 'k'), true);
    assert.equal(door.admit('e', 'k'), true);
  });

  it('forgets what it saw after `window` new keys', () => {
    const door = new Doorkeeper(100);
    assert.equal(door.admit('d', 'first'), false);
    let admitted = 0;
    for (let i = 0; i < 99; i++) if (door.admit('d', `k${i}`)) admitted++;
    // ~8 bits per key: a few collisions are expected (the keys are fixed, so the count is too).
    assert.ok(admitted <= 10, `${admitted} of 99 unseen keys admitted (collisions)`);
    assert.equal(door.admit('d', 'first'), false);
  });
});
