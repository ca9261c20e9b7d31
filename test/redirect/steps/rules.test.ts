// The rules step in the redirect pipeline (decision 0039), through both doors: the rule chosen per visit, the
// visitor's query forwarded onto it, a 302 no browser keeps for a link with rules (whatever REDIRECT_STATUS), a
// protected link's password leading on to the rule's target, and links without rules answered as before.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { hashPasswordInProcess } from '../../../src/passwords/scrypt.js';
import { DomainRedirects } from '../../../src/redirect/domain-redirects.js';
import { LinkResolver } from '../../../src/redirect/link-resolver.js';
import { redirectAnswers } from '../../../src/redirect/redirect-answer.js';
import { RedirectCache } from '../../../src/redirect/redirect-cache.js';
import { RedirectPipeline } from '../../../src/redirect/redirect-pipeline.js';
import { withSteps } from '../../../src/redirect/steps/steps.js';
import type { LinkStore, LinkTarget, StoredRule } from '../../../src/storage/stores/links.js';

const HOST = 'short.test';
const RULES: StoredRule[] = [
  { url: 'https://example.com/news', conditions: [{ type: 'query', key: 'utm_source', value: 'news' }] },
  { url: 'https://example.com/ref?from=rule', conditions: [{ type: 'query-any', key: 'ref' }] },
];
const LINKS = new Map<string, LinkTarget>([
  ['plain', { id: 1, url: 'https://example.com/plain', blocked: false }],
  ['ruled', { id: 2, url: 'https://example.com/own', blocked: false, rules: RULES }],
  ['quiet', { id: 3, url: 'https://example.com/own', blocked: false, forwardQuery: false, rules: RULES }],
  [
    'locked',
    {
      id: 4,
      url: 'https://example.com/own',
      blocked: false,
      guard: { passwordHash: await hashPasswordInProcess('link', 'sesame-1'), expiresAt: null },
      rules: RULES,
    },
  ],
  ['stopped', { id: 5, url: 'https://example.com/own', blocked: true, rules: RULES }],
  [
    'split',
    {
      id: 6,
      url: 'https://example.com/own',
      blocked: false,
      rules: [
        {
          split: [
            { url: 'https://example.com/a', weight: 50 },
            { url: 'https://example.com/b', weight: 50 },
          ],
          conditions: [{ type: 'query-any', key: 'ab' }],
        },
      ],
    },
  ],
]);

async function pipeline() {
  const seen: number[] = [];
  /** What each visit took, as the observers are told: the link and the label (undefined for a link without rules). */
  const took: Array<[number, string | undefined]> = [];
  const store = { syncReads: undefined, target: async (_domain: string, key: string) => LINKS.get(key) ?? null } as unknown as LinkStore;
  const settings = new DomainRedirects({ all: async () => [] }, { info: () => {}, warn: () => {} });
  await settings.refresh();
  const redirects = new RedirectPipeline(
    new LinkResolver(store, new RedirectCache({ max: 100, ttlMs: 60_000, missingTtlMs: 60_000 })),
    redirectAnswers(loadConfig({ BASE_URL: `http://${HOST}` })),
    [(target) => seen.push(target.id), (target, _request, taken) => took.push([target.id, taken])],
    settings,
  );
  // Lookups read the store (PostgreSQL-like: the fast path leaves a miss to the route); a key's second miss enters the cache.
  for (const key of [...LINKS.keys(), ...LINKS.keys()]) await redirects.answer(request('HEAD', `/${key}`), key);
  return { redirects, seen, took };
}

const request = (method: string, url: string, headers: Record<string, string> = {}) =>
  ({ method, url, headers: { host: HOST, ...headers } }) as unknown as IncomingMessage;
const header = (answer: { headers: readonly string[] } | undefined, name: string) => {
  const headers = answer?.headers ?? [];
  const at = headers.indexOf(name);
  return at === -1 ? undefined : headers[at + 1];
};

describe('the rules step', () => {
  it('gives a plain link no steps, and a link with rules one', () => {
    assert.equal(withSteps(LINKS.get('plain')!), LINKS.get('plain'), 'the same object: nothing added');
    assert.equal(withSteps(LINKS.get('ruled')!)?.steps?.length, 1);
    assert.equal(withSteps(LINKS.get('quiet')!)?.steps?.length, 2);
  });

  it('answers a link with rules 302 with private, no-store on both doors, with or without a match', async () => {
    const { redirects } = await pipeline();
    for (const answer of [redirects.answerNow(request('GET', '/ruled')), await redirects.answer(request('GET', '/ruled'), 'ruled')]) {
      assert.equal(answer?.status, 302);
      assert.equal(header(answer, 'location'), 'https://example.com/own');
      assert.equal(header(answer, 'cache-control'), 'private, no-store');
    }
    const matched = await redirects.answer(request('GET', '/ruled?utm_source=news'), 'ruled');
    assert.equal(matched?.status, 302);
    assert.equal(header(matched, 'cache-control'), 'private, no-store');
    // Without rules: the configured status (301 by default) and its cache header, as before.
    const plain = redirects.answerNow(request('GET', '/plain'));
    assert.deepEqual([plain?.status, header(plain, 'cache-control')], [301, 'private, max-age=90']);
  });

  it('forwards the visitor’s query onto the target chosen, unless the link opted out', async () => {
    const { redirects } = await pipeline();
    const at = async (key: string, query: string) => header(await redirects.answer(request('GET', `/${key}?${query}`), key), 'location');
    assert.equal(await at('ruled', 'utm_source=news'), 'https://example.com/news?utm_source=news');
    assert.equal(await at('ruled', 'ref=1&x=2'), 'https://example.com/ref?from=rule&ref=1&x=2');
    assert.equal(await at('ruled', 'x=2'), 'https://example.com/own?x=2');
    assert.equal(await at('quiet', 'utm_source=news'), 'https://example.com/news');
    assert.equal(await at('quiet', 'x=2'), 'https://example.com/own');
  });

  it('counts a GET of a link with rules once, a HEAD never; a blocked link with rules stays blocked', async () => {
    const { redirects, seen } = await pipeline();
    redirects.answerNow(request('GET', '/ruled'));
    redirects.answerNow(request('HEAD', '/ruled'));
    await redirects.answer(request('GET', '/ruled?ref=1'), 'ruled');
    assert.deepEqual(seen, [2, 2]);
    assert.equal(redirects.answerNow(request('GET', '/stopped'))?.status, 410);
  });

  it('tells the observers what each visit took: the rule, the split’s target or the link’s own url; nothing for a plain link', async () => {
    const { redirects, took } = await pipeline();
    redirects.answerNow(request('GET', '/plain'));
    redirects.answerNow(request('GET', '/ruled'));
    await redirects.answer(request('GET', '/ruled?utm_source=news'), 'ruled');
    await redirects.answer(request('GET', '/ruled?ref=1'), 'ruled');
    await redirects.answer(request('GET', '/split'), 'split');
    // A kept bucket picks the target: 0–49 the first, 50–99 the second; a bot always the first.
    const at = async (cookie: string, agent = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0') =>
      header(await redirects.answer(request('GET', '/split?ab', { cookie, 'user-agent': agent }), 'split'), 'location');
    assert.equal(await at('brief_split=49'), 'https://example.com/a?ab');
    assert.equal(await at('brief_split=50'), 'https://example.com/b?ab');
    assert.equal(await at('brief_split=99', 'Googlebot/2.1 (+http://www.google.com/bot.html)'), 'https://example.com/a?ab');
    // A first visit draws its bucket: what it took is the target it was sent to.
    const first = await redirects.answer(request('GET', '/split?ab'), 'split');
    assert.match(header(first, 'location') ?? '', /^https:\/\/example\.com\/[ab]\?ab$/);
    const drawn = header(first, 'location') === 'https://example.com/a?ab' ? 'rules.0.split.0' : 'rules.0.split.1';
    redirects.answerNow(request('HEAD', '/ruled'));
    const unlocked = await redirects.unlock(request('POST', '/locked?utm_source=news'), 'locked', 'sesame-1');
    assert.equal(unlocked?.status, 303);
    assert.deepEqual(took, [
      [1, undefined],
      [2, 'url'],
      [2, 'rules.0'],
      [2, 'rules.1'],
      [6, 'url'],
      [6, 'rules.0.split.0'],
      [6, 'rules.0.split.1'],
      [6, 'rules.0.split.0'],
      [6, drawn],
      [4, 'rules.0'],
    ]);
  });

  it('asks a protected link’s password first, then sends the right one on to the rule’s target', async () => {
    const { redirects, seen } = await pipeline();
    assert.equal((await redirects.answer(request('GET', '/locked?ref=1'), 'locked'))?.status, 200, 'the form');
    const right = await redirects.unlock(request('POST', '/locked?ref=1'), 'locked', 'sesame-1');
    assert.equal(right?.status, 303);
    assert.equal(header(right, 'location'), 'https://example.com/ref?from=rule&ref=1');
    assert.deepEqual(seen, [4]);
  });
});
