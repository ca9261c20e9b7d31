// A user agent's device tags and its browser's and system's families, as redirect rules see them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentTraits, browserFamily, osFamily } from '../../src/visitors/user-agent.js';

const AGENTS = {
  windowsChrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  windowsEdge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  androidPhone: 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  androidTablet: 'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  macFirefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0',
  chromebook: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  ubuntu: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  googlebotPhone:
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  smartTv: 'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36',
};

const tagsOf = (agent: string) => [...agentTraits(agent).tags].sort();

describe('device tags', () => {
  it('tags each kind of device by what its agent says', () => {
    assert.deepEqual(tagsOf(AGENTS.windowsChrome), ['desktop', 'windows']);
    assert.deepEqual(tagsOf(AGENTS.iphone), ['ios', 'mobile']);
    assert.deepEqual(tagsOf(AGENTS.ipad), ['ios', 'tablet'], 'iPadOS is ios, and a tablet');
    assert.deepEqual(tagsOf(AGENTS.androidPhone), ['android', 'mobile']);
    assert.deepEqual(tagsOf(AGENTS.androidTablet), ['android', 'tablet']);
    assert.deepEqual(tagsOf(AGENTS.macFirefox), ['desktop', 'macos']);
    assert.deepEqual(tagsOf(AGENTS.chromebook), ['chromeos', 'desktop']);
    assert.deepEqual(tagsOf(AGENTS.linux), ['desktop', 'linux']);
    assert.deepEqual(tagsOf(AGENTS.ubuntu), ['desktop', 'linux'], 'a distribution is linux');
  });

  it('tags bots as bots, never as desktops, with what else their agent says', () => {
    assert.deepEqual(tagsOf(AGENTS.googlebot), ['bot']);
    assert.deepEqual(tagsOf(AGENTS.googlebotPhone), ['android', 'bot', 'mobile']);
    assert.deepEqual(tagsOf('curl/8.4.0'), ['bot']);
    assert.equal(agentTraits(AGENTS.googlebot).bot, true);
    assert.equal(agentTraits(AGENTS.iphone).bot, false);
  });

  it('gives a TV neither mobile, tablet nor desktop, and a visit without an agent desktop', () => {
    assert.deepEqual(tagsOf(AGENTS.smartTv), []);
    assert.deepEqual(tagsOf(''), ['desktop']);
  });

  it('remembers an agent: the same traits object for the same agent', () => {
    assert.equal(agentTraits(AGENTS.iphone), agentTraits(AGENTS.iphone));
  });
});

describe('families', () => {
  it("names browsers by ua-parser-js's names in one form", () => {
    assert.equal(agentTraits(AGENTS.windowsChrome).browser, 'chrome');
    assert.equal(agentTraits(AGENTS.windowsEdge).browser, 'edge');
    assert.equal(agentTraits(AGENTS.iphone).browser, 'safari', 'Mobile Safari is safari');
    assert.equal(agentTraits(AGENTS.macFirefox).browser, 'firefox');
    assert.equal(agentTraits(AGENTS.googlebot).browser, null);
  });

  it('names systems in one form', () => {
    assert.equal(agentTraits(AGENTS.macFirefox).os, 'macos');
    assert.equal(agentTraits(AGENTS.chromebook).os, 'chromeos');
    assert.equal(agentTraits(AGENTS.ipad).os, 'ios');
    assert.equal(agentTraits(AGENTS.ubuntu).os, 'ubuntu');
  });

  it('reads a written name the same way, aliases included', () => {
    assert.equal(browserFamily(' Mobile  Safari '), 'safari');
    assert.equal(browserFamily('Internet Explorer'), 'ie');
    assert.equal(browserFamily('Samsung Internet'), 'samsung internet');
    assert.equal(osFamily('Mac OS'), 'macos');
    assert.equal(osFamily('macOS'), 'macos');
    assert.equal(osFamily('Chrome OS'), 'chromeos');
    assert.equal(osFamily('iPadOS'), 'ios');
  });
});
