// A link's rules as the redirect runs them (decision 0039): in order, the first whose conditions all match wins,
// none matching is the link's own url, and the visitor is asked only what the conditions tried need.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRules, evaluate, SPLIT_BUCKETS, splitIndex } from '../../../src/redirect/rules/evaluate.js';
import type { Rule } from '../../../src/redirect/rules/rule-types.js';
import { type Visitor, visitorOf } from '../../../src/visitors/visitor.js';

const LINK = 'https://example.com/own';
const RULES: Rule[] = [
  {
    url: 'https://example.com/news-and-ref',
    conditions: [
      { type: 'query', key: 'utm_source', value: 'news' },
      { type: 'query-any', key: 'ref' },
    ],
  },
  { url: 'https://example.com/news', conditions: [{ type: 'query', key: 'utm_source', value: 'news' }] },
  { url: 'https://example.com/any-ref', conditions: [{ type: 'query-any', key: 'ref' }] },
];
const compiled = compileRules(RULES);
const visiting = (query: string) => evaluate(compiled, LINK, visitorOf({ query }));

describe('evaluate', () => {
  it('takes the first rule whose conditions all match, in their order', () => {
    assert.deepEqual(visiting('utm_source=news&ref=x'), { url: 'https://example.com/news-and-ref', rule: 0 });
    assert.deepEqual(visiting('ref=x&utm_source=news'), { url: 'https://example.com/news-and-ref', rule: 0 });
    assert.deepEqual(visiting('utm_source=news'), { url: 'https://example.com/news', rule: 1 }, 'rule 0 wants both');
    assert.deepEqual(visiting('ref=y'), { url: 'https://example.com/any-ref', rule: 2 });
  });

  it('sends a visit no rule matches to the link’s own url', () => {
    assert.deepEqual(visiting(''), { url: LINK, rule: null });
    assert.deepEqual(visiting('utm_source=mail'), { url: LINK, rule: null });
    assert.deepEqual(visiting('UTM_SOURCE=news'), { url: LINK, rule: null }, 'parameter names are case-sensitive');
    assert.deepEqual(evaluate(compileRules([]), LINK, visitorOf({ query: 'ref=1' })), { url: LINK, rule: null });
  });

  it('asks the visitor nothing past the first rule that matches', () => {
    const asked: string[] = [];
    const real = visitorOf({ query: 'utm_source=news&ref=1' });
    const counting = new Proxy(real, {
      get(target, name, receiver) {
        asked.push(String(name));
        return Reflect.get(target, name, receiver);
      },
    }) as Visitor;
    const rules = compileRules([
      { url: 'https://example.com/first', conditions: [{ type: 'query-any', key: 'ref' }] },
      { url: 'https://example.com/bot', conditions: [{ type: 'device', value: 'bot' }] },
    ]);
    assert.deepEqual(evaluate(rules, LINK, counting), { url: 'https://example.com/first', rule: 0 });
    assert.ok(!asked.includes('bot'), `asked: ${asked.join(', ')}`);
  });

  it('shares a split’s visitors by its weights (10,000 draws of a fixed seed) and gives a matching rule its split', () => {
    const [rule] = compileRules([
      {
        split: [
          { url: 'https://example.com/a', weight: 70 },
          { url: 'https://example.com/b', weight: 20 },
          { url: 'https://example.com/c', weight: 10 },
        ],
        conditions: [{ type: 'query-any', key: 'ab' }],
      },
    ]);
    const split = rule!.split!;
    assert.deepEqual(evaluate([rule!], LINK, visitorOf({ query: 'ab' })), { url: 'https://example.com/a', rule: 0, split });
    // Each bucket belongs to exactly one target, in order: 0–69 a, 70–89 b, 90–99 c.
    const byBucket = Array.from({ length: SPLIT_BUCKETS }, (_, bucket) => split.urls[splitIndex(split, bucket)]!.slice(-1));
    assert.equal(byBucket.join(''), `${'a'.repeat(70)}${'b'.repeat(20)}${'c'.repeat(10)}`);
    // mulberry32, seeded: the draws a visitor's first visit makes are uniform over the buckets.
    let seed = 20261128;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const counts = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) {
      const url = split.urls[splitIndex(split, Math.floor(random() * SPLIT_BUCKETS))]!;
      counts.set(url, (counts.get(url) ?? 0) + 1);
    }
    const share = (url: string) => (counts.get(url) ?? 0) / 10_000;
    // Three standard deviations of 10,000 draws at these shares are under 1.4 points.
    assert.ok(Math.abs(share('https://example.com/a') - 0.7) < 0.014, `a: ${share('https://example.com/a')}`);
    assert.ok(Math.abs(share('https://example.com/b') - 0.2) < 0.012, `b: ${share('https://example.com/b')}`);
    assert.ok(Math.abs(share('https://example.com/c') - 0.1) < 0.009, `c: ${share('https://example.com/c')}`);
  });
});
