// A link's redirect rules for people (decision 0039): each condition in words, and the drafts the editor's form
// holds (every value a string, as inputs give it) made from the rules and back into them, unchecked: the server
// says what is wrong, by field (`rules.2.conditions.0.value`).
// The server's schema module with its extension, as the unit tests (Node) read this file too.
import type { RuleSchema } from '../../../src/links/v3-schemas.js';

export type Rule = RuleSchema;
export type Condition = Rule['conditions'][number];
export type ConditionType = Condition['type'];

/**
 * The most rules, conditions of a rule and targets of a split the server takes (MAX_RULES, MAX_CONDITIONS,
 * MAX_SPLIT_TARGETS): the form offers no more. The app may import only types from the server, so they are repeated.
 */
export const MAX_RULES = 20;
export const MAX_CONDITIONS = 10;
export const MAX_TARGETS = 10;

/** The devices a device condition names (the server's DEVICE_TAGS, src/visitors/user-agent.ts), in words. */
export const DEVICES: ReadonlyArray<readonly [string, string]> = [
  ['android', 'Android'],
  ['ios', 'iPhone or iPad (iOS)'],
  ['mobile', 'Any phone'],
  ['tablet', 'Any tablet'],
  ['desktop', 'Any computer'],
  ['windows', 'Windows'],
  ['macos', 'macOS'],
  ['linux', 'Linux'],
  ['chromeos', 'ChromeOS'],
  ['bot', 'Bot or link preview'],
];

/** Every condition type, in the order the form offers them, with its name in words (a Record: a type added on the server fails the typecheck until named here). */
export const TYPE_NAMES: Record<ConditionType, string> = {
  device: 'Device',
  language: 'Language',
  country: 'Country',
  region: 'Region',
  city: 'City',
  browser: 'Browser',
  os: 'Operating system',
  query: 'Query parameter equals',
  'query-any': 'Query parameter present',
  'query-none': 'Query parameter without a value',
  referrer: 'Referrer host',
  ip: 'IP address or range',
  before: 'Before',
  after: 'From',
  weekday: 'Weekdays',
  hours: 'Hours of the day',
};

export const CONDITION_TYPES = Object.keys(TYPE_NAMES) as ConditionType[];

/** The days a weekday condition names, as the server spells them, Monday first. */
export const WEEKDAYS: ReadonlyArray<readonly [string, string]> = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
];

/** The types that take a key: a query parameter's name, or an IANA time zone. */
export const KEYED: Partial<Record<ConditionType, 'parameter' | 'zone'>> = {
  query: 'parameter',
  'query-any': 'parameter',
  'query-none': 'parameter',
  weekday: 'zone',
  hours: 'zone',
};

/** The types that take no value. */
export const VALUELESS: ReadonlySet<ConditionType> = new Set(['query-any', 'query-none']);

const deviceName = (tag: string) => DEVICES.find(([value]) => value === tag)?.[1] ?? tag;

/** A condition in words, as a rule's list shows it. */
export function conditionWords(condition: Condition, formatInstant: (iso: string) => string = (iso) => iso): string {
  const { key = '', value = '' } = condition;
  switch (condition.type) {
    case 'device':
      return `device is ${deviceName(value)}`;
    case 'browser':
      return `browser is ${value}`;
    case 'os':
      return `operating system is ${value}`;
    case 'language':
      return `visitor reads ${value}`;
    case 'country':
    case 'region':
    case 'city':
      return `${condition.type} is ${value}`;
    case 'query':
      return `query ${key} is “${value}”`;
    case 'query-any':
      return `query has ${key}`;
    case 'query-none':
      return `query has ${key} without a value`;
    case 'referrer':
      return `comes from ${value} (or a subdomain)`;
    case 'ip':
      return `address in ${value}`;
    case 'before':
      return `before ${formatInstant(value)}`;
    case 'after':
      return `from ${formatInstant(value)}`;
    case 'weekday':
      return `on ${value.split(',').join(', ')} (${key})`;
    case 'hours':
      return `between ${value.replace('-', ':00 and ')}:00 (${key})`;
  }
}

/**
 * What a visit took of a link's rules (top-rules' label: `rules.N`, `rules.N.split.M` or `url`) in words, the rules
 * numbered from 1 as the page numbers them: "Rule 2", "Rule 2, target 1", "Link's own URL".
 */
export function takenWords(label: string): string {
  if (label === 'url') return "Link's own URL";
  const parts = /^rules\.(\d+)(?:\.split\.(\d+))?$/.exec(label);
  if (parts === null) return label;
  const rule = `Rule ${Number(parts[1]) + 1}`;
  return parts[2] === undefined ? rule : `${rule}, target ${Number(parts[2]) + 1}`;
}

/** A condition as the form holds it: `id` keeps its controls apart while rules move. */
export interface ConditionDraft {
  id: number;
  type: ConditionType;
  key: string;
  value: string;
}

export interface RuleDraft {
  id: number;
  /** One target (`url`) or an A/B split (`split`). */
  kind: 'url' | 'split';
  url: string;
  split: Array<{ url: string; weight: string }>;
  conditions: ConditionDraft[];
}

let lastId = 0;
export const nextId = (): number => ++lastId;

export const newCondition = (type: ConditionType = 'device'): ConditionDraft => ({ id: nextId(), type, key: '', value: '' });

export const newRule = (): RuleDraft => ({ id: nextId(), kind: 'url', url: '', split: [], conditions: [newCondition()] });

export function toDraft(rule: Rule): RuleDraft {
  return {
    id: nextId(),
    kind: rule.split === undefined ? 'url' : 'split',
    url: rule.url ?? '',
    split: (rule.split ?? []).map((target) => ({ url: target.url, weight: String(target.weight) })),
    conditions: rule.conditions.map((c) => ({ id: nextId(), type: c.type, key: c.key ?? '', value: c.value ?? '' })),
  };
}

/** The rules a PATCH sends: empty keys and values left out, as the server takes a blank field for none. */
export function fromDraft(draft: RuleDraft): Rule {
  const conditions = draft.conditions.map(({ type, key, value }) => ({
    type,
    ...(key.trim() !== '' && { key: key.trim() }),
    ...((value !== '' || type === 'query') && !VALUELESS.has(type) && { value }),
  }));
  if (draft.kind === 'split') {
    return { split: draft.split.map((target) => ({ url: target.url.trim(), weight: Number(target.weight) })), conditions };
  }
  return { url: draft.url.trim(), conditions };
}

/** Moves the item at `from` by `by` places (-1 up, 1 down); the list as it was when it cannot move. */
export function moved<T>(list: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return [...list];
  const copy = [...list];
  [copy[from], copy[to]] = [copy[to]!, copy[from]!];
  return copy;
}
