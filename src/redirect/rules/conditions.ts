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
  if (typeof made !== 'function') throw new TypeError(`A ${String(condition.type)} condition's ${made.field}: ${made.message}`);
  return made;
}

/**
 * A condition's test or its first problem: one path for both, so what is refused when written and what is
 * compiled when loaded cannot disagree. The condition comes from a request, so nothing in it is trusted:
 * its type may be none, and its key and value other than strings.
 */
function compiled(condition: Condition): ConditionTest | ConditionProblem {
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
