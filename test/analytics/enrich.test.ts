// Enrichment of visits, off the request path: bots and link-preview fetchers, the user agent,
// the first language, the referrer's host, the client's address (TRUST_PROXY) and its country.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstLanguage, type RawVisit, referrerHost, VisitEnricher } from '../../src/analytics/enrich.js';
import { bundledCountries } from '../../src/analytics/places.js';
import { clientAddress } from '../../src/net/client-address.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('visitor fields', () => {
  it('takes the first Accept-Language tag, lower-case', () => {
    assert.equal(firstLanguage('en-GB,en;q=0.9'), 'en-gb');
    assert.equal(firstLanguage(' fr-CA ; q=1, fr'), 'fr-ca');
    assert.equal(firstLanguage('zh-Hant-TW'), 'zh-hant-tw');
    assert.equal(firstLanguage('de_DE'), 'de-de');
    for (const header of [undefined, '', '*', 'en-GB<script>', ';q=1', 'x'.repeat(40)]) assert.equal(firstLanguage(header), null, header);
  });

  it('takes the referrer’s host only, never an address', () => {
    assert.equal(referrerHost('https://News.Example.org:8443/a/b?c=d#e'), 'news.example.org');
    assert.equal(referrerHost('android-app://com.google.android.gm/'), 'com.google.android.gm');
    for (const header of [undefined, '', 'not a url', 'http://203.0.113.5/page', 'http://[2001:db8::1]/', 'about:blank']) {
      assert.equal(referrerHost(header), null, header);
    }
  });
});

describe('client address (TRUST_PROXY)', () => {
  const off = clientAddress({ kind: 'off' });
  const oneHop = clientAddress({ kind: 'hops', hops: 1 });
  const twoHops = clientAddress({ kind: 'hops', hops: 2 });
  const listed = clientAddress({ kind: 'list', entries: ['10.0.0.0/8', '2001:db8::/32'] });

  it('off: the connection’s address, X-Forwarded-For ignored', () => {
    assert.equal(off('198.51.100.1', '8.8.8.8'), '198.51.100.1');
    assert.equal(off('::ffff:198.51.100.1', undefined), '198.51.100.1');
    assert.equal(off(undefined, '8.8.8.8'), undefined);
  });

  it('a hop count: the n-th address from the right', () => {
    assert.equal(oneHop('10.0.0.1', '1.1.1.1, 8.8.8.8'), '8.8.8.8');
    assert.equal(twoHops('10.0.0.1', '1.1.1.1, 8.8.8.8'), '1.1.1.1');
    assert.equal(twoHops('10.0.0.1', '8.8.8.8'), '8.8.8.8', 'fewer hops than proxies: the leftmost');
    assert.equal(oneHop('10.0.0.1', undefined), '10.0.0.1', 'no header: the connection');
    assert.equal(oneHop('10.0.0.1', ['1.1.1.1', '8.8.8.8']), '8.8.8.8', 'a repeated header');
  });

  it('a list: from the right, past every trusted proxy', () => {
    assert.equal(listed('10.0.0.1', '8.8.8.8, 10.1.2.3'), '8.8.8.8');
    assert.equal(listed('10.0.0.1', '1.1.1.1, 8.8.8.8, 10.1.2.3'), '8.8.8.8', 'an untrusted hop ends the walk');
    assert.equal(listed('198.51.100.1', '8.8.8.8'), '198.51.100.1', 'the connection is not a trusted proxy');
    assert.equal(listed('::ffff:10.0.0.1', '8.8.8.8'), '8.8.8.8');
    assert.equal(listed('2001:db8::5', '2606:4700::1'), '2606:4700::1');
  });
});

describe('countries (the bundled database)', () => {
  const country = bundledCountries();

  it('maps public addresses to ISO country codes, and anything else to null', () => {
    assert.equal(country('8.8.8.8'), 'US');
    assert.equal(country('2001:4860:4860::8888'), 'US');
    assert.equal(country('::ffff:8.8.8.8'), 'US');
    // Private, loopback, documentation, link-local and shared ranges have none (the whois data places some of them).
    const notPublic = [
      '10.0.0.1',
      '127.0.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.1.1',
      '203.0.113.77',
      '198.51.100.23',
      '::1',
      'fd00::1',
      '2001:db8::1',
    ];
    for (const address of [...notPublic, 'not an address', '', '8.8', '1.5']) assert.equal(country(address), null, address);
  });

  it('reads the file once per process', () => {
    assert.equal(bundledCountries(), country);
  });
});

describe('VisitEnricher', () => {
  const visit = (fields: Partial<RawVisit> = {}): RawVisit => ({
    time: 1_700_000_000_000,
    linkId: 7,
    userAgent: IPHONE,
    referer: 'https://t.co/abc',
    acceptLanguage: 'pt-BR,pt;q=0.9',
    socketAddress: '10.0.0.1',
    forwardedFor: '198.51.100.23',
    optedOut: false,
    rule: null,
    visits: 1,
    ...fields,
  });
  const asked: string[] = [];
  const lookup = (address: string) => {
    asked.push(address);
    return address === '198.51.100.23' ? 'BR' : null;
  };

  it('reads every dimension of a visit, and keeps no address in the event', () => {
    const event = new VisitEnricher('full', clientAddress({ kind: 'hops', hops: 1 }), lookup).enrich(visit());
    assert.deepEqual(event, {
      time: 1_700_000_000_000,
      linkId: 7,
      bot: null,
      browser: 'Mobile Safari',
      browserVersion: '17',
      os: 'iOS',
      deviceType: 'mobile',
      deviceVendor: 'Apple',
      language: 'pt-br',
      referrerHost: 't.co',
      country: 'BR',
      city: null,
      rule: null,
      clicks: 1,
    });
    assert.deepEqual(asked, ['198.51.100.23']);
    assert.ok(!JSON.stringify(event).includes('198.51.100.23'));
    assert.ok(!JSON.stringify(event).includes('10.0.0.1'));
  });

  it('calls a device without a type a desktop', () => {
    const event = new VisitEnricher('full', clientAddress({ kind: 'off' }), undefined).enrich(visit({ userAgent: CHROME }));
    assert.equal(event.deviceType, 'desktop');
    assert.equal(event.browser, 'Chrome');
    assert.equal(event.browserVersion, '131');
    assert.equal(event.country, null);
  });

  it('minimal: the bot name and nothing else', () => {
    const enricher = new VisitEnricher('minimal', clientAddress({ kind: 'hops', hops: 1 }), lookup);
    const bot = enricher.enrich(visit({ userAgent: 'Twitterbot/1.0' }));
    assert.equal(bot.bot, 'Twitterbot');
    const person = enricher.enrich(visit());
    assert.deepEqual(
      Object.entries(person).filter(([, value]) => value !== null),
      [
        ['time', 1_700_000_000_000],
        ['linkId', 7],
        ['clicks', 1],
      ],
    );
  });

  it('gives visitors with the same values one shared profile, and reads headers once', () => {
    asked.length = 0;
    const enricher = new VisitEnricher('full', clientAddress({ kind: 'hops', hops: 1 }), lookup);
    const first = enricher.profile(visit());
    assert.equal(enricher.profile(visit({ linkId: 8 })), first, 'the same visitor again');
    // Another address in the same country, the same headers as new strings: the same profile, its address looked up.
    const other = enricher.profile(visit({ forwardedFor: '198.51.100.23', userAgent: `${IPHONE} `.trimEnd(), socketAddress: '10.0.0.2' }));
    assert.equal(other, first);
    assert.deepEqual(asked, ['198.51.100.23'], 'an address is looked up once a batch');
    const elsewhere = enricher.profile(visit({ forwardedFor: '203.0.113.9' }));
    assert.notEqual(elsewhere, first);
    assert.equal(elsewhere.country, null);
    assert.equal(elsewhere.browser, first.browser);
    enricher.trim();
    const held = enricher as unknown as { last?: unknown; referrers: Map<string, unknown>; countries: Map<string, unknown> };
    assert.equal(held.last, undefined, 'no visit (and so no address) is held past its batch');
    assert.equal(held.referrers.size, 0, 'no referring page is held past its batch');
    assert.equal(held.countries.size, 0, 'no address is held past its batch');
    assert.equal(enricher.profile(visit({ socketAddress: '10.0.0.3' })), first, 'kept across batches while under the bound');
  });

  it('an opted-out visit: every dimension null', () => {
    const event = new VisitEnricher('full', clientAddress({ kind: 'hops', hops: 1 }), lookup).enrich(
      visit({
        optedOut: true,
        userAgent: undefined,
        referer: undefined,
        acceptLanguage: undefined,
        socketAddress: undefined,
        forwardedFor: undefined,
      }),
    );
    assert.deepEqual(
      Object.entries(event).filter(([, value]) => value !== null),
      [
        ['time', 1_700_000_000_000],
        ['linkId', 7],
        ['clicks', 1],
      ],
    );
  });
});
