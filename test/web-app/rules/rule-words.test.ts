import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_SPLIT_TARGETS, MAX_CONDITIONS as SERVER_MAX_CONDITIONS } from '../../../src/links/link-fields.js';
import { MAX_RULES as SERVER_MAX_RULES, CONDITION_TYPES as SERVER_TYPES } from '../../../src/redirect/rules/rule-types.js';
import { DEVICE_TAGS } from '../../../src/visitors/user-agent.js';
import {
  CONDITION_TYPES,
  conditionWords,
  DEVICES,
  fromDraft,
  MAX_CONDITIONS,
  MAX_RULES,
  MAX_TARGETS,
  moved,
  newRule,
  type Rule,
  takenWords,
  toDraft,
} from '../../../web/src/rules/rule-words.js';

describe("the rules editor's words and drafts", () => {
  it('offers every condition type and device the server takes, and no other, up to its limits', () => {
    assert.deepEqual([...CONDITION_TYPES].sort(), [...SERVER_TYPES].sort());
    assert.deepEqual(DEVICES.map(([tag]) => tag).sort(), [...DEVICE_TAGS].sort());
    assert.deepEqual([MAX_RULES, MAX_CONDITIONS, MAX_TARGETS], [SERVER_MAX_RULES, SERVER_MAX_CONDITIONS, MAX_SPLIT_TARGETS]);
  });

  it('says each condition in words', () => {
    assert.equal(conditionWords({ type: 'device', value: 'ios' }), 'device is iPhone or iPad (iOS)');
    assert.equal(conditionWords({ type: 'language', value: 'fr' }), 'visitor reads fr');
    assert.equal(conditionWords({ type: 'query', key: 'utm_source', value: 'news' }), 'query utm_source is “news”');
    assert.equal(conditionWords({ type: 'query-none', key: 'debug' }), 'query has debug without a value');
    assert.equal(conditionWords({ type: 'weekday', key: 'Europe/Paris', value: 'sat,sun' }), 'on sat, sun (Europe/Paris)');
    assert.equal(conditionWords({ type: 'hours', key: 'UTC', value: '09-17' }), 'between 09:00 and 17:00 (UTC)');
    assert.equal(
      conditionWords({ type: 'before', value: '2027-01-01T00:00:00Z' }, () => 'New Year'),
      'before New Year',
    );
  });

  it('says what a visit took of the rules (top-rules’ labels) in words, numbered from 1', () => {
    assert.deepEqual(['rules.0', 'rules.1.split.0', 'rules.19.split.9', 'url', 'something else'].map(takenWords), [
      'Rule 1',
      'Rule 2, target 1',
      'Rule 20, target 10',
      "Link's own URL",
      'something else',
    ]);
  });

  it('turns rules into drafts and back unchanged, splits included', () => {
    const rules: Rule[] = [
      {
        url: 'https://example.com/a',
        conditions: [
          { type: 'query', key: 'ref', value: '' },
          { type: 'query-any', key: 'x' },
        ],
      },
      {
        split: [
          { url: 'https://example.com/b', weight: 30 },
          { url: 'https://example.com/c', weight: 70 },
        ],
        conditions: [{ type: 'hours', key: 'Europe/Paris', value: '22-06' }],
      },
    ];
    assert.deepEqual(rules.map(toDraft).map(fromDraft), rules);
  });

  it('leaves blank keys and values out, as the server takes a blank field for none', () => {
    const draft = newRule();
    draft.url = ' https://example.com/x ';
    draft.conditions = [
      { id: 1, type: 'query-any', key: ' ref ', value: 'ignored' },
      { id: 2, type: 'language', key: '', value: '' },
    ];
    assert.deepEqual(fromDraft(draft), { url: 'https://example.com/x', conditions: [{ type: 'query-any', key: 'ref' }, { type: 'language' }] });
  });

  it('moves a rule up and down, and not past either end', () => {
    assert.deepEqual(moved(['a', 'b', 'c'], 2, -1), ['a', 'c', 'b']);
    assert.deepEqual(moved(['a', 'b', 'c'], 0, 1), ['b', 'a', 'c']);
    assert.deepEqual(moved(['a', 'b'], 0, -1), ['a', 'b']);
    assert.deepEqual(moved(['a', 'b'], 1, 1), ['a', 'b']);
  });
});
