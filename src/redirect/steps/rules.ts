import { randomInt } from 'node:crypto';
import { type CompiledSplit, compileRules, evaluate, SPLIT_BUCKETS, splitIndex } from '../rules/evaluate.js';
import { OWN_URL } from '../rules/rule-labels.js';
import type { LinkOption, Visit } from './redirect-step.js';

/** The cookie that keeps a visitor's split bucket, on the link's own path only. */
export const SPLIT_COOKIE = 'brief_split';
const SPLIT_DAYS = 30;
const BUCKET = new RegExp(`(?:^|;\\s*)${SPLIT_COOKIE}=(\\d{1,2})(?:;|$)`);

/**
 * A link with redirect rules: the first rule whose conditions all match chooses the destination (none: the link's
 * own), compiled once here; the answer depends on the visitor, so it is personal (302, `private, no-store`). The visit
 * notes what it took (`taken`, rule-labels.ts) for analytics: labels made at compile time, so a visit builds no string.
 */
export const rules: LinkOption = (target) => {
  if (target.rules === undefined) return undefined;
  const compiled = compileRules(target.rules);
  return (visit) => {
    const chosen = evaluate(compiled, visit.url, visit.visitor);
    if (chosen.split !== undefined) {
      const at = splitChoice(visit, chosen.split);
      visit.url = chosen.split.urls[at]!;
      visit.taken = chosen.split.labels[at];
    } else {
      visit.url = chosen.url;
      visit.taken = chosen.rule === null ? OWN_URL : compiled[chosen.rule]!.label;
    }
    visit.rule = chosen.rule;
    visit.personal = true;
    return undefined;
  };
};

/**
 * Which of a split's targets (its index) this visitor gets: bots (crawlers, link previews) the first, always, with no
 * cookie; anyone else by the bucket (0–99) their browser keeps for 30 days on the link's path, drawn at their first
 * visit. Nothing of the visitor is kept on the server: the bucket lives in the cookie alone.
 */
function splitChoice(visit: Visit, split: CompiledSplit): number {
  if (visit.visitor.bot) return 0;
  const header = visit.request?.headers.cookie;
  const kept = header === undefined ? undefined : BUCKET.exec(header)?.[1];
  if (kept !== undefined) return splitIndex(split, Number(kept));
  // Evaluated without a request (POST …/evaluate): the first target, as a bot sees, and no cookie.
  if (visit.request === undefined) return 0;
  const bucket = randomInt(SPLIT_BUCKETS);
  visit.cookie = `${SPLIT_COOKIE}=${bucket}; Path=${visit.path}; Max-Age=${SPLIT_DAYS * 86_400}; HttpOnly; SameSite=Lax`;
  return splitIndex(split, bucket);
}
