import { isbotMatch } from 'isbot';
import { PREVIEW_FETCHERS } from './preview-fetchers.js';

/**
 * Bots named before isbot is asked: the link-preview fetchers (preview-fetchers.ts), then a few fetchers of the same
 * apps that get no card (they fetch images, or for other uses), which isbot knows only by a generic pattern.
 */
const NAMED_BOTS: ReadonlyArray<readonly [RegExp, string]> = [
  ...PREVIEW_FETCHERS,
  [/Slack-ImgProxy/i, 'Slack-ImgProxy'],
  [/Slackbot/i, 'Slackbot'],
  [/meta-externalagent/i, 'meta-externalagent'],
  [/^Snapchat/i, 'Snapchat'],
];

/** Separators of a user agent's product tokens. */
const SEPARATOR = /[\s;,()[\]]/;
const NAME_MAX = 64;

/**
 * The bot's name when the user agent is a crawler or a link-preview fetcher (the bots named
 * above, then isbot), else null. A crawler is named by the product token isbot matched
 * in, without its version: `Mozilla/5.0 (compatible; Googlebot/2.1; +http://…)` → `Googlebot`.
 */
export function botName(userAgent: string): string | null {
  for (const [pattern, name] of NAMED_BOTS) if (pattern.test(userAgent)) return name;
  const match = isbotMatch(userAgent);
  if (match === null) return null;
  const at = Math.max(0, userAgent.indexOf(match));
  let from = at;
  while (from > 0 && !SEPARATOR.test(userAgent[from - 1]!)) from--;
  let to = at + Math.max(match.length, 1);
  while (to < userAgent.length && !SEPARATOR.test(userAgent[to]!)) to++;
  const token = userAgent.slice(from, to).replace(/^\+/, '');
  const name = /^https?:\/\//i.test(token) ? hostOf(token) : token.split('/')[0]!;
  return (name || match.trim() || 'bot').slice(0, NAME_MAX);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
