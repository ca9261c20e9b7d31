// A link's rules as the redirect runs them: compiled once when the link is loaded, then one evaluate() a visit,
// the same for the redirect (steps/rules.ts) and for POST /v3/shorten/{domain}/{slug}/evaluate.
import type { StoredRule } from '../../storage/stores/links.js';
import type { Visitor } from '../../visitors/visitor.js';
import { compileCondition } from './conditions.js';
import { ruleLabel, splitLabel } from './rule-labels.js';
import type { Condition } from './rule-types.js';

/** An A/B split made ready: its targets, the bucket (0–99) each one's share ends before, and each one's label. */
export interface CompiledSplit {
  readonly urls: readonly string[];
  readonly upTo: readonly number[];
  /** What a visit sent to each target took, for analytics (rule-labels.ts): made once here, not per visit. */
  readonly labels: readonly string[];
}

/** A rule made ready to run: its target (or its split's first), a test for each of its conditions, and its label. */
export interface CompiledRule {
  readonly url: string;
  readonly split: CompiledSplit | undefined;
  readonly tests: ReadonlyArray<(visitor: Visitor) => boolean>;
  /** What a visit sent to its url took (`rules.N`), for analytics. */
  readonly label: string;
}

/** Where a visit goes: the url, the index of the rule that chose it (null: the link's own url), and its split. */
export interface Evaluation {
  readonly url: string;
  readonly rule: number | null;
  /** The matching rule's split: the url is its first target until a bucket picks one (splitIndex). */
  readonly split?: CompiledSplit;
}

/** Buckets a visitor can be in: a split's weights are shares of them. */
export const SPLIT_BUCKETS = 100;

function compileSplit(split: StoredRule['split'], rule: number): CompiledSplit | undefined {
  if (split === undefined || split.length === 0) return undefined;
  let total = 0;
  return {
    urls: split.map((target) => target.url),
    upTo: split.map((target) => (total += target.weight)),
    labels: split.map((_, at) => splitLabel(rule, at)),
  };
}

/**
 * The rules of a link, compiled. Stored rules were checked by the links feature before they were stored (their
 * condition types are CONDITION_TYPES, a split's weights sum to 100), so they are read here as the Rules they were.
 */
export function compileRules(rules: readonly StoredRule[]): readonly CompiledRule[] {
  return rules.map((rule, at) => {
    const split = compileSplit(rule.split, at);
    return {
      url: rule.url ?? split?.urls[0] ?? '',
      split,
      tests: rule.conditions.map((condition) => compileCondition(condition as Condition)),
      label: ruleLabel(at),
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

/** The index of a split's target for a visitor's bucket (0–99): each target takes as many buckets as its weight. */
export function splitIndex(split: CompiledSplit, bucket: number): number {
  const at = split.upTo.findIndex((end) => bucket < end);
  return at === -1 ? split.urls.length - 1 : at;
}
