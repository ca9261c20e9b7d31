// The one redirect pipeline: every rule of a redirect, for both of its doors.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { hashPasswordInProcess } from '../../src/passwords/scrypt.js';
import { DomainRedirects } from '../../src/redirect/domain-redirects.js';
import { LinkResolver } from '../../src/redirect/link-resolver.js';
import { redirectAnswers } from '../../src/redirect/redirect-answer.js';
import { RedirectCache } from '../../src/redirect/redirect-cache.js';
import { RedirectPipeline } from '../../src/redirect/redirect-pipeline.js';
import type { StoredDomain } from '../../src/storage/stores/domains.js';
import type { LinkStore, LinkTarget, SyncLinkReads } from '../../src/storage/stores/links.js';

const HOST = 'short.test';
const LINKS = new Map<string, LinkTarget>([
  ['fresh', { id: 1, url: 'https://example.com/fresh', blocked: false }],
  ['blocked', { id: 2, url: 'https://example.com/blocked', blocked: true }],
  ['gone', { id: 3, url: 'https://example.com/gone', blocked: false, guard: { passwordHash: null, expiresAt: Date.now() - 1 } }],
  ['later', { id: 4, url: 'https://example.com/later', blocked: false, guard: { passwordHash: null, expiresAt: Date.now() + 3_600_000 } }],
  [
    'locked',
    {
      id: 5,
      url: 'https://example.com/locked',
      blocked: false,
      guard: { passwordHash: await hashPasswordInProcess('link', 'sesame-1'), expiresAt: null },
    },
  ],
]);
const targetOf = (domain: string, key: string) => (domain === HOST ? (LINKS.get(key) ?? null) : null);

/** A store with the given reads: synchronous ones like a SQLite file, or only asynchronous ones like PostgreSQL. */
function store(synchronous: boolean): LinkStore {
  const syncReads: SyncLinkReads = { target: targetOf, highestId: () => 0, eachNewest: () => {}, releaseMemory: () => {} };
  return { syncReads: synchronous ? syncReads : undefined, target: async (domain, key) => targetOf(domain, key) } as LinkStore;
}

/** Domains with settings: HOST has both redirects, SET_HOST a home only, LOST_HOST a not-found only. */
const SET_HOST = 'home.test';
const LOST_HOST = 'lost.test';
const HOME_URL = 'https://example.com/home';
const LOST_URL = 'https://example.com/lost';
const domain = (hostname: string, home: string | null, notFound: string | null): StoredDomain => ({
  hostname,
  urlPrefix: `https://${hostname}`,
  accountId: 1,
  codeLength: null,
  homeRedirectUrl: home,
  notFoundRedirectUrl: notFound,
  verifiedAt: 1,
  verificationToken: null,
});
const quiet = { info: () => {}, warn: () => {} };

async function pipeline(synchronous = true, domains: StoredDomain[] = []) {
  const seen: Array<[number, string]> = [];
  const cache = new RedirectCache({ max: 100, ttlMs: 60_000, missingTtlMs: 60_000 });
  const answers = redirectAnswers(loadConfig({ BASE_URL: `http://${HOST}` }));
  const settings = new DomainRedirects({ all: async () => domains }, quiet);
  await settings.refresh();
  const redirects = new RedirectPipeline(
    new LinkResolver(store(synchronous), cache),
    answers,
    [(target, request) => seen.push([target.id, request.method!])],
    settings,
  );
  return { redirects, seen };
}

const withSettings = (synchronous = true) =>
  pipeline(synchronous, [domain(HOST, HOME_URL, LOST_URL), domain(SET_HOST, HOME_URL, null), domain(LOST_HOST, null, LOST_URL)]);

const request = (method: string, url: string, host = HOST) => ({ method, url, headers: { host } }) as unknown as IncomingMessage;

describe('RedirectPipeline', () => {
  it('redirects a live link and tells the observers of a GET, not of a HEAD', async () => {
    const { redirects, seen } = await pipeline();
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
    const { redirects, seen } = await pipeline();
    assert.equal(redirects.answerNow(request('GET', '/blocked'))?.status, 410);
    assert.equal(redirects.answerNow(request('GET', '/nosuchkey'))?.status, 404);
    assert.equal(redirects.answerNow(request('GET', '/fresh', 'other.test'))?.status, 404, 'a link lives only on its own domain');
    assert.equal((await redirects.answer(request('GET', '/a.b'), 'a.b'))?.status, 404, 'a key no link can have');
    assert.deepEqual(seen, []);
  });

  it('leaves reserved words to the router at both doors, in any case', async () => {
    const { redirects } = await pipeline();
    assert.equal(redirects.answerNow(request('GET', '/v2')), undefined);
    assert.equal(redirects.answerNow(request('GET', '/Docs')), undefined);
    assert.equal(await redirects.answer(request('GET', '/v2'), 'v2'), undefined);
    assert.equal(await redirects.answer(request('GET', '/METRICS'), 'METRICS'), undefined);
  });

  it('answers at once only a bare /{key} by GET or HEAD', async () => {
    const { redirects } = await pipeline();
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
    const { redirects, seen } = await pipeline(false);
    assert.equal(redirects.answerNow(request('GET', '/fresh')), undefined);
    assert.equal((await redirects.answer(request('GET', '/fresh'), 'fresh'))?.status, 301);
    assert.deepEqual(seen, [[1, 'GET']]);
  });

  it('answers an expired link 410 at both doors, a link still to expire as any other', async () => {
    const { redirects, seen } = await pipeline();
    assert.equal(redirects.answerNow(request('GET', '/gone'))?.status, 410);
    assert.equal((await redirects.answer(request('GET', '/gone?x'), 'gone'))?.status, 410);
    assert.equal((await redirects.unlock(request('POST', '/gone'), 'gone', 'x'))?.status, 410);
    assert.equal(redirects.answerNow(request('GET', '/later'))?.status, 301);
    assert.deepEqual(seen, [[4, 'GET']]);
  });

  it('asks for the password of a protected link at both doors, and counts only the right one', async () => {
    const { redirects, seen } = await pipeline();
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

  it('redirects the bare domain to its home page at both doors, not cached and not a visit; else leaves `/` to the router', async () => {
    const { redirects, seen } = await withSettings();
    for (const method of ['GET', 'HEAD']) {
      for (const [host, door] of [
        [HOST, 'answerNow'],
        ['HOME.TEST', 'answerNow'],
        [SET_HOST, 'home'],
      ] as const) {
        const req = request(method, '/', host);
        const answer = door === 'answerNow' ? redirects.answerNow(req) : redirects.home(req);
        assert.equal(answer?.status, 302, `${method} ${host} ${door}`);
        assert.deepEqual(answer?.headers.slice(0, 4), ['location', HOME_URL, 'cache-control', 'no-store']);
        assert.equal(answer?.body, '');
      }
      for (const host of [LOST_HOST, 'other.test']) {
        assert.equal(redirects.answerNow(request(method, '/', host)), undefined, `${host}: no home redirect`);
        assert.equal(redirects.home(request(method, '/', host)), undefined, `${host}: no home redirect`);
      }
    }
    assert.equal(redirects.answerNow(request('POST', '/')), undefined, 'only GET and HEAD');
    assert.equal(redirects.answerNow(request('GET', '/?x=1')), undefined, 'the router strips the query and asks home()');
    assert.deepEqual(seen, []);
    const plain = await pipeline();
    assert.equal(plain.redirects.answerNow(request('GET', '/')), undefined);
    assert.equal(plain.redirects.home(request('GET', '/')), undefined);
  });

  it("redirects an unknown key to the domain's not-found page at both doors, and nothing else", async () => {
    for (const synchronous of [true, false]) {
      const { redirects, seen } = await withSettings(synchronous);
      const lost = (answer: { status: number; headers: readonly string[] } | undefined, where: string) => {
        assert.equal(answer?.status, 302, where);
        assert.deepEqual(answer?.headers.slice(0, 4), ['location', LOST_URL, 'cache-control', 'no-store'], where);
      };
      if (synchronous) {
        lost(redirects.answerNow(request('GET', '/nosuchkey')), 'answerNow GET');
        lost(redirects.answerNow(request('HEAD', '/nosuchkey', 'LOST.TEST')), 'answerNow HEAD, any case');
      } else {
        assert.equal(redirects.answerNow(request('GET', '/nosuchkey')), undefined, 'a miss asks the database first');
      }
      lost(await redirects.answer(request('GET', '/nosuchkey?x'), 'nosuchkey'), 'answer');
      lost(await redirects.answer(request('GET', '/a.b', LOST_HOST), 'a.b'), 'a key no link can have');
      lost(await redirects.unlock(request('POST', '/nosuchkey'), 'nosuchkey', 'x'), 'unlock');
      // Known links, blocked, expired and protected ones, and reserved words are as without the setting.
      assert.equal((await redirects.answer(request('GET', '/fresh'), 'fresh'))?.status, 301);
      assert.equal((await redirects.answer(request('GET', '/blocked'), 'blocked'))?.status, 410);
      assert.equal((await redirects.answer(request('GET', '/gone'), 'gone'))?.status, 410);
      assert.equal((await redirects.answer(request('GET', '/locked'), 'locked'))?.status, 200);
      assert.equal(await redirects.answer(request('GET', '/v2'), 'v2'), undefined);
      assert.equal(redirects.answerNow(request('GET', '/v2')), undefined);
      // A domain with a home redirect only, and one without settings, answer the 404 page.
      assert.equal((await redirects.answer(request('GET', '/nosuchkey', SET_HOST), 'nosuchkey'))?.status, 404);
      assert.equal((await redirects.answer(request('GET', '/nosuchkey', 'other.test'), 'nosuchkey'))?.status, 404);
      assert.deepEqual(seen, [[1, 'GET']]);
    }
  });
});

describe('RedirectPipeline: a domain that serves nothing yet (decision 0019)', () => {
  it("answers an unverified claim's links as unknown ones at every door, with no home or not-found redirect, and tells no observer", async () => {
    for (const synchronous of [true, false]) {
      const claim: StoredDomain = { ...domain(HOST, HOME_URL, LOST_URL), verifiedAt: null, verificationToken: 'brief-verify=x' };
      const { redirects, seen } = await pipeline(synchronous, [claim]);
      for (const method of ['GET', 'HEAD']) {
        if (synchronous) assert.equal(redirects.answerNow(request(method, '/fresh', 'Short.Test'))?.status, 404, `${method} answerNow`);
        assert.equal((await redirects.answer(request(method, '/fresh?x'), 'fresh'))?.status, 404, `${method} answer`);
        assert.equal((await redirects.answer(request(method, '/locked'), 'locked'))?.status, 404, 'a protected link');
        assert.equal(redirects.home(request(method, '/')), undefined, 'no home redirect');
        assert.equal((await redirects.answer(request(method, '/nosuchkey'), 'nosuchkey'))?.status, 404, 'no not-found redirect');
      }
      assert.equal((await redirects.unlock(request('POST', '/locked'), 'locked', 'sesame-1'))?.status, 404, 'the right password');
      assert.deepEqual(seen, []);
    }
  });

  it('serves them once a read of the domains finds the domain verified', async () => {
    let domains: StoredDomain[] = [{ ...domain(HOST, HOME_URL, null), verifiedAt: null, verificationToken: 'brief-verify=x' }];
    const settings = new DomainRedirects({ all: async () => domains }, quiet);
    await settings.refresh();
    assert.equal(settings.serves(HOST), false);
    assert.equal(settings.serves('other.test'), true, 'hosts that are not claims are not its business');
    assert.equal(settings.get(HOST), undefined);
    domains = [{ ...domains[0]!, verifiedAt: Date.now() }];
    await settings.refresh();
    assert.equal(settings.serves(HOST), true);
    assert.deepEqual(settings.get(HOST)?.home?.headers.slice(0, 2), ['location', HOME_URL]);
  });
});

describe('DomainRedirects', () => {
  it('holds only the hosts with a setting, and keeps the newest read when an older one ends last', async () => {
    const reads: Array<(domains: StoredDomain[]) => void> = [];
    const settings = new DomainRedirects({ all: () => new Promise((resolve) => reads.push(resolve)) }, quiet);
    const older = settings.refresh();
    const newer = settings.refresh();
    reads[1]!([domain(HOST, HOME_URL, null), domain(LOST_HOST, null, null)]);
    await newer;
    reads[0]!([domain(HOST, null, LOST_URL)]);
    await older;
    assert.deepEqual(settings.get(HOST)?.home?.headers.slice(0, 2), ['location', HOME_URL]);
    assert.equal(settings.get(HOST)?.notFound, undefined);
    assert.equal(settings.get(LOST_HOST), undefined, 'a domain without settings is not held');
  });

  it("knows each domain's URL prefix, for a card's short URL: the configured ones', then the stored ones'", async () => {
    const settings = new DomainRedirects({ all: async () => [{ ...domain(SET_HOST, null, null), urlPrefix: `http://${SET_HOST}` }] }, quiet, {
      defaultHost: HOST,
      configuredHosts: [HOST],
      strict: false,
      urlPrefixes: [`http://${HOST}`],
    });
    await settings.refresh();
    assert.equal(settings.urlPrefixOf(HOST), `http://${HOST}`);
    assert.equal(settings.urlPrefixOf(SET_HOST), `http://${SET_HOST}`, 'a stored domain, as it was claimed');
    assert.equal(settings.urlPrefixOf('nobody.test'), 'https://nobody.test', 'a host none names: https');
  });
});
