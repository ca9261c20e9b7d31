// A link's rules as the redirect runs them: compiled once when the link is loaded, then one evaluate() a visit,
// the same for the redirect (steps/rules.ts) and for POST /v3/shorten/{domain}/{slug}/evaluate.
import type { StoredRule } from '../../storage/stores/links.js';
import type { Visitor } from '../../visitors/visitor.js';
import { compileCondition } from './conditions.js';
import type { Condition } from './rule-types.js';

/** An A/B split made ready: its targets, and the bucket (0–99) each one's share ends before. */
export interface CompiledSplit {
  readonly urls: readonly string[];
  readonly upTo: readonly number[];
}

/** A rule made ready to run: its target (or its split's first) and a test for each of its conditions. */
export interface CompiledRule {
  readonly url: string;
  readonly split: CompiledSplit | undefined;
  readonly tests: ReadonlyArray<(visitor: Visitor) => boolean>;
}

/** Where a visit goes: the url, the index of the rule that chose it (null: the link's own url), and its split. */
export interface Evaluation {
  readonly url: string;
  readonly rule: number | null;
  /** The matching rule's split: the url is its first target until a bucket picks one (splitTarget). */
  readonly split?: CompiledSplit;
}

/** Buckets a visitor can be in: a split's weights are shares of them. */
export const SPLIT_BUCKETS = 100;

function compileSplit(split: StoredRule['split']): CompiledSplit | undefined {
  if (split === undefined || split.length === 0) return undefined;
  let total = 0;
  return { urls: split.map((target) => target.url), upTo: split.map((target) => (total += target.weight)) };
}

/**
 * The rules of a link, compiled. Stored rules were checked by the links feature before they were stored (their
 * condition types are CONDITION_TYPES, a split's weights sum to 100), so they are read here as the Rules they were.
 */
export function compileRules(rules: readonly StoredRule[]): readonly CompiledRule[] {
  return rules.map((rule) => {
    const split = compileSplit(rule.split);
    return {
      url: rule.url ?? split?.urls[0] ?? '',
      split,
      tests: rule.conditions.map((condition) => compileCondition(condition as Condition)),
    };
  });
}

/**
 * The first rule whose conditions all match chooses the url; none matching, the link's own. The visitor is asked
 * only for what the conditions tried read, in order, and not past the first rule that matches.
 */
export function evaluate(rules: readonly CompiledRule[], linkUrl: string, visitor: Visitor): Evaluation {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (rule.url !== '' && rule.tests.every((test) => test(visitor)))
      return rule.split ? { url: rule.url, rule: i, split: rule.split } : { url: rule.url, rule: i };
  }
  return { url: linkUrl, rule: null };
}

/** The target of a split for a visitor's bucket (0–99): each target takes as many buckets as its weight. */
export function splitTarget(split: CompiledSplit, bucket: number): string {
  const at = split.upTo.findIndex((end) => bucket < end);
  return split.urls[at === -1 ? split.urls.length - 1 : at]!;
}
