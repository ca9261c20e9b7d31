// User agents the link-preview fetchers of chat and social apps send (decision 0041), as seen in the wild (the apps'
// documentation, crawler lists, server logs people published), with the name analytics gives each; and user agents
// that must get the redirect: people (in-app browsers included), search engines, other bots and tools.

export const PREVIEW_FETCHER_AGENTS: ReadonlyArray<readonly [app: string, userAgent: string, name: string]> = [
  ['Slack', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'Slackbot-LinkExpanding'],
  ['Facebook', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'facebookexternalhit'],
  ['Facebook (Facebot)', 'Facebot/1.0', 'Facebot'],
  [
    'iMessage',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
    'iMessage',
  ],
  ['X', 'Twitterbot/1.0', 'Twitterbot'],
  ['LinkedIn', 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)', 'LinkedInBot'],
  ['WhatsApp', 'WhatsApp/2.23.20.0 A', 'WhatsApp'],
  ['Signal', 'WhatsApp/2', 'WhatsApp'],
  ['Telegram', 'TelegramBot (like TwitterBot)', 'TelegramBot'],
  ['Discord', 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)', 'Discordbot'],
  [
    'Apple',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
    'Applebot',
  ],
  ['Iframely', 'Iframely/1.3.1 (+https://iframely.com/docs/about) Atlassian', 'Iframely'],
  ['Embedly', 'Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)', 'Embedly'],
  ['Pinterest', 'Mozilla/5.0 (compatible; Pinterestbot/1.0; +https://www.pinterest.com/bot.html)', 'Pinterestbot'],
  ['Pinterest (short)', 'Pinterest/0.2 (+https://www.pinterest.com/bot.html)', 'Pinterestbot'],
  ['Reddit', 'Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)', 'redditbot'],
  ['Mastodon', 'http.rb/5.1.0 (Mastodon/4.0.2; +https://freiburg.social/) Bot', 'Mastodon'],
  ['Skype, Microsoft Teams', 'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5', 'SkypeUriPreview'],
  ['Microsoft', 'MicrosoftPreview/2.0; +https://aka.ms/MicrosoftPreview', 'MicrosoftPreview'],
  ['VK', 'Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)', 'vkShare'],
  ['Viber', 'Viber/20.9.0.8 CFNetwork/1410.0.3 Darwin/22.6.0', 'Viber'],
  ['LINE', 'facebookexternalhit/1.1;line-poker/1.0', 'LINE'],
  ['KakaoTalk', 'facebookexternalhit/1.1;kakaotalk-scrap/1.0;', 'facebookexternalhit'],
  ['Bluesky', 'Mozilla/5.0 (compatible; Bluesky Cardyb/1.1; +mailto:support@bsky.app)', 'Bluesky'],
  ['Snapchat', 'Snap URL Preview Service; bot; snapchat; https://developers.snap.com/robots', 'Snapchat'],
  [
    'Google Chat',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/56.0.2924.87 Safari/537.36 Google-PageRenderer Google (+https://developers.google.com/+/web/snippet/)',
    'Google-Snippet',
  ],
];

export const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
export const CURL = 'curl/8.4.0';

/** People: browsers, and the apps' own in-app browsers (which carry the app's name after a browser's user agent). */
export const PEOPLE_AGENTS: readonly string[] = [
  CHROME,
  IPHONE,
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0',
  `${IPHONE} WhatsApp/2.23.20.0`,
  `${IPHONE} [Pinterest/iOS]`,
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.10.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Teams/1.6.00.4472 Chrome/120.0.0.0 Electron/28.0.0 Safari/537.36',
];

/** Bots that are no preview fetcher: search engines, Slack's other fetchers, tools. They get the redirect. */
export const OTHER_BOT_AGENTS: readonly string[] = [
  GOOGLEBOT,
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'Slackbot 1.0 (+https://api.slack.com/robots)',
  'Slack-ImgProxy (+https://api.slack.com/robots)',
  CURL,
  'python-requests/2.31.0',
  'Wget/1.21.4',
];
