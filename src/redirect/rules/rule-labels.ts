// What a visit of a link with rules took, as analytics records it and top-rules names it (decision 0039, "What a
// visit took"): `rules.N` (rule N's url, 0-based like evaluate's `rule`), `rules.N.split.M` (target M of rule N's
// split) or `url` (no rule matched: the link's own url). A link without rules has no label (null in analytics).
import type { StoredRule } from '../../storage/stores/links.js';

/** No rule matched: the visit went to the link's own url. */
export const OWN_URL = 'url';

/** Rule `rule`'s own url. */
export const ruleLabel = (rule: number): string => `rules.${rule}`;

/** Target `target` of rule `rule`'s split. */
export const splitLabel = (rule: number, target: number): string => `rules.${rule}.split.${target}`;

const LABEL = /^rules\.(0|[1-9]\d?)(?:\.split\.(0|[1-9]\d?))?$/;

/**
 * The url a label names in a link's rules as they are now, or undefined when it names none of them any more (a rule
 * removed, a url made a split or a split made a url, a split's target removed).
 */
export function labelledUrl(rules: readonly StoredRule[], linkUrl: string, label: string): string | undefined {
  if (label === OWN_URL) return linkUrl;
  const parts = LABEL.exec(label);
  if (parts === null) return undefined;
  const rule = rules[Number(parts[1])];
  if (parts[2] === undefined) return rule?.url;
  return rule?.split?.[Number(parts[2])]?.url;
}
