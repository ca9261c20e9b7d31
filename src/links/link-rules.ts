// The checks of a link's redirect rules that need nothing but the input (decision 0039): each rule's target checked
// as a link's url is, each condition by its kind, every failure named by its path (`rules.2.conditions.0.value`).
// What needs the caller (a short domain as a target) or the blocklist is checked with the link's url, at write time.
import { BriefError, type FieldError, itemCount, outOfRange } from '../errors.js';
import { linkDestination } from '../net/normalize-url.js';
import { conditionProblem } from '../redirect/rules/conditions.js';
import { type Condition, MAX_RULES } from '../redirect/rules/rule-types.js';
import type { StoredRule } from '../storage/stores/links.js';
import { LINK_ERRORS } from './link-errors.js';
import { MAX_CONDITIONS, MAX_SPLIT_TARGETS } from './link-fields.js';

/** A rule as a client sends it: the shape of a Rule, any of its parts possibly missing. */
export interface RuleInput {
  readonly url?: string;
  readonly split?: ReadonlyArray<{ readonly url: string; readonly weight: number }>;
  readonly conditions?: ReadonlyArray<{ readonly type: string; readonly key?: string; readonly value?: string }>;
}

/** The field errors of a check that failed on bad input; anything else is thrown on. */
function failures(check: () => void): FieldError[] {
  try {
    check();
    return [];
  } catch (error) {
    if (error instanceof BriefError && error.code === 'E_VALIDATION_ERROR' && error.errors) return error.errors;
    throw error;
  }
}

const errorsOf = (error: BriefError): FieldError[] => error.errors ?? [];

/**
 * The rules of a link to make or edit, in order, their targets normalized; throws one validation error listing
 * every field that failed (its message the first one's).
 */
export function checkRules(rules: readonly RuleInput[], allowCredentials: boolean): StoredRule[] {
  if (rules.length > MAX_RULES) throw BriefError.field(itemCount('rules', 'maxItems', MAX_RULES));
  const errors: FieldError[] = [];
  const checked = rules.map((rule, i): StoredRule => {
    const at = `rules.${i}`;
    const conditions = rule.conditions ?? [];
    let url = '';
    let split: Array<{ url: string; weight: number }> | undefined;
    if (rule.split !== undefined) {
      if (rule.url !== undefined) errors.push(...errorsOf(LINK_ERRORS.ruleUrlAndSplit(`${at}.url`)));
      split = checkSplit(rule.split, `${at}.split`, allowCredentials, errors);
    } else if (rule.url === undefined) errors.push(...errorsOf(LINK_ERRORS.ruleWithoutUrl(`${at}.url`)));
    else errors.push(...failures(() => (url = linkDestination(rule.url!, allowCredentials, `${at}.url`).href)));
    if (conditions.length === 0) errors.push(itemCount(`${at}.conditions`, 'minItems', 1));
    if (conditions.length > MAX_CONDITIONS) errors.push(itemCount(`${at}.conditions`, 'maxItems', MAX_CONDITIONS));
    conditions.forEach((condition, j) => {
      const problem = conditionProblem(condition as Condition);
      if (problem) errors.push(...errorsOf(LINK_ERRORS.badCondition(`${at}.conditions.${j}.${problem.field}`, problem.message)));
    });
    const kept = conditions.map(({ type, key, value }) => ({ type, ...(key !== undefined && { key }), ...(value !== undefined && { value }) }));
    return split === undefined ? { url, conditions: kept } : { split, conditions: kept };
  });
  const [first] = errors;
  if (first) throw new BriefError('E_VALIDATION_ERROR', first.message, errors);
  return checked;
}

/**
 * An A/B split: 2 to MAX_SPLIT_TARGETS targets, each url checked as a link's, whole-number weights of 1 to 100 that
 * sum to 100 (the visitors' buckets); its errors added to `errors`.
 */
function checkSplit(
  split: NonNullable<RuleInput['split']>,
  at: string,
  allowCredentials: boolean,
  errors: FieldError[],
): Array<{ url: string; weight: number }> {
  if (split.length < 2) errors.push(itemCount(at, 'minItems', 2));
  if (split.length > MAX_SPLIT_TARGETS) errors.push(itemCount(at, 'maxItems', MAX_SPLIT_TARGETS));
  let sum = 0;
  const checked = split.map((target, j) => {
    let url = '';
    errors.push(...failures(() => (url = linkDestination(target.url, allowCredentials, `${at}.${j}.url`).href)));
    if (!Number.isInteger(target.weight) || target.weight < 1 || target.weight > 100) errors.push(outOfRange(`${at}.${j}.weight`, 1, 100));
    sum += target.weight;
    return { url, weight: target.weight };
  });
  if (split.length >= 2 && sum !== 100) errors.push(...errorsOf(LINK_ERRORS.splitWeights(at, sum)));
  return checked;
}

/** The targets of checked rules (their url, or each of their split's), for the checks made at write time (a short domain, a blocked host), with their fields. */
export function ruleTargets(rules: readonly StoredRule[]): Array<{ url: URL; field: string }> {
  return rules.flatMap((rule, i) =>
    rule.split !== undefined
      ? rule.split.map((target, j) => ({ url: new URL(target.url), field: `rules.${i}.split.${j}.url` }))
      : rule.url === undefined
        ? []
        : [{ url: new URL(rule.url), field: `rules.${i}.url` }],
  );
}
