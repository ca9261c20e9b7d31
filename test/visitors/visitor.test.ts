// What a visit says of its visitor: read once, and only when asked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parametersOf, visitorOf } from '../../src/visitors/visitor.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A lookup that answers `answer` and counts what it was asked. */
function lookup(answer: string | null) {
  const asked: string[] = [];
  const answering = (address: string) => {
    asked.push(address);
    return answer;
  };
  return Object.assign(answering, { asked });
}

describe('visitor', () => {
  it('reads the user agent only when a device, browser, OS or bot is asked for, and once', () => {
    let reads = 0;
    const input = {
      get userAgent() {
        reads++;
        return IPHONE;
      },
      acceptLanguage: 'en',
      query: 'a=1',
    };
    const visitor = visitorOf(input);
    assert.equal(visitor.languages.length, 1);
    assert.equal(visitor.query.size, 1);
    assert.equal(reads, 0, 'nothing asked of the agent yet');
    assert.deepEqual([...visitor.devices].sort(), ['ios', 'mobile']);
    assert.equal(visitor.browser, 'safari');
    assert.equal(visitor.os, 'ios');
    assert.equal(visitor.bot, false);
    assert.equal(reads, 1);
  });

  it('looks the country and city up only when asked, once, and not when given', () => {
    const countries = lookup('DE');
    const cities = lookup('Berlin');
    const visitor = visitorOf({ ip: '::ffff:203.0.113.9' }, countries, cities);
    assert.deepEqual(countries.asked, []);
    assert.equal(visitor.country, 'DE');
    assert.equal(visitor.country, 'DE');
    assert.deepEqual(countries.asked, ['203.0.113.9'], 'asked once, with the IPv4 address of a v4-mapped one');
    assert.equal(visitor.city, 'Berlin');
    assert.equal(visitor.region, null, 'no lookup answers a region');

    const given = visitorOf({ ip: '203.0.113.9', country: ' fr ', city: 'Lyon', region: 'Auvergne-Rhône-Alpes' }, countries, cities);
    assert.equal(given.country, 'FR');
    assert.equal(given.city, 'Lyon');
    assert.equal(given.region, 'Auvergne-Rhône-Alpes');
    assert.equal(countries.asked.length, 1, 'a given country is not looked up');
  });

  it('knows no place without an address or a lookup, or when the lookup fails', () => {
    assert.equal(visitorOf({ ip: '203.0.113.9' }).country, null);
    assert.equal(visitorOf({}, lookup('DE')).country, null);
    const failing = () => {
      throw new Error('broken database');
    };
    assert.equal(visitorOf({ ip: '203.0.113.9' }, failing).country, null);
  });

  it('keeps the address in the form rules compare, and drops what is no address', () => {
    assert.equal(visitorOf({ ip: '::FFFF:192.0.2.1' }).ip, '192.0.2.1');
    assert.equal(visitorOf({ ip: '2001:db8::1' }).ip, '2001:db8::1');
    assert.equal(visitorOf({ ip: 'unknown' }).ip, null);
    assert.equal(visitorOf({}).ip, null);
  });

  it('decodes the query as URLSearchParams does, keeping every value of a key', () => {
    const query = visitorOf({ query: 'a=1&a=2&b&c=&d=x+y%20z&%C3%A9t%C3%A9=%E2%9C%93' }).query;
    assert.deepEqual(query.get('a'), ['1', '2']);
    assert.deepEqual(query.get('b'), ['']);
    assert.deepEqual(query.get('c'), ['']);
    assert.deepEqual(query.get('d'), ['x y z']);
    assert.deepEqual(query.get('été'), ['✓']);
    assert.equal(visitorOf({}).query.size, 0);
  });

  it("reads the referrer's host, lower-case, without port or final dot", () => {
    assert.equal(visitorOf({ referrer: 'https://WWW.Example.com.:8443/page?q=1' }).referrerHost, 'www.example.com');
    assert.equal(visitorOf({ referrer: 'http://[2001:db8::1]/' }).referrerHost, '2001:db8::1');
    assert.equal(visitorOf({ referrer: 'not a url' }).referrerHost, null);
    assert.equal(visitorOf({}).referrerHost, null);
  });

  it('lists the accepted languages, and takes the visit time given or now', () => {
    assert.deepEqual(
      visitorOf({ acceptLanguage: 'de;q=0.5,en-GB' }).languages.map((l) => l.tag),
      ['en-gb', 'de'],
    );
    assert.equal(visitorOf({ at: 1_700_000_000_000 }).at, 1_700_000_000_000);
    const before = Date.now();
    const at = visitorOf({}).at;
    assert.ok(at >= before && at <= Date.now());
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 9e15]) {
      const now = visitorOf({ at: bad }).at;
      assert.ok(now >= before && now <= Date.now(), `${bad} is no time: now instead`);
    }
  });
});

describe('query parameters', () => {
  it('decode as URLSearchParams decodes them, malformed escapes and bytes that are no UTF-8 too', () => {
    const queries = [
      'a=1&b=2',
      '?a=1',
      'a=x+y&b=%2B%26%3D',
      'a=%zz&b=%&c=%e2%82',
      '%C3%A9t%C3%A9=%E2%9C%93',
      'a==b&=c&&d',
      'a=%F0%9F%98%80+%ED%A0%80',
      'key%20with+space=v&key+with%20space=w',
    ];
    for (const query of queries) {
      const expected = new Map<string, string[]>();
      for (const [key, value] of new URLSearchParams(query)) expected.set(key, [...(expected.get(key) ?? []), value]);
      assert.deepEqual(parametersOf(query), expected, query);
    }
  });
});
