// What each condition type makes of its value (and key): its test, made once, or the value's problem.
// conditions.ts checks first what every type shares (a string, a key where one is taken, the lengths).
import { BlockList, isIP } from 'node:net';
import { existsOnTheCalendar, ISO_TIMESTAMP } from '../../iso-instants.js';
import { LANGUAGE_TAG_MAX, languageTag } from '../../visitors/languages.js';
import { browserFamily, DEVICE_TAGS, type DeviceTag, isLinux, osFamily } from '../../visitors/user-agent.js';
import { addressOf, type Visitor } from '../../visitors/visitor.js';
import type { ConditionType } from './rule-types.js';
import { WEEKDAYS, ZoneClock } from './zone-clock.js';

/** A condition's problem, naming the field that has it. */
export interface ConditionProblem {
  readonly field: 'type' | 'key' | 'value';
  readonly message: string;
}

/** A visit's test: whether the visitor meets the condition. */
export type ConditionTest = (visitor: Visitor) => boolean;

type Made = ConditionTest | ConditionProblem;

const valueProblem = (message: string): ConditionProblem => ({ field: 'value', message });

/** A browser's or system's name: letters and digits, with spaces, dots, dashes and pluses between (`Samsung Internet`, `Mac OS`). */
const FAMILY_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._+-]{0,63}$/u;

/** A region's or city's name, compared without regard to case or Unicode's ways of writing one letter. */
const placeName = (name: string): string => name.trim().normalize('NFC').toLowerCase();

/** A name that is a place's: not blank, and short (a city database's names are cut at 64). */
const PLACE_MAX = 100;

/** What each type makes of its value and key. */
export const VALUE_TESTS: Readonly<Record<ConditionType, (value: string, key: string) => Made>> = {
  device(value) {
    const tag = value.trim().toLowerCase() as DeviceTag;
    if (!DEVICE_TAGS.includes(tag)) return valueProblem(`A device condition's value must be one of ${DEVICE_TAGS.join(', ')}`);
    return (visitor) => visitor.devices.has(tag);
  },

  // Families are ua-parser-js's names in one form (user-agent.ts): `chrome`, `safari` (Mobile Safari too), `edge`, …
  browser(value) {
    if (!FAMILY_NAME.test(value.trim()))
      return valueProblem("A browser condition's value must be a browser's name, such as chrome, firefox or safari");
    const family = browserFamily(value);
    return (visitor) => visitor.browser === family;
  },

  // `linux` is Linux or any of its distributions, as the device tag is; `ubuntu` only Ubuntu.
  os(value) {
    if (!FAMILY_NAME.test(value.trim()))
      return valueProblem("An os condition's value must be a system's name, such as windows, macos, ios or android");
    const family = osFamily(value);
    if (family === 'linux') return (visitor) => isLinux(visitor.os);
    return (visitor) => visitor.os === family;
  },

  // The visitor accepts the language (q > 0) or one of its regional forms: `en` matches a visitor accepting
  // `en-GB`, but `en-GB` does not match one accepting only `en` (they may not read British English). A
  // visitor's `*` matches no condition: it says no language in particular.
  language(value) {
    const tag = languageTag(value);
    if (tag === null) {
      return valueProblem(`A language condition's value must be a language tag of at most ${LANGUAGE_TAG_MAX} characters, such as en or en-GB`);
    }
    const regional = `${tag}-`;
    return (visitor) => visitor.languages.some((accepted) => accepted.tag === tag || accepted.tag.startsWith(regional));
  },

  country(value) {
    const code = value.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(code))
      return valueProblem("A country condition's value must be a two-letter country code (ISO 3166-1 alpha-2), such as FR");
    return (visitor) => visitor.country === code;
  },

  // A region or a city matches only when known (given, or in GEOIP_CITY_DB), by its name in any case.
  region: placeCondition('region'),
  city: placeCondition('city'),

  // Keys and values are compared as URLSearchParams decodes the visitor's (`a+b` and `a%20b` are `a b`), and case
  // matters, as it does to the pages the parameters are for. A key given several times matches on any of its values.
  query(value, key) {
    return (visitor) => visitor.query.get(key)?.includes(value) === true;
  },
  'query-any'(_value, key) {
    return (visitor) => visitor.query.has(key);
  },
  // Without a value is `?a` or `?a=` (as Shlink's valueless parameter), on any of the key's appearances.
  'query-none'(_value, key) {
    return (visitor) => visitor.query.get(key)?.includes('') === true;
  },

  ip(value) {
    const list = addressList(value.trim());
    if (list === undefined) {
      return valueProblem("An ip condition's value must be an IPv4 or IPv6 address, or a CIDR range such as 203.0.113.0/24 or 2001:db8::/32");
    }
    return (visitor) => {
      const ip = visitor.ip;
      return ip !== null && list.check(ip, ip.includes(':') ? 'ipv6' : 'ipv4');
    };
  },

  before(value) {
    const at = instant(value.trim());
    if (at === undefined) return valueProblem(instantMessage('before'));
    return (visitor) => visitor.at < at;
  },
  after(value) {
    const at = instant(value.trim());
    if (at === undefined) return valueProblem(instantMessage('after'));
    return (visitor) => visitor.at >= at;
  },

  weekday(value, key) {
    const clock = ZoneClock.of(key.trim());
    if (clock === undefined) return zoneProblem(key);
    let days = 0;
    for (const day of value.split(',')) {
      const index = WEEKDAYS.indexOf(day.trim().toLowerCase() as (typeof WEEKDAYS)[number]);
      if (index === -1)
        return valueProblem(`A weekday condition's value must be days among ${WEEKDAYS.join(',')}, separated by commas, such as sat,sun`);
      days |= 1 << index;
    }
    return (visitor) => (days & (1 << clock.weekday(visitor.at))) !== 0;
  },

  // From an hour inclusive to one exclusive on the zone's clock, 00 to 24; past midnight when the end comes
  // first (`22-06`). An hour a DST change skips never comes; one it repeats counts both times.
  hours(value, key) {
    const clock = ZoneClock.of(key.trim());
    if (clock === undefined) return zoneProblem(key);
    const range = /^\s*(\d{2})\s*-\s*(\d{2})\s*$/.exec(value);
    const from = Number(range?.[1]);
    const to = Number(range?.[2]);
    if (range === null || from > 23 || to > 24 || from === to) {
      return valueProblem(
        "An hours condition's value must be two whole hours from 00 to 24, the first included and the second not, such as 09-17 or 22-06",
      );
    }
    if (from < to) return (visitor) => within(clock.hour(visitor.at), from, to);
    return (visitor) => !within(clock.hour(visitor.at), to, from);
  },

  // The referrer's host is the value's, or a subdomain of it (`example.com` matches `www.example.com`).
  referrer(value) {
    const host = referrerHost(value.trim());
    if (host === undefined)
      return valueProblem(
        "A referrer condition's value must be a host name, such as example.com (its subdomains match too), without a scheme, port or path",
      );
    const subdomain = `.${host}`;
    return (visitor) => {
      const seen = visitor.referrerHost;
      return seen !== null && (seen === host || seen.endsWith(subdomain));
    };
  },
};

const within = (hour: number, from: number, to: number): boolean => hour >= from && hour < to;

function placeCondition(type: 'region' | 'city'): (value: string) => Made {
  return (value) => {
    const name = placeName(value);
    if (name === '' || name.length > PLACE_MAX)
      return valueProblem(`A ${type} condition's value must be a ${type}'s name of at most ${PLACE_MAX} characters`);
    return (visitor) => {
      const known = visitor[type];
      return known !== null && placeName(known) === name;
    };
  };
}

/** An address or a CIDR range as a list to check addresses against; undefined when it is neither. */
function addressList(value: string): BlockList | undefined {
  const slash = value.indexOf('/');
  const address = addressOf(slash === -1 ? value : value.slice(0, slash));
  // A zone index (`fe80::1%eth0`) names an interface of the server's, not an address a visitor comes from.
  if (address === null || address.includes('%')) return undefined;
  const family = address.includes(':') ? 'ipv6' : 'ipv4';
  const list = new BlockList();
  if (slash === -1) {
    list.addAddress(address, family);
    return list;
  }
  const prefixText = value.slice(slash + 1);
  let prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  // An IPv4-mapped range (`::ffff:10.0.0.0/104`) is the IPv4 range it maps, as its addresses are compared as IPv4.
  if (family === 'ipv4' && isIP(value.slice(0, slash)) === 6) prefix -= 96;
  if (!(prefix >= 0 && prefix <= (family === 'ipv4' ? 32 : 128))) return undefined;
  list.addSubnet(address, prefix, family);
  return list;
}

/** An ISO instant with its zone (`2026-12-24T18:00:00+01:00`) on a date that exists, as epoch milliseconds. */
function instant(value: string): number | undefined {
  const parts = ISO_TIMESTAMP.exec(value);
  if (parts === null || !existsOnTheCalendar(parts)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}

const instantMessage = (type: string): string =>
  `A ${type} condition's value must be an ISO timestamp with its offset or Z, such as 2026-12-24T18:00:00+01:00`;

const zoneProblem = (key: string): ConditionProblem => ({
  field: 'key',
  message: `The key must be an IANA time zone, such as Europe/Paris: ${JSON.stringify(key.slice(0, 64))} is none`,
});

const HOST_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/** A host name in its one written form (lower-case, IDN as punycode, no final dot); undefined when it is none. */
function referrerHost(value: string): string | undefined {
  if (value === '' || !/^[^\s/?#@:%\\[\]]+$/.test(value)) return undefined;
  let host: string;
  try {
    host = new URL(`http://${value}/`).hostname;
  } catch {
    return undefined;
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  // The URL parser lets through what no host name holds (`*.example.com`): labels of letters, digits, `-` and `_` only.
  return host.length > 253 || !HOST_NAME.test(host) ? undefined : host;
}
