// A redirect rule's conditions (issue 39): each checked once when a rule is written (conditionProblem) and made
// ready once when a link's rules are loaded (compileCondition), into a test that costs a visit next to nothing:
// every value is parsed ahead (CIDRs, instants, zones, lists), and the visitor reads only what a test asks of it.
import { type ConditionProblem, type ConditionTest, VALUE_TESTS } from './condition-values.js';
import { CONDITION_TYPES, type Condition, type ConditionType } from './rule-types.js';

export type { ConditionProblem, ConditionTest };

/** The longest key and value a condition takes. */
export const KEY_MAX = 200;
export const VALUE_MAX = 1000;

/** What a condition type takes besides its value: the name of a query parameter, or an IANA time zone. */
const KEYS: Partial<Record<ConditionType, 'a query parameter' | 'an IANA time zone'>> = {
  query: 'a query parameter',
  'query-any': 'a query parameter',
  'query-none': 'a query parameter',
  weekday: 'an IANA time zone',
  hours: 'an IANA time zone',
};

/** The types that take no value: whether the parameter is there is the whole question. */
const VALUELESS: ReadonlySet<ConditionType> = new Set(['query-any', 'query-none']);

const TYPES: ReadonlySet<string> = new Set(CONDITION_TYPES);

/** The first problem with a condition, naming the field ('type' | 'key' | 'value'), or undefined when it is valid. */
export function conditionProblem(condition: Condition): ConditionProblem | undefined {
  const made = compiled(condition);
  return typeof made === 'function' ? undefined : made;
}

/** A condition made ready once (when a link's rules are loaded): a test per visit. Only call on valid conditions. */
export function compileCondition(condition: Condition): ConditionTest {
  const made = compiled(condition);
  if (typeof made !== 'function') throw new TypeError(`A condition's ${made.field}: ${made.message}`);
  return made;
}

/**
 * What a visit's first test of each type costs, roughly, in rank: the time against an instant nothing; a zone's
 * clock a remembered minute; the query, languages, referrer and address a parse of one header or string each; the
 * user agent a remembered parse (tens of microseconds for an agent not seen lately); a place an MMDB lookup.
 */
const COST: Readonly<Record<ConditionType, number>> = {
  before: 0,
  after: 0,
  weekday: 1,
  hours: 1,
  region: 1,
  query: 2,
  'query-any': 2,
  'query-none': 2,
  language: 2,
  referrer: 2,
  ip: 2,
  device: 3,
  browser: 3,
  os: 3,
  country: 4,
  city: 4,
};

/**
 * A rule's conditions made ready once: a test that all of them match (none: every visit does). They are tried
 * cheapest first, so a visit that fails a cheap one never pays for a dear one. Only call on valid conditions.
 */
export function compileConditions(conditions: readonly Condition[]): ConditionTest {
  const tests = [...conditions].sort((a, b) => COST[a.type] - COST[b.type]).map(compileCondition);
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0]!;
  return (visitor) => {
    for (const test of tests) if (!test(visitor)) return false;
    return true;
  };
}

/**
 * A condition's test or its first problem: one path for both, so what is refused when written and what is
 * compiled when loaded cannot disagree. The condition comes from a request, so nothing in it is trusted:
 * its type may be none, and its key and value other than strings.
 */
function compiled(condition: Condition): ConditionTest | ConditionProblem {
  if (typeof condition !== 'object' || condition === null) return { field: 'type', message: 'A condition must be an object with a type' };
  const { type, key, value } = condition as { type: unknown; key: unknown; value: unknown };
  if (typeof type !== 'string' || !TYPES.has(type)) {
    return { field: 'type', message: `The type must be one of ${CONDITION_TYPES.join(', ')}` };
  }
  const kind = type as ConditionType;
  const keyProblem = checkKey(kind, key);
  if (keyProblem !== undefined) return keyProblem;
  const valueProblem = checkValue(kind, value);
  if (valueProblem !== undefined) return valueProblem;
  return VALUE_TESTS[kind]((value as string | undefined) ?? '', (key as string | undefined) ?? '');
}

function checkKey(type: ConditionType, key: unknown): ConditionProblem | undefined {
  const takes = KEYS[type];
  // An empty key is no key: a form's blank field says nothing.
  if (key === undefined || key === null || key === '') {
    return takes === undefined ? undefined : { field: 'key', message: `A ${type} condition needs a key: ${takes}` };
  }
  if (typeof key !== 'string') return { field: 'key', message: 'The key must be a string' };
  if (takes === undefined) return { field: 'key', message: `A ${type} condition takes no key` };
  if (key.length > KEY_MAX) return { field: 'key', message: `The key must be at most ${KEY_MAX} characters` };
  return undefined;
}

function checkValue(type: ConditionType, value: unknown): ConditionProblem | undefined {
  if (VALUELESS.has(type)) {
    if (value === undefined || value === null || value === '') return undefined;
    return {
      field: 'value',
      message: `A ${type} condition takes no value: it matches the parameter ${type === 'query-any' ? 'with any value' : 'without a value'}`,
    };
  }
  // A query condition may ask for an empty value (`?a=`); every other value says something.
  if (value === undefined || value === null || (value === '' && type !== 'query')) {
    return { field: 'value', message: `A ${type} condition needs a value` };
  }
  if (typeof value !== 'string') return { field: 'value', message: 'The value must be a string' };
  if (value.length > VALUE_MAX) return { field: 'value', message: `The value must be at most ${VALUE_MAX} characters` };
  return undefined;
}
