// The link-preview fetchers of chat and social apps (decision 0041): the crawlers that fetch a link when it is pasted,
// to show a card. A link with a card answers them its card page instead of the redirect; every one of them is also a
// bot (bots.ts names them first), so their fetch is kept under bots in analytics and never counts against a visit limit.
// Search engines (Googlebot, bingbot), other bots and tools (curl) are not here: they get the redirect.

/**
 * The fetchers, most specific first (a user agent is named by the first that matches), each with the name analytics
 * gives it. Checked against the user agents the apps send (test/support/preview-fetchers.ts). Each pattern matches where
 * a product token starts (see TOKEN_START); anchored to the start where the app's in-app browser carries the same word
 * after a browser's user agent (WhatsApp, Pinterest, Viber): a person in it is no fetcher.
 */
const FETCHERS: ReadonlyArray<readonly [RegExp, string]> = [
  // iMessage sends Facebook's and Twitter's names at once, after a Safari user agent.
  [/facebookexternalhit\/[\d.]+ Facebot Twitterbot\/[\d.]+/, 'iMessage'],
  // LINE's and KakaoTalk's fetchers say facebookexternalhit first, then their own name.
  [/facebookexternalhit\/[\d.]+;line-poker/, 'LINE'],
  [/Slackbot-LinkExpanding/, 'Slackbot-LinkExpanding'],
  // Telegram's fetcher says "TelegramBot (like TwitterBot)".
  [/TelegramBot/, 'TelegramBot'],
  [/Twitterbot/, 'Twitterbot'],
  [/facebookexternalhit/, 'facebookexternalhit'],
  [/Facebot/, 'Facebot'],
  // WhatsApp's fetcher; Signal's apps send `WhatsApp/2` for their previews too.
  [/^WhatsApp(?:\/|$)/, 'WhatsApp'],
  [/Discordbot/, 'Discordbot'],
  [/LinkedInBot/, 'LinkedInBot'],
  // Skype's and Microsoft Teams' fetcher.
  [/SkypeUriPreview/, 'SkypeUriPreview'],
  [/MicrosoftPreview/, 'MicrosoftPreview'],
  [/Applebot/, 'Applebot'],
  [/Iframely/, 'Iframely'],
  [/Embedly/, 'Embedly'],
  [/redditbot/, 'redditbot'],
  [/Pinterestbot|^Pinterest\//, 'Pinterestbot'],
  [/vkShare/, 'vkShare'],
  [/Mastodon\//, 'Mastodon'],
  [/^Viber(?:\/|$)/, 'Viber'],
  [/Bluesky Cardyb/, 'Bluesky'],
  [/Snap URL Preview|SnapURLPreview/, 'Snapchat'],
  // Google Chat's previews (not Googlebot, which gets the redirect).
  [/Google-PageRenderer|Google \(\+https:\/\/developers\.google\.com\/\+\/web\/snippet\//, 'Google-Snippet'],
];

/**
 * Where a token of a user agent starts: the start, or after a space, `;` or `(`. Asked first at each place, it lets the
 * expression below skip most of a browser's user agent at the cost of one character class.
 */
const TOKEN_START = '(?:^|[ ;(])';

/** The fetchers, each pattern as it is tested: at a token's start, any case. */
export const PREVIEW_FETCHERS: ReadonlyArray<readonly [RegExp, string]> = FETCHERS.map(([pattern, name]) => [
  new RegExp(`${TOKEN_START}(?:${pattern.source})`, 'i'),
  name,
]);

/**
 * Any of the fetchers, as one regular expression compiled once: what the redirect's card step tests a visitor's user
 * agent with, so that a person's visit of a link with a card costs one test (a few hundred nanoseconds for a browser's
 * user agent), not the visitor's parse.
 */
export const PREVIEW_FETCHER = new RegExp(`${TOKEN_START}(?:${FETCHERS.map(([pattern]) => pattern.source).join('|')})`, 'i');
