// A redirect rule's conditions: each kind's match and no match, the edge cases issue 39 names, and every
// invalid condition refused on the field that is wrong.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileCondition, compileConditions, conditionProblem } from '../../../src/redirect/rules/conditions.js';
import type { Condition, ConditionType } from '../../../src/redirect/rules/rule-types.js';
import { type VisitorInput, visitorOf } from '../../../src/visitors/visitor.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const UBUNTU_FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const condition = (type: ConditionType, value?: string, key?: string): Condition => ({ type, value, key });

/** Whether a visitor of this input meets the condition (which must be valid). */
function meets(c: Condition, input: VisitorInput): boolean {
  assert.equal(conditionProblem(c), undefined, `${JSON.stringify(c)} is valid`);
  return compileCondition(c)(visitorOf(input, () => 'DE'));
}

/** Asserts which inputs meet a condition and which do not. */
function sorts(c: Condition, matching: VisitorInput[], others: VisitorInput[]): void {
  for (const input of matching) assert.equal(meets(c, input), true, `${JSON.stringify(c)} matches ${JSON.stringify(input)}`);
  for (const input of others) assert.equal(meets(c, input), false, `${JSON.stringify(c)} does not match ${JSON.stringify(input)}`);
}

/** Asserts the condition is refused on `field`, with a message that says `words`. */
function refused(c: Condition, field: 'type' | 'key' | 'value', words: RegExp): void {
  const problem = conditionProblem(c);
  assert.equal(problem?.field, field, `${JSON.stringify(c)}: ${JSON.stringify(problem)}`);
  assert.match(problem!.message, words);
  assert.throws(() => compileCondition(c), TypeError);
}

const at = (iso: string): VisitorInput => ({ at: Date.parse(iso) });

describe('conditions by kind', () => {
  it('device: by tag, in any case', () => {
    sorts(condition('device', 'ios'), [{ userAgent: IPHONE }], [{ userAgent: WINDOWS_CHROME }, {}]);
    sorts(condition('device', 'Mobile'), [{ userAgent: IPHONE }], [{ userAgent: WINDOWS_CHROME }]);
    sorts(condition('device', 'desktop'), [{ userAgent: WINDOWS_CHROME }, {}], [{ userAgent: IPHONE }, { userAgent: GOOGLEBOT }]);
    sorts(condition('device', 'bot'), [{ userAgent: GOOGLEBOT }], [{ userAgent: IPHONE }]);
    sorts(condition('device', 'linux'), [{ userAgent: UBUNTU_FIREFOX }], [{ userAgent: WINDOWS_CHROME }]);
  });

  it('browser and os: by family, in any case', () => {
    sorts(condition('browser', 'Safari'), [{ userAgent: IPHONE }], [{ userAgent: WINDOWS_CHROME }, {}]);
    sorts(condition('browser', 'chrome'), [{ userAgent: WINDOWS_CHROME }], [{ userAgent: IPHONE }]);
    sorts(condition('os', 'Windows'), [{ userAgent: WINDOWS_CHROME }], [{ userAgent: IPHONE }]);
    sorts(condition('os', 'iOS'), [{ userAgent: IPHONE }], [{ userAgent: WINDOWS_CHROME }]);
    sorts(condition('os', 'linux'), [{ userAgent: UBUNTU_FIREFOX }], [{ userAgent: WINDOWS_CHROME }]);
    sorts(condition('os', 'ubuntu'), [{ userAgent: UBUNTU_FIREFOX }], [{ userAgent: WINDOWS_CHROME }]);
  });

  it('language: accepted with q > 0; en matches en-GB, not the reverse; * matches nothing', () => {
    sorts(
      condition('language', 'en'),
      [{ acceptLanguage: 'en' }, { acceptLanguage: 'en-GB' }, { acceptLanguage: 'fr, en-US;q=0.1' }, { acceptLanguage: 'en-gb;q=0.5, en;q=0' }],
      [{ acceptLanguage: 'fr' }, { acceptLanguage: 'en;q=0' }, { acceptLanguage: 'eng' }, { acceptLanguage: '*' }, {}],
    );
    sorts(
      condition('language', 'en-GB'),
      [{ acceptLanguage: 'en-gb' }, { acceptLanguage: 'de, en_GB;q=0.3' }, { acceptLanguage: 'en-GB-oxendict' }],
      [{ acceptLanguage: 'en' }, { acceptLanguage: 'en-US' }, { acceptLanguage: 'en-GB;q=0, en' }],
    );
  });

  it('country: the given one or the lookup, in any case', () => {
    sorts(condition('country', 'de'), [{ ip: '203.0.113.9' }, { country: 'DE' }], [{ country: 'FR', ip: '203.0.113.9' }, {}]);
    sorts(condition('country', 'FR'), [{ country: 'fr' }], [{ ip: '203.0.113.9' }]);
  });

  it('region and city: by name in any case, only when known', () => {
    sorts(condition('region', 'Île-de-France'), [{ region: 'île-de-france' }], [{ region: 'Bretagne' }, {}]);
    sorts(condition('city', 'münchen'), [{ city: 'München' }, { city: ' MÜNCHEN ' }], [{ city: 'Munich' }, { ip: '203.0.113.9' }]);
  });

  it('query: key = value, decoded, any appearance of the key', () => {
    sorts(
      condition('query', 'spring sale', 'utm_campaign'),
      [{ query: 'utm_campaign=spring+sale' }, { query: 'utm_campaign=x&utm_campaign=spring%20sale' }],
      [{ query: 'utm_campaign=Spring+Sale' }, { query: 'utm_campaignx=spring+sale' }, { query: 'utm_campaign' }, {}],
    );
    sorts(condition('query', '', 'a'), [{ query: 'a=' }, { query: 'a' }], [{ query: 'a=1' }]);
  });

  it('query-any: the key with any value, empty too; query-none: the key without a value (?a or ?a=)', () => {
    sorts(condition('query-any', undefined, 'ref'), [{ query: 'ref=x' }, { query: 'ref' }, { query: 'ref=' }], [{ query: 'refx=1' }, {}]);
    sorts(
      condition('query-none', '', 'preview'),
      [{ query: 'preview' }, { query: 'preview=' }, { query: 'preview=1&preview' }],
      [{ query: 'preview=1' }, { query: 'x' }],
    );
  });

  it('ip: an address or a CIDR range, v4 and v6, v4-mapped addresses as v4', () => {
    sorts(condition('ip', '203.0.113.9'), [{ ip: '203.0.113.9' }, { ip: '::ffff:203.0.113.9' }], [{ ip: '203.0.113.10' }, {}]);
    sorts(
      condition('ip', '198.51.100.0/24'),
      [{ ip: '198.51.100.0' }, { ip: '198.51.100.255' }, { ip: '::ffff:198.51.100.7' }],
      [{ ip: '198.51.101.0' }, { ip: '2001:db8::1' }, { ip: 'garbage' }],
    );
    sorts(
      condition('ip', '2001:db8:abcd::/48'),
      [{ ip: '2001:db8:abcd::1' }, { ip: '2001:DB8:ABCD:ffff::9' }],
      [{ ip: '2001:db8:abce::1' }, { ip: '203.0.113.9' }],
    );
    sorts(condition('ip', '2001:db8::1'), [{ ip: '2001:0db8:0000::0001' }], [{ ip: '2001:db8::2' }]);
    sorts(condition('ip', '::ffff:10.0.0.0/104'), [{ ip: '10.1.2.3' }, { ip: '::ffff:10.9.9.9' }], [{ ip: '11.0.0.1' }]);
    sorts(condition('ip', '0.0.0.0/0'), [{ ip: '8.8.8.8' }], [{}]);
  });

  it('before and after: the visit time against an instant, before exclusive, after inclusive', () => {
    const instant = '2026-12-24T18:00:00+01:00';
    sorts(condition('before', instant), [at('2026-12-24T16:59:59.999Z')], [at('2026-12-24T17:00:00Z'), at('2027-01-01T00:00:00Z')]);
    sorts(condition('after', instant), [at('2026-12-24T17:00:00Z'), at('2030-01-01T00:00:00Z')], [at('2026-12-24T16:59:59.999Z')]);
  });

  it("weekday: the zone's local weekday, not UTC's, changing at the zone's midnight", () => {
    const weekend = condition('weekday', 'sat,sun', 'Europe/Berlin');
    // 2026-11-27 is a Friday: 23:59 in Berlin is 22:59 UTC, 00:00 on Saturday is 23:00 UTC on Friday.
    sorts(weekend, [at('2026-11-27T23:00:00Z'), at('2026-11-29T22:59:59Z')], [at('2026-11-27T22:59:59Z'), at('2026-11-29T23:00:00Z')]);
    const friday = condition('weekday', 'fri', 'America/New_York');
    // 2026-11-28T03:00Z is Saturday in UTC and still Friday 22:00 in New York.
    sorts(friday, [at('2026-11-28T03:00:00Z'), at('2026-11-27T05:00:00Z')], [at('2026-11-28T05:00:00Z'), at('2026-11-27T04:59:59Z')]);
    sorts(condition('weekday', ' MON , tue ', 'UTC'), [at('2026-11-30T12:00:00Z'), at('2026-12-01T23:59:59Z')], [at('2026-12-02T00:00:00Z')]);
  });

  it('hours: from inclusive to exclusive on the local clock, around midnight too', () => {
    const office = condition('hours', '09-17', 'Europe/Berlin');
    // November: Berlin is UTC+1.
    sorts(office, [at('2026-11-27T08:00:00Z'), at('2026-11-27T15:59:59Z')], [at('2026-11-27T07:59:59Z'), at('2026-11-27T16:00:00Z')]);
    const night = condition('hours', '22-06', 'Europe/Berlin');
    sorts(
      night,
      [at('2026-11-27T21:00:00Z'), at('2026-11-27T23:30:00Z'), at('2026-11-28T04:59:00Z')],
      [at('2026-11-27T20:59:59Z'), at('2026-11-28T05:00:00Z'), at('2026-11-28T12:00:00Z')],
    );
    sorts(condition('hours', '22-00', 'UTC'), [at('2026-11-27T23:59:59Z')], [at('2026-11-28T00:00:00Z'), at('2026-11-27T21:59:59Z')]);
    sorts(condition('hours', '00-24', 'Asia/Kathmandu'), [at('2026-11-27T00:00:00Z'), at('2026-11-27T18:14:00Z')], []);
  });

  it('hours: across the DST changes in Berlin (2026-03-29 and 2026-10-25)', () => {
    // Spring: at 01:00 UTC, 02:00 CET becomes 03:00 CEST; the hour 02 never comes that night.
    const two = condition('hours', '02-03', 'Europe/Berlin');
    const three = condition('hours', '03-04', 'Europe/Berlin');
    sorts(three, [at('2026-03-29T01:00:00Z'), at('2026-03-29T01:59:59Z')], [at('2026-03-29T00:59:59Z'), at('2026-03-29T02:00:00Z')]);
    sorts(two, [at('2026-03-28T01:30:00Z')], [at('2026-03-29T00:30:00Z'), at('2026-03-29T01:30:00Z')]);
    sorts(condition('hours', '01-02', 'Europe/Berlin'), [at('2026-03-29T00:59:59Z')], [at('2026-03-29T01:00:00Z')]);
    // Autumn: at 01:00 UTC, 03:00 CEST becomes 02:00 CET; the hour 02 comes twice.
    sorts(
      two,
      [at('2026-10-25T00:00:00Z'), at('2026-10-25T00:59:59Z'), at('2026-10-25T01:00:00Z'), at('2026-10-25T01:59:59Z')],
      [at('2026-10-24T23:59:59Z'), at('2026-10-25T02:00:00Z')],
    );
    sorts(three, [at('2026-10-25T02:00:00Z')], [at('2026-10-25T01:30:00Z')]);
    // Office hours by the local clock on both sides of each change: 09:00 is 08:00 UTC in winter, 07:00 UTC in summer.
    const office = condition('hours', '09-17', 'Europe/Berlin');
    sorts(office, [at('2026-03-28T08:00:00Z'), at('2026-03-30T07:00:00Z')], [at('2026-03-28T07:30:00Z'), at('2026-03-30T06:59:59Z')]);
    sorts(office, [at('2026-10-24T07:00:00Z'), at('2026-10-26T08:00:00Z')], [at('2026-10-24T06:59:59Z'), at('2026-10-26T07:30:00Z')]);
  });

  it('referrer: the host or a subdomain of it, in any case', () => {
    sorts(
      condition('referrer', 'Example.com'),
      [{ referrer: 'https://example.com/a' }, { referrer: 'http://www.EXAMPLE.com:8080/' }, { referrer: 'https://a.b.example.com./' }],
      [{ referrer: 'https://notexample.com/' }, { referrer: 'https://example.com.evil.test/' }, { referrer: 'garbage' }, {}],
    );
    sorts(condition('referrer', 'bücher.de'), [{ referrer: 'https://www.xn--bcher-kva.de/' }], [{ referrer: 'https://buecher.de/' }]);
  });
});

describe('invalid conditions', () => {
  it('refuses an unknown type on type', () => {
    refused({ type: 'planet' as ConditionType, value: 'mars' }, 'type', /one of device, browser/);
    refused({ value: 'x' } as unknown as Condition, 'type', /type must be one of/);
    refused(null as unknown as Condition, 'type', /must be an object/);
    refused('device' as unknown as Condition, 'type', /must be an object/);
  });

  it('refuses keys where none is taken, and missing or bad keys where one is', () => {
    refused(condition('device', 'ios', 'x'), 'key', /takes no key/);
    for (const type of ['query', 'query-any', 'query-none'] as const) refused(condition(type, undefined), 'key', /needs a key: a query parameter/);
    refused(condition('query', 'v', 'k'.repeat(201)), 'key', /at most 200/);
    refused({ type: 'query', key: 5, value: 'v' } as unknown as Condition, 'key', /must be a string/);
    refused(condition('weekday', 'mon'), 'key', /needs a key: an IANA time zone/);
    refused(condition('weekday', 'mon', 'Mars/Olympus'), 'key', /IANA time zone/);
    refused(condition('hours', '09-17', 'Europe/Nowhere'), 'key', /IANA time zone/);
    assert.equal(conditionProblem(condition('device', 'ios', '')), undefined, 'an empty key is no key');
  });

  it('refuses missing, overlong and non-string values, and values where none is taken', () => {
    for (const type of ['device', 'browser', 'os', 'language', 'country', 'region', 'city', 'ip', 'before', 'after', 'referrer'] as const) {
      refused(condition(type, undefined), 'value', new RegExp(`A ${type} condition needs a value`));
      refused(condition(type, ''), 'value', /needs a value/);
    }
    refused(condition('query', undefined, 'a'), 'value', /needs a value/);
    refused(condition('query', 'x'.repeat(1001), 'a'), 'value', /at most 1000/);
    refused({ type: 'device', value: ['ios'] } as unknown as Condition, 'value', /must be a string/);
    refused(condition('query-any', 'x', 'a'), 'value', /takes no value/);
    refused(condition('query-none', 'x', 'a'), 'value', /takes no value/);
  });

  it("refuses each kind's malformed values on value", () => {
    const bad: Array<[Condition, RegExp]> = [
      [condition('device', 'phone'), /one of android, ios, mobile/],
      [condition('browser', '<script>'), /browser's name/],
      [condition('os', '!'), /system's name/],
      [condition('language', '*'), /language tag/],
      [condition('language', 'en_'), /language tag/],
      [condition('country', 'FRA'), /two-letter/],
      [condition('country', 'F1'), /two-letter/],
      [condition('region', '   '), /region's name/],
      [condition('city', 'x'.repeat(101)), /city's name/],
      [condition('ip', '300.1.1.1'), /IPv4 or IPv6/],
      [condition('ip', '10.0.0.0/33'), /CIDR/],
      [condition('ip', '2001:db8::/129'), /CIDR/],
      [condition('ip', '10.0.0.0/'), /CIDR/],
      [condition('ip', '10.0.0.0/-1'), /CIDR/],
      [condition('ip', 'fe80::1%eth0'), /CIDR/],
      [condition('ip', 'example.com'), /CIDR/],
      [condition('before', '2026-12-24'), /with its offset/],
      [condition('before', '2026-12-24T18:00:00'), /with its offset/],
      [condition('after', '2026-02-30T00:00:00Z'), /ISO timestamp/],
      [condition('after', 'tomorrow'), /ISO timestamp/],
      [condition('weekday', 'monday', 'UTC'), /days among mon,tue/],
      [condition('weekday', 'mon,,tue', 'UTC'), /days among/],
      [condition('hours', '9-17', 'UTC'), /two whole hours/],
      [condition('hours', '09:00-17:00', 'UTC'), /two whole hours/],
      [condition('hours', '09-25', 'UTC'), /00 to 24/],
      [condition('hours', '24-06', 'UTC'), /00 to 24/],
      [condition('hours', '09-09', 'UTC'), /two whole hours/],
      [condition('referrer', 'https://example.com'), /host name/],
      [condition('referrer', 'example.com/path'), /host name/],
      [condition('referrer', 'example.com:8080'), /host name/],
      [condition('referrer', 'exa mple.com'), /host name/],
      [condition('referrer', '*.example.com'), /subdomains match too/],
      [condition('referrer', 'example..com'), /host name/],
    ];
    for (const [c, words] of bad) refused(c, 'value', words);
  });

  it('accepts the documented forms', () => {
    const good: Condition[] = [
      condition('device', 'chromeos'),
      condition('browser', 'Samsung Internet'),
      condition('os', 'Mac OS'),
      condition('language', 'zh-Hant-TW'),
      condition('country', 'gb'),
      condition('ip', '::/0'),
      condition('before', '2026-12-24T18:00:00.123Z'),
      condition('after', '2026-12-24T18:00-05:00'),
      condition('weekday', 'mon,tue,wed,thu,fri,sat,sun', 'america/new_york'),
      condition('hours', '00-24', 'Etc/GMT-14'),
      condition('referrer', 'news.ycombinator.com'),
    ];
    for (const c of good) assert.equal(conditionProblem(c), undefined, JSON.stringify(c));
  });
});

describe('a rule of conditions', () => {
  it('matches when all match (none: always), and tries the cheap ones first', () => {
    const weekendPhones = compileConditions([condition('country', 'DE'), condition('device', 'mobile'), condition('weekday', 'sat,sun', 'UTC')]);
    const asked: string[] = [];
    const places = (address: string) => {
      asked.push(address);
      return 'DE';
    };
    const saturday = Date.parse('2026-11-28T12:00:00Z');
    assert.equal(weekendPhones(visitorOf({ userAgent: IPHONE, ip: '203.0.113.9', at: saturday }, places)), true);
    assert.equal(weekendPhones(visitorOf({ userAgent: WINDOWS_CHROME, ip: '203.0.113.9', at: saturday }, places)), false);
    assert.equal(asked.length, 1, 'the country is not looked up for a visit the device already refused');
    assert.equal(weekendPhones(visitorOf({ userAgent: IPHONE, ip: '203.0.113.9', at: saturday + 2 * 86_400_000 }, places)), false);
    assert.equal(asked.length, 1, 'nor for one the weekday refused');
    assert.equal(compileConditions([])(visitorOf({})), true);
  });
});
