// What a visit of a link with rules took (decision 0039, "What a visit took"): the labels, and the url a label names in
// a link's rules as they are now (none once the rules were edited away from it).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRules } from '../../../src/redirect/rules/evaluate.js';
import { labelledUrl, OWN_URL, ruleLabel, splitLabel } from '../../../src/redirect/rules/rule-labels.js';
import type { StoredRule } from '../../../src/storage/stores/links.js';

const LINK = 'https://example.com/own';
const RULES: StoredRule[] = [
  { url: 'https://example.com/fr', conditions: [{ type: 'language', value: 'fr' }] },
  {
    split: [
      { url: 'https://example.com/a', weight: 40 },
      { url: 'https://example.com/b', weight: 60 },
    ],
    conditions: [{ type: 'device', value: 'mobile' }],
  },
];

describe('rule labels', () => {
  it('names a rule, a split’s target and the link’s own url, 0-based as the rules are', () => {
    assert.deepEqual([ruleLabel(0), splitLabel(1, 0), splitLabel(19, 9), OWN_URL], ['rules.0', 'rules.1.split.0', 'rules.19.split.9', 'url']);
    const [first, second] = compileRules(RULES);
    assert.equal(first!.label, 'rules.0');
    assert.deepEqual(second!.split!.labels, ['rules.1.split.0', 'rules.1.split.1']);
  });

  it('finds the url a label names in the rules as they are now, and none when it names nothing there', () => {
    assert.equal(labelledUrl(RULES, LINK, 'url'), LINK);
    assert.equal(labelledUrl(RULES, LINK, 'rules.0'), 'https://example.com/fr');
    assert.equal(labelledUrl(RULES, LINK, 'rules.1.split.1'), 'https://example.com/b');
    // A rule or target removed, a url made a split (or the reverse), and labels Brief never writes.
    for (const label of ['rules.2', 'rules.1.split.2', 'rules.1', 'rules.0.split.0', 'rules.01', 'rules.-1', 'rules', 'URL', '', 'rules.0.split']) {
      assert.equal(labelledUrl(RULES, LINK, label), undefined, label);
    }
    assert.equal(labelledUrl([], LINK, 'rules.0'), undefined);
  });
});
