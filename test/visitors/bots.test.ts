// Bots and link-preview fetchers, named as analytics records them and as the `bot` device tag counts them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { botName } from '../../src/visitors/bots.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36';
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0';

describe('bots', () => {
  it('names crawlers by the product token isbot matched, without its version', () => {
    assert.equal(botName('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'), 'Googlebot');
    assert.equal(botName('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'), 'bingbot');
    assert.equal(botName('curl/8.4.0'), 'curl');
  });

  it('names the link-preview fetchers of chat and social apps', () => {
    const previews: Array<[string, string]> = [
      ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'Slackbot-LinkExpanding'],
      ['Slackbot 1.0 (+https://api.slack.com/robots)', 'Slackbot'],
      ['Twitterbot/1.0', 'Twitterbot'],
      ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'facebookexternalhit'],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
        'iMessage',
      ],
      ['WhatsApp/2.23.20.0 A', 'WhatsApp'],
      ['TelegramBot (like TwitterBot)', 'TelegramBot'],
      ['Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)', 'Discordbot'],
      ['LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)', 'LinkedInBot'],
      ['Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5', 'SkypeUriPreview'],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
        'Applebot',
      ],
      ['Iframely/1.3.1 (+https://iframely.com/docs/about)', 'Iframely'],
    ];
    for (const [agent, name] of previews) assert.equal(botName(agent), name, agent);
  });

  it('finds no bot in browsers, in-app ones included', () => {
    for (const agent of [CHROME, IPHONE, ANDROID, FIREFOX_MAC, `${IPHONE} WhatsApp/2.23.20.0`]) assert.equal(botName(agent), null, agent);
  });
});
