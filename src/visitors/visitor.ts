import { isIP } from 'node:net';
import { type AcceptedLanguage, acceptedLanguages } from './languages.js';
import { type AgentTraits, agentTraits, type DeviceTag } from './user-agent.js';

/** What an address tells of a place: a country code or a city name, or null (unknown, not public, not an address). */
export type PlaceLookup = (address: string) => string | null;

/** What a request says of its visitor, as it came: nothing here is parsed yet. */
export interface VisitorInput {
  /** The User-Agent header. */
  readonly userAgent?: string;
  /** The Accept-Language header. */
  readonly acceptLanguage?: string;
  /** The client's address, already resolved through trusted proxies (TRUST_PROXY). */
  readonly ip?: string;
  /** A country given (the evaluate call): used instead of a lookup of the address. */
  readonly country?: string;
  /** A region given; no lookup answers one, so it is known only when given. */
  readonly region?: string;
  /** A city given: used instead of a lookup of the address. */
  readonly city?: string;
  /** What follows `?` in the request's URL, undecoded. */
  readonly query?: string;
  /** The Referer header. */
  readonly referrer?: string;
  /** When the visit happened, epoch milliseconds; the visitor's making when not given (or not a time). */
  readonly at?: number;
}

/**
 * What a visit says of its visitor, worked out once per request and only when asked: the user agent is read
 * when a device, browser, OS or bot is first asked for (and then remembered by agent, user-agent.ts), the
 * languages, the address's place, the query and the referrer each when first asked for. Shared by the
 * redirect rules and analytics.
 */
export interface Visitor {
  /** When the visit happened, epoch milliseconds. */
  readonly at: number;
  /** A crawler or link-preview fetcher (the bots analytics counts). */
  readonly bot: boolean;
  /** The device tags (user-agent.ts, DEVICE_TAGS, says what each means). */
  readonly devices: ReadonlySet<DeviceTag>;
  /** The browser's family, lower-case (`chrome`, `safari`, `firefox`, …), or null. */
  readonly browser: string | null;
  /** The system's family, lower-case (`windows`, `macos`, `ios`, `android`, `linux`, `ubuntu`, …), or null. */
  readonly os: string | null;
  /** The languages the visitor accepts, most preferred first (none refused with q=0, no `*`). */
  readonly languages: readonly AcceptedLanguage[];
  /** The client's address (an IPv4-mapped IPv6 address as its IPv4 one), or null when none or not an address. */
  readonly ip: string | null;
  /** ISO 3166-1 alpha-2 code, upper-case, or null when unknown. */
  readonly country: string | null;
  /** The region's name as given, or null when unknown. */
  readonly region: string | null;
  /** The city's name as given or as the city database names it, or null when unknown. */
  readonly city: string | null;
  /** The query's parameters, decoded as URLSearchParams does: each key's values in order (`?a` and `?a=` give `''`). */
  readonly query: ReadonlyMap<string, readonly string[]>;
  /** The Referer's host, lower-case, without a port or a final dot (an IPv6 address without brackets), or null. */
  readonly referrerHost: string | null;
}

/**
 * The visitor of one request. `places` looks the address's country up (analytics/places.ts's bundled database) and
 * `cities` its city (GEOIP_CITY_DB's), each asked only when the input gives no country or city of its own.
 */
export function visitorOf(input: VisitorInput, places?: PlaceLookup, cities?: PlaceLookup): Visitor {
  return new LazyVisitor(input, places, cities);
}

const NOT_YET = Symbol('not yet');
/** The last instant a Date holds, in milliseconds either side of the epoch. */
const MAX_TIME = 8.64e15;
const NO_QUERY: ReadonlyMap<string, readonly string[]> = new Map();

class LazyVisitor implements Visitor {
  readonly at: number;
  private traits: AgentTraits | undefined;
  private accepted: readonly AcceptedLanguage[] | undefined;
  private address: string | null | typeof NOT_YET = NOT_YET;
  private place: string | null | typeof NOT_YET = NOT_YET;
  private town: string | null | typeof NOT_YET = NOT_YET;
  private parameters: ReadonlyMap<string, readonly string[]> | undefined;
  private referrer: string | null | typeof NOT_YET = NOT_YET;

  constructor(
    private readonly input: VisitorInput,
    private readonly places: PlaceLookup | undefined,
    private readonly cities: PlaceLookup | undefined,
  ) {
    // A time no clock can read (NaN, past ±8.64e15) is no time: the visit's own is used, as when none is given.
    const at = input.at;
    this.at = at !== undefined && Math.abs(at) <= MAX_TIME ? at : Date.now();
  }

  private get agent(): AgentTraits {
    this.traits ??= agentTraits(this.input.userAgent ?? '');
    return this.traits;
  }

  get bot(): boolean {
    return this.agent.bot;
  }

  get devices(): ReadonlySet<DeviceTag> {
    return this.agent.tags;
  }

  get browser(): string | null {
    return this.agent.browser;
  }

  get os(): string | null {
    return this.agent.os;
  }

  get languages(): readonly AcceptedLanguage[] {
    this.accepted ??= acceptedLanguages(this.input.acceptLanguage);
    return this.accepted;
  }

  get ip(): string | null {
    if (this.address === NOT_YET) this.address = addressOf(this.input.ip);
    return this.address;
  }

  get country(): string | null {
    if (this.place === NOT_YET) this.place = given(this.input.country)?.toUpperCase() ?? lookUp(this.places, this.ip);
    return this.place;
  }

  get region(): string | null {
    return given(this.input.region);
  }

  get city(): string | null {
    if (this.town === NOT_YET) this.town = given(this.input.city) ?? lookUp(this.cities, this.ip);
    return this.town;
  }

  get query(): ReadonlyMap<string, readonly string[]> {
    this.parameters ??= parametersOf(this.input.query);
    return this.parameters;
  }

  get referrerHost(): string | null {
    if (this.referrer === NOT_YET) this.referrer = hostOf(this.input.referrer);
    return this.referrer;
  }
}

/** A given place, trimmed; null for none or blank. */
function given(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** What a lookup says of an address; null without either, or when the lookup fails. */
function lookUp(lookup: PlaceLookup | undefined, address: string | null): string | null {
  if (lookup === undefined || address === null) return null;
  try {
    return lookup(address);
  } catch {
    return null;
  }
}

const V4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** An address in the form rules compare: an IPv4-mapped IPv6 address as its IPv4 one; null for anything else. */
export function addressOf(ip: string | undefined): string | null {
  if (!ip) return null;
  const mapped = V4_MAPPED.exec(ip);
  if (mapped !== null && isIP(mapped[1]!) === 4) return mapped[1]!;
  return isIP(ip) === 0 ? null : ip;
}

/** A query's parameters by key, decoded as URLSearchParams decodes them (a leading `?` dropped, as it does). */
export function parametersOf(query: string | undefined): ReadonlyMap<string, readonly string[]> {
  if (!query) return NO_QUERY;
  const parameters = new Map<string, string[]>();
  // Most queries have nothing encoded: one test of the whole, rather than one of each pair.
  const plain = !ENCODED.test(query);
  let from = query.startsWith('?') ? 1 : 0;
  while (from < query.length) {
    let to = query.indexOf('&', from);
    if (to === -1) to = query.length;
    if (to > from) {
      let equals = query.indexOf('=', from);
      if (equals === -1 || equals > to) equals = to;
      const key = query.slice(from, equals);
      const value = equals === to ? '' : query.slice(equals + 1, to);
      if (plain) add(parameters, key, value);
      else add(parameters, ...decoded(query.slice(from, to), key, value));
    }
    from = to + 1;
  }
  return parameters;
}

function add(parameters: Map<string, string[]>, key: string, value: string): void {
  const values = parameters.get(key);
  if (values === undefined) parameters.set(key, [value]);
  else values.push(value);
}

const ENCODED = /[%+]/;

/**
 * A pair's key and value decoded: as they are when nothing in them is encoded (most are), by
 * decodeURIComponent when their escapes are well formed, and by URLSearchParams itself when not (it keeps
 * a malformed escape as it is and writes U+FFFD for bytes that are no UTF-8, where decodeURIComponent throws).
 */
function decoded(pair: string, key: string, value: string): [string, string] {
  if (!ENCODED.test(pair)) return [key, value];
  try {
    return [decodeURIComponent(key.replaceAll('+', ' ')), decodeURIComponent(value.replaceAll('+', ' '))];
  } catch {
    for (const entry of new URLSearchParams(pair)) return entry;
    return [key, value];
  }
}

/** A URL's host in the form rules compare (`https://WWW.Example.com.:8443/x` → `www.example.com`); null when it is no URL with a host. */
export function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  if (host.startsWith('[')) host = host.slice(1, -1);
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host === '' ? null : host;
}
