// Issue 2, API behaviour 6: redirects by Host, blocked links, REDIRECT_STATUS, click counting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASE_HOST, buildTestApp, eventually, PUBLIC_HOST, qs, type TestApp, useTestApp } from '../support/app.js';
import { dialects, storedClicks } from '../support/database.js';

let counter = 0;
const freshUrl = () => `https://example.com/redirect/${Date.now()}-${++counter}?q=1#top`;

async function make(t: TestApp, params: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ url: `/v2/shorten?${qs({ url: freshUrl(), ...params })}`, headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

for (const dialect of dialects) {
  describe(`redirects (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    const visit = (host: string, key: string, method: 'GET' | 'HEAD' = 'GET', t = ctx.t) =>
      t.app.inject({ method, url: `/${key}`, headers: { host } });

    it('answers GET and HEAD with 301, Location = the stored URL and a short private cache', async () => {
      const link = await make(ctx.t);
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await visit(BASE_HOST, link.code, method);
        assert.equal(res.statusCode, 301, method);
        assert.equal(res.headers.location, link.url);
        assert.equal(res.headers['cache-control'], 'private, max-age=90');
      }
    });

    it('redirects by slug', async () => {
      const link = await make(ctx.t, { slug: 'go-there' });
      const res = await visit(BASE_HOST, 'go-there');
      assert.equal(res.statusCode, 301);
      assert.equal(res.headers.location, link.url);
    });

    it('chooses the domain by the Host header, case-insensitively', async () => {
      const account = await ctx.t.account();
      const own = await ctx.t.privateDomain(account.id);
      const onPublic = await make(ctx.t, { domain: PUBLIC_HOST });
      const onOwn = await make(ctx.t, { domain: own }, account.headers);
      assert.equal((await visit(PUBLIC_HOST, onPublic.code)).headers.location, onPublic.url);
      assert.equal((await visit('PUB.Test', onPublic.code)).headers.location, onPublic.url);
      assert.equal((await visit(own, onOwn.code)).headers.location, onOwn.url);
      assert.equal((await visit(own.toUpperCase(), onOwn.code)).headers.location, onOwn.url);
      const base = await make(ctx.t);
      assert.equal((await visit('SHORT.TEST', base.code)).statusCode, 301);
    });

    it('serves a link only on its own domain', async () => {
      const account = await ctx.t.account();
      const own = await ctx.t.privateDomain(account.id);
      const onPublic = await make(ctx.t, { domain: PUBLIC_HOST, slug: 'only-here' });
      assert.equal((await visit(BASE_HOST, 'only-here')).statusCode, 404);
      assert.equal((await visit(own, 'only-here')).statusCode, 404);
      assert.equal((await visit(PUBLIC_HOST, 'only-here')).headers.location, onPublic.url);
      const base = await make(ctx.t);
      assert.equal((await visit(PUBLIC_HOST, base.code)).statusCode, 404);
    });

    it('answers an unknown key with a small 404 HTML page, for GET and HEAD', async () => {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await visit(BASE_HOST, 'NoSuchKey', method);
        assert.equal(res.statusCode, 404);
        assert.match(res.headers['content-type'] as string, /^text\/html/);
        assert.equal(res.headers.location, undefined);
        if (method === 'GET') assert.match(res.body, /<html[\s\S]*not found/i);
      }
    });

    it('answers a Host that is no domain as the default domain (decision 0015)', async () => {
      const link = await make(ctx.t);
      const res = await visit('nowhere.test', link.code);
      assert.equal(res.statusCode, 301);
      assert.equal(res.headers.location, link.url);
      assert.equal((await visit('short.test.evil.test', link.code)).headers.location, link.url);
    });

    it('answers 404 for a deleted link', async () => {
      const account = await ctx.t.account();
      const link = await make(ctx.t, {}, account.headers);
      await ctx.t.app.inject({ method: 'DELETE', url: `/v2/links/${link.code}`, headers: account.headers });
      const res = await visit(BASE_HOST, link.code);
      assert.equal(res.statusCode, 404);
      assert.match(res.headers['content-type'] as string, /^text\/html/);
    });

    it('answers 410 with an HTML page for a blocked link, and redirects again when unblocked', async () => {
      const link = await make(ctx.t);
      const blocked = await ctx.t.links.setStatus(link.code, 'blocked');
      assert.equal(blocked.status, 'blocked');
      const res = await visit(BASE_HOST, link.code);
      assert.equal(res.statusCode, 410);
      assert.match(res.headers['content-type'] as string, /^text\/html/);
      assert.match(res.body, /disabled/i);
      assert.equal(res.headers.location, undefined);
      assert.equal((await visit(BASE_HOST, link.code, 'HEAD')).statusCode, 410);
      await ctx.t.links.setStatus(link.code, 'public');
      assert.ok(await eventually(async () => (await visit(BASE_HOST, link.code)).statusCode === 301), 'redirects again after unblock');
    });

    it('notices a block made elsewhere (the link_changes feed) for a link it has cached', async () => {
      const link = await make(ctx.t);
      assert.equal((await visit(BASE_HOST, link.code)).statusCode, 301);
      assert.equal((await visit(BASE_HOST, link.code)).statusCode, 301); // cached now: a second visit lets it in
      await ctx.t.links.setStatus(link.code, 'blocked');
      assert.ok(await eventually(async () => (await visit(BASE_HOST, link.code)).statusCode === 410), 'answers 410 after the block');
    });

    for (const [status, cacheControl] of [
      [302, false],
      [307, false],
      [308, true],
      [301, true],
    ] as const) {
      it(`answers REDIRECT_STATUS=${status}${cacheControl ? ' with' : ' without'} the 90 s private cache`, async () => {
        const t = await buildTestApp(ctx.db.database, { REDIRECT_STATUS: String(status) });
        try {
          const link = await make(t);
          for (const method of ['GET', 'HEAD'] as const) {
            const res = await visit(BASE_HOST, link.code, method, t);
            assert.equal(res.statusCode, status);
            assert.equal(res.headers.location, link.url);
            if (cacheControl) assert.equal(res.headers['cache-control'], 'private, max-age=90');
            else assert.doesNotMatch(String(res.headers['cache-control'] ?? ''), /max-age=[1-9]/);
          }
        } finally {
          await t.close();
        }
      });
    }

    it('counts GET clicks in memory, writes them on flush, and does not count HEAD', async () => {
      // A long flush interval: only closing the app (which flushes) writes the counts.
      const t = await buildTestApp(ctx.db.database, { CLICK_FLUSH_MS: '600000' });
      const clicks = (code: string) => storedClicks(ctx.t.database, code);
      const a = await make(t);
      const b = await make(t, { slug: 'counted-here' });
      try {
        for (let i = 0; i < 5; i++) assert.equal((await visit(BASE_HOST, a.code, 'GET', t)).statusCode, 301);
        for (let i = 0; i < 3; i++) assert.equal((await visit(BASE_HOST, a.code, 'HEAD', t)).statusCode, 301);
        for (let i = 0; i < 2; i++) assert.equal((await visit(BASE_HOST, 'counted-here', 'GET', t)).statusCode, 301);
        assert.equal(await clicks(a.code), 0, 'no database write on the request path');
      } finally {
        await t.close();
      }
      assert.equal(await clicks(a.code), 5);
      assert.equal(await clicks(b.code), 2);
    });

    it('adds to the stored count instead of overwriting it', async () => {
      const t1 = await buildTestApp(ctx.db.database, { CLICK_FLUSH_MS: '600000' });
      const link = await make(t1);
      await visit(BASE_HOST, link.code, 'GET', t1);
      await t1.close();
      const t2 = await buildTestApp(ctx.db.database, { CLICK_FLUSH_MS: '600000' });
      await visit(BASE_HOST, link.code, 'GET', t2);
      await visit(BASE_HOST, link.code, 'GET', t2);
      await t2.close();
      assert.equal(await storedClicks(ctx.t.database, link.code), 3);
    });

    it('flushes clicks in batches while running', async () => {
      const t = await buildTestApp(ctx.db.database, { CLICK_FLUSH_MS: '20' });
      try {
        const link = await make(t);
        await visit(BASE_HOST, link.code, 'GET', t);
        await visit(BASE_HOST, link.code, 'GET', t);
        const flushed = await eventually(async () => {
          return (await storedClicks(ctx.t.database, link.code)) === 2;
        });
        assert.ok(flushed, 'clicks reach the database without a shutdown');
      } finally {
        await t.close();
      }
    });
  });
}
