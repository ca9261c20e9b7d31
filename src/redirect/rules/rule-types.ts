// A link's redirect rules as data (issue 39): what the v3 API takes and answers, what storage keeps,
// and what the redirect pipeline evaluates. The first rule whose conditions all match sends the
// visitor to its target; none matching, the link's own URL.

/** The condition kinds, by their API names. */
// biome-ignore format: a list of words reads best as lines of words
export const CONDITION_TYPES = [
  'device', 'browser', 'os', 'language', 'country', 'region', 'city',
  'query', 'query-any', 'query-none', 'ip', 'before', 'after', 'weekday', 'hours', 'referrer',
] as const;

export type ConditionType = (typeof CONDITION_TYPES)[number];

/** One condition of a rule; which of `key` and `value` it takes depends on its type. */
export interface Condition {
  readonly type: ConditionType;
  readonly key?: string;
  readonly value?: string;
}

/** One target of an A/B split; a split's weights sum to 100. */
export interface SplitTarget {
  readonly url: string;
  readonly weight: number;
}

/** A rule sends a matching visitor to one URL, or to one of a split's targets. */
export type Rule =
  | { readonly url: string; readonly split?: undefined; readonly conditions: readonly Condition[] }
  | { readonly url?: undefined; readonly split: readonly SplitTarget[]; readonly conditions: readonly Condition[] };

/** Rules on one link, at most. */
export const MAX_RULES = 20;
