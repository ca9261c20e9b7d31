// A link's rules as the redirect runs them (decision 0039): in order, the first whose conditions all match wins,
// none matching is the link's own url, and the visitor is asked only what the conditions tried need.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRules, evaluate } from '../../../src/redirect/rules/evaluate.js';
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
});
