// A link's rules as the redirect runs them: compiled once when the link is loaded, then one evaluate() a visit,
// the same for the redirect (steps/rules.ts) and for POST /v3/shorten/{domain}/{slug}/evaluate.
import type { StoredRule } from '../../storage/stores/links.js';
import type { Visitor } from '../../visitors/visitor.js';
import { compileCondition } from './conditions.js';
import type { Condition } from './rule-types.js';

/** A rule made ready to run: its target and a test for each of its conditions. */
export interface CompiledRule {
  readonly url: string;
  readonly tests: ReadonlyArray<(visitor: Visitor) => boolean>;
}

/** Where a visit goes: the url, and the index of the rule that chose it (null: the link's own url). */
export interface Evaluation {
  readonly url: string;
  readonly rule: number | null;
}

/**
 * The rules of a link, compiled. Stored rules were checked by the links feature before they were stored (their
 * condition types are CONDITION_TYPES), so they are read here as the Rules they were.
 */
export function compileRules(rules: readonly StoredRule[]): readonly CompiledRule[] {
  return rules.map((rule) => ({
    // A split (not taken by the API yet) goes to its first target until the split is a step of its own.
    url: rule.url ?? rule.split?.[0]?.url ?? '',
    tests: rule.conditions.map((condition) => compileCondition(condition as Condition)),
  }));
}

/**
 * The first rule whose conditions all match chooses the url; none matching, the link's own. The visitor is asked
 * only for what the conditions tested read, in order, and not past the first rule that matches.
 */
export function evaluate(rules: readonly CompiledRule[], linkUrl: string, visitor: Visitor): Evaluation {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (rule.url !== '' && rule.tests.every((test) => test(visitor))) return { url: rule.url, rule: i };
  }
  return { url: linkUrl, rule: null };
}
