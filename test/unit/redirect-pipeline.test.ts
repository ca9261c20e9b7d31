// The one redirect pipeline: every rule of a redirect, for both of its doors.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { hashPassword } from '../../src/links/passwords.js';
import { LinkResolver } from '../../src/redirect/link-resolver.js';
import { redirectAnswers } from '../../src/redirect/redirect-answer.js';
import { RedirectCache } from '../../src/redirect/redirect-cache.js';
import { RedirectPipeline } from '../../src/redirect/redirect-pipeline.js';
import type { LinkStore, LinkTarget, SyncLinkReads } from '../../src/storage/stores.js';

const HOST = 'short.test';
const LINKS = new Map<string, LinkTarget>([
  ['fresh', { id: 1, url: 'https://example.com/fresh', blocked: false }],
  ['blocked', { id: 2, url: 'https://example.com/blocked', blocked: true }],
  ['gone', { id: 3, url: 'https://example.com/gone', blocked: false, guard: { passwordHash: null, expiresAt: Date.now() - 1 } }],
  ['later', { id: 4, url: 'https://example.com/later', blocked: false, guard: { passwordHash: null, expiresAt: Date.now() + 3_600_000 } }],
  ['locked', { id: 5, url: 'https://example.com/locked', blocked: false, guard: { passwordHash: await hashPassword('sesame-1'), expiresAt: null } }],
]);
const targetOf = (domain: string, key: string) => (domain === HOST ? (LINKS.get(key) ?? null) : null);

/** A store with the given reads: synchronous ones like a SQLite file, or only asynchronous ones like PostgreSQL. */
function store(synchronous: boolean): LinkStore {
  const syncReads: SyncLinkReads = { target: targetOf, highestId: () => 0, eachNewest: () => {}, releaseMemory: () => {} };
  return { syncReads: synchronous ? syncReads : undefined, target: async (domain, key) => targetOf(domain, key) } as LinkStore;
}

function pipeline(synchronous = true) {
  const seen: Array<[number, string]> = [];
  const cache = new RedirectCache({ max: 100, ttlMs: 60_000, missingTtlMs: 60_000 });
  const answers = redirectAnswers(loadConfig({ BASE_URL: `http://${HOST}` }));
  const redirects = new RedirectPipeline(new LinkResolver(store(synchronous), cache), answers, [
    (target, request) => seen.push([target.id, request.method!]),
  ]);
  return { redirects, seen };
}

const request = (method: string, url: string, host = HOST) => ({ method, url, headers: { host } }) as unknown as IncomingMessage;

describe('RedirectPipeline', () => {
  it('redirects a live link and tells the observers of a GET, not of a HEAD', async () => {
    const { redirects, seen } = pipeline();
    assert.equal(redirects.answerNow(request('GET', '/fresh'))?.status, 301);
    assert.equal(redirects.answerNow(request('HEAD', '/fresh', 'SHORT.TEST'))?.status, 301);
    assert.equal((await redirects.answer(request('GET', '/fresh?via=router'), 'fresh'))?.status, 301);
    assert.equal((await redirects.answer(request('HEAD', '/fresh?via=router'), 'fresh'))?.status, 301);
    assert.deepEqual(seen, [
      [1, 'GET'],
      [1, 'GET'],
    ]);
  });

  it('answers 410 for a blocked link and 404 for an unknown one, and tells no observer', async () => {
    const { redirects, seen } = pipeline();
    assert.equal(redirects.answerNow(request('GET', '/blocked'))?.status, 410);
    assert.equal(redirects.answerNow(request('GET', '/nosuchkey'))?.status, 404);
    assert.equal(redirects.answerNow(request('GET', '/fresh', 'other.test'))?.status, 404, 'a link lives only on its own domain');
    assert.equal((await redirects.answer(request('GET', '/a.b'), 'a.b'))?.status, 404, 'a key no link can have');
    assert.deepEqual(seen, []);
  });

  it('leaves reserved words to the router at both doors, in any case', async () => {
    const { redirects } = pipeline();
    assert.equal(redirects.answerNow(request('GET', '/v2')), undefined);
    assert.equal(redirects.answerNow(request('GET', '/Docs')), undefined);
    assert.equal(await redirects.answer(request('GET', '/v2'), 'v2'), undefined);
    assert.equal(await redirects.answer(request('GET', '/METRICS'), 'METRICS'), undefined);
  });

  it('answers at once only a bare /{key} by GET or HEAD', () => {
    const { redirects } = pipeline();
    for (const [method, url] of [
      ['POST', '/fresh'],
      ['GET', '/fresh?x=1'],
      ['GET', '/%66resh'],
      ['GET', '/fresh/more'],
      ['GET', '/'],
    ] as const) {
      assert.equal(redirects.answerNow(request(method, url)), undefined, `${method} ${url}`);
    }
  });

  it('without synchronous reads (PostgreSQL), leaves a cache miss to the asynchronous door', async () => {
    const { redirects, seen } = pipeline(false);
    assert.equal(redirects.answerNow(request('GET', '/fresh')), undefined);
    assert.equal((await redirects.answer(request('GET', '/fresh'), 'fresh'))?.status, 301);
    assert.deepEqual(seen, [[1, 'GET']]);
  });

  it('answers an expired link 410 at both doors, a link still to expire as any other', async () => {
    const { redirects, seen } = pipeline();
    assert.equal(redirects.answerNow(request('GET', '/gone'))?.status, 410);
    assert.equal((await redirects.answer(request('GET', '/gone?x'), 'gone'))?.status, 410);
    assert.equal((await redirects.unlock(request('POST', '/gone'), 'gone', 'x'))?.status, 410);
    assert.equal(redirects.answerNow(request('GET', '/later'))?.status, 301);
    assert.deepEqual(seen, [[4, 'GET']]);
  });

  it('asks for the password of a protected link at both doors, and counts only the right one', async () => {
    const { redirects, seen } = pipeline();
    for (const method of ['GET', 'HEAD']) {
      const form = redirects.answerNow(request(method, '/locked'));
      assert.equal(form?.status, 200);
      assert.ok(!form?.body.includes('example.com'));
      assert.equal((await redirects.answer(request(method, '/locked?x'), 'locked'))?.status, 200);
    }
    assert.equal((await redirects.unlock(request('POST', '/locked'), 'locked', 'sesame-2'))?.status, 403);
    assert.equal((await redirects.unlock(request('POST', '/locked'), 'locked', undefined))?.status, 403);
    assert.deepEqual(seen, []);
    const right = await redirects.unlock(request('POST', '/locked'), 'locked', 'sesame-1');
    assert.equal(right?.status, 303);
    assert.deepEqual(right?.headers.slice(0, 2), ['location', 'https://example.com/locked']);
    assert.deepEqual(seen, [[5, 'POST']]);
  });
});
