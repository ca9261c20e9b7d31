// Issue 4: on SQLite the newest links are loaded into an in-memory index at start
// (docs/decisions/0002-in-memory-link-index.md); it must stay exact through the change feed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { RedirectCache } from '../../src/redirect/redirect-cache.js';
import { BASE_HOST, buildTestApp, eventually, TEST_ENV, type TestApp } from '../support/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

const config = loadConfig(TEST_ENV);

describe('link index (sqlite)', () => {
  let db: TestDatabase;
  let t: TestApp;
  const links = { live: '', blocked: '', deleted: '', newest: '' };

  before(async () => {
    db = await openTestDatabase('sqlite');
    t = await buildTestApp(db.database);
    const caller = await t.accounts.anonymousCaller();
    links.live = (await t.links.shorten(caller, { url: 'https://example.com/live' })).code;
    links.blocked = (await t.links.shorten(caller, { url: 'https://example.com/blocked' })).code;
    await t.links.setStatus(links.blocked, 'blocked');
    const owner = await t.account();
    const ownerCaller = { accountId: owner.id, anonymous: false };
    links.deleted = (await t.links.shorten(ownerCaller, { url: 'https://example.com/deleted' })).code;
    await t.links.delete(ownerCaller, links.deleted);
    links.newest = (await t.links.shorten(caller, { url: 'https://example.com/newest' })).code;
  });
  after(async () => {
    await t.close();
    await db.cleanup();
  });

  /** A cache of size 0, with an index of up to `max` links of the test database, loaded. */
  const loaded = (max: number) => {
    const source = db.database.links.syncReads;
    assert.ok(source, 'a SQLite file reads synchronously');
    const cache = new RedirectCache({ max: 0, ttlMs: 60_000, missingTtlMs: 60_000, index: { max, source } });
    return { cache, count: cache.loadIndex() };
  };

  it('loads every live link, blocked ones too, and answers them with no database read', () => {
    const { cache, count } = loaded(1000);
    assert.equal(count, 3);
    // A cache of size 0 has nothing but the index to answer from.
    const live = cache.get(BASE_HOST, links.live);
    assert.ok(live && live.id > 0);
    assert.deepEqual(live, { id: live.id, url: 'https://example.com/live', blocked: false });
    assert.equal(cache.get(BASE_HOST, links.blocked)?.blocked, true);
    assert.equal(cache.get(BASE_HOST, links.deleted), undefined);
  });

  it('loads the newest links when there are more than it may hold', () => {
    const { cache, count } = loaded(1);
    assert.equal(count, 1);
    assert.equal(cache.get(BASE_HOST, links.newest)?.url, 'https://example.com/newest');
    assert.equal(cache.get(BASE_HOST, links.live), undefined);
    assert.equal(cache.get(BASE_HOST, links.blocked), undefined);
  });

  it('loads nothing when LINK_INDEX_MAX is 0', () => {
    assert.equal(loaded(0).count, 0);
    const withoutIndex = new RedirectCache({ max: 0, ttlMs: 60_000, missingTtlMs: 60_000 });
    assert.equal(withoutIndex.loadIndex(), 0, 'no index, nothing loaded');
    assert.equal(loadConfig({ ...TEST_ENV, LINK_INDEX_MAX: '0' }).linkIndexMax, 0);
    assert.equal(config.linkIndexMax, 2_000_000);
  });

  it('drops a preloaded link that is blocked, unblocked or deleted elsewhere (the link_changes feed)', async () => {
    // A second app on the same file: its index is loaded at start, so it never read these links itself.
    const other = await buildTestApp(db.database);
    try {
      const visit = (key: string) => other.app.inject({ url: `/${key}`, headers: { host: BASE_HOST } });
      assert.equal((await visit(links.live)).statusCode, 301);
      assert.equal((await visit(links.blocked)).statusCode, 410);
      assert.equal((await visit(links.deleted)).statusCode, 404);
      await t.links.setStatus(links.live, 'blocked');
      assert.ok(await eventually(async () => (await visit(links.live)).statusCode === 410), 'answers 410 after a block elsewhere');
      await t.links.setStatus(links.live, 'public');
      assert.ok(await eventually(async () => (await visit(links.live)).statusCode === 301), 'redirects after an unblock elsewhere');
      const owner = await t.account();
      const caller = { accountId: owner.id, anonymous: false };
      const mine = await t.links.shorten(caller, { url: 'https://example.com/mine' });
      assert.equal((await visit(mine.code)).statusCode, 301, 'a link made elsewhere after start is read from the database');
      await t.links.delete(caller, mine.code);
      assert.ok(await eventually(async () => (await visit(mine.code)).statusCode === 404), 'answers 404 after a delete elsewhere');
    } finally {
      await other.close();
    }
  });
});
