import { isbotMatch } from 'isbot';

/**
 * Link-preview fetchers: the chat and social apps that fetch a link when it is pasted, to
 * show a card. isbot knows most of them as bots, but not all by a useful name, and some only
 * by a generic pattern; these come first, most specific first. Patterns are anchored where
 * the app's in-app browser carries the same word (WhatsApp, Snapchat, Pinterest).
 */
const PREVIEW_FETCHERS: ReadonlyArray<readonly [RegExp, string]> = [
  // iMessage sends all three of Facebook's and Twitter's names at once.
  [/facebookexternalhit\/[\d.]+ Facebot Twitterbot\/[\d.]+/i, 'iMessage'],
  [/line-poker/i, 'LINE'],
  [/Slackbot-LinkExpanding/i, 'Slackbot-LinkExpanding'],
  [/Slack-ImgProxy/i, 'Slack-ImgProxy'],
  [/Slackbot/i, 'Slackbot'],
  // Telegram's fetcher says "TelegramBot (like TwitterBot)".
  [/TelegramBot/i, 'TelegramBot'],
  [/Twitterbot/i, 'Twitterbot'],
  [/facebookexternalhit/i, 'facebookexternalhit'],
  [/Facebot/i, 'Facebot'],
  [/meta-externalagent/i, 'meta-externalagent'],
  [/^WhatsApp\//i, 'WhatsApp'],
  [/Discordbot/i, 'Discordbot'],
  [/LinkedInBot/i, 'LinkedInBot'],
  [/SkypeUriPreview/i, 'SkypeUriPreview'],
  [/MicrosoftPreview/i, 'MicrosoftPreview'],
  [/Applebot/i, 'Applebot'],
  [/Iframely/i, 'Iframely'],
  [/Embedly/i, 'Embedly'],
  [/redditbot/i, 'redditbot'],
  [/Pinterestbot|^Pinterest\//i, 'Pinterestbot'],
  [/vkShare/i, 'vkShare'],
  [/\(Mastodon\//i, 'Mastodon'],
  [/Bluesky Cardyb/i, 'Bluesky'],
  [/^Snapchat/i, 'Snapchat'],
  [/Google \(\+https:\/\/developers\.google\.com\/\+\/web\/snippet\/\)/i, 'Google-Snippet'],
];

/** Separators of a user agent's product tokens. */
const SEPARATOR = /[\s;,()[\]]/;
const NAME_MAX = 64;

/**
 * The bot's name when the user agent is a crawler or a link-preview fetcher (isbot, plus the
 * preview fetchers above), else null. A crawler is named by the product token isbot matched
 * in, without its version: `Mozilla/5.0 (compatible; Googlebot/2.1; +http://…)` → `Googlebot`.
 */
export function botName(userAgent: string): string | null {
  for (const [pattern, name] of PREVIEW_FETCHERS) if (pattern.test(userAgent)) return name;
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
