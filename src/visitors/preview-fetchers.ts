// The link-preview fetchers of chat and social apps (decision 0041): the crawlers that fetch a link when it is pasted,
// to show a card. A link with a card answers them its card page instead of the redirect; every one of them is also a
// bot (bots.ts names them first), so their fetch is kept under bots in analytics and never counts against a visit limit.
// Search engines (Googlebot, bingbot), other bots and tools (curl) are not here: they get the redirect.

/**
 * The fetchers, most specific first (a user agent is named by the first that matches), each with the name analytics
 * gives it. Checked against the user agents the apps send (test/visitors/preview-fetchers.test.ts). Anchored where the
 * app's in-app browser carries the same word (WhatsApp, Pinterest, Viber): a person in it is no fetcher.
 */
export const PREVIEW_FETCHERS: ReadonlyArray<readonly [RegExp, string]> = [
  // iMessage sends Facebook's and Twitter's names at once, after a Safari user agent.
  [/facebookexternalhit\/[\d.]+ Facebot Twitterbot\/[\d.]+/i, 'iMessage'],
  // LINE's and KakaoTalk's fetchers say facebookexternalhit first, then their own name.
  [/line-poker/i, 'LINE'],
  [/Slackbot-LinkExpanding/i, 'Slackbot-LinkExpanding'],
  // Telegram's fetcher says "TelegramBot (like TwitterBot)".
  [/TelegramBot/i, 'TelegramBot'],
  [/Twitterbot/i, 'Twitterbot'],
  [/facebookexternalhit/i, 'facebookexternalhit'],
  [/Facebot/i, 'Facebot'],
  // WhatsApp's fetcher; Signal's apps send `WhatsApp/2` for their previews too.
  [/^WhatsApp(?:\/|$)/i, 'WhatsApp'],
  [/Discordbot/i, 'Discordbot'],
  [/LinkedInBot/i, 'LinkedInBot'],
  // Skype's and Microsoft Teams' fetcher.
  [/SkypeUriPreview/i, 'SkypeUriPreview'],
  [/MicrosoftPreview/i, 'MicrosoftPreview'],
  [/Applebot/i, 'Applebot'],
  [/Iframely/i, 'Iframely'],
  [/Embedly/i, 'Embedly'],
  [/redditbot/i, 'redditbot'],
  [/Pinterestbot|^Pinterest\//i, 'Pinterestbot'],
  [/vkShare/i, 'vkShare'],
  [/\(Mastodon\//i, 'Mastodon'],
  [/^Viber(?:\/|$)/i, 'Viber'],
  [/Bluesky Cardyb/i, 'Bluesky'],
  [/Snap URL Preview|SnapURLPreview/i, 'Snapchat'],
  // Google Chat's previews (not Googlebot, which gets the redirect).
  [/Google-PageRenderer|developers\.google\.com\/\+\/web\/snippet/i, 'Google-Snippet'],
];

/**
 * Any of the fetchers, as one regular expression compiled once: what the redirect's card step tests a visitor's user
 * agent with, so that a person's visit of a link with a card costs one test, not the whole visitor's parse.
 */
export const PREVIEW_FETCHER = new RegExp(PREVIEW_FETCHERS.map(([pattern]) => `(?:${pattern.source})`).join('|'), 'i');
