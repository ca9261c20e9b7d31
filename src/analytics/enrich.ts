import { isIP } from 'node:net';
import type { AnalyticsLevel } from '../config.js';
import { within } from '../nested-maps.js';
import type { ClientAddress } from '../net/client-address.js';
import type { ClickEvent } from '../storage/stores/analytics.js';
import { botName } from '../visitors/bots.js';
import { languageTag } from '../visitors/languages.js';
import { type Agent as ParsedAgent, parseAgent } from '../visitors/user-agent.js';
import type { PlaceLookup } from '../visitors/visitor.js';

/**
 * A visit as the redirect noted it: references to what the request already had, nothing
 * parsed. An opted-out visit (DNT: 1 or Sec-GPC: 1) has no user agent, referrer, language or
 * addresses at all: they are not even held in memory. Visits alike that follow each other (the
 * same link, second and headers) are one RawVisit with their number (visit-recorder.ts).
 */
export interface RawVisit {
  /** The start of the visit's second, epoch milliseconds. */
  readonly time: number;
  readonly linkId: number;
  readonly userAgent: string | undefined;
  readonly referer: string | undefined;
  readonly acceptLanguage: string | undefined;
  readonly socketAddress: string | undefined;
  readonly forwardedFor: string | string[] | undefined;
  readonly optedOut: boolean;
  /** What a visit of a link with rules took (ClickEvent's `rule`); null otherwise, or when not recorded. */
  readonly rule: string | null;
  /** How many visits this one stands for. */
  visits: number;
}

/**
 * What an event says of its visitor: every field of a ClickEvent but its time, link, rule taken and count.
 * The enricher hands out one object per distinct set of values, so visits are folded by identity.
 */
export type VisitProfile = Omit<ClickEvent, 'time' | 'linkId' | 'rule' | 'clicks'>;

/** What a user agent says (the event's fields that come from it: visitors/user-agent.ts), parsed once per distinct agent. */
type Agent = Pick<ClickEvent, keyof ParsedAgent>;

/** A visit of which nothing is known (an opted-out visitor's): every field null. */
export const NOTHING: VisitProfile = {
  bot: null,
  browser: null,
  browserVersion: null,
  os: null,
  deviceType: null,
  deviceVendor: null,
  language: null,
  referrerHost: null,
  country: null,
  city: null,
};

const NO_AGENT: Agent = { bot: null, browser: null, browserVersion: null, os: null, deviceType: null, deviceVendor: null };

/**
 * Distinct user agents, languages and profiles kept from one batch to the next (each its own table,
 * emptied between batches when past it): a crawl of made-up headers only empties them. Never emptied
 * within a batch, so that visits alike in a batch share one profile (addresses and referrers are kept
 * for the batch only: they say who visited, and from which page).
 */
const REMEMBERED_MAX = 2000;

/**
 * Turns raw visits into what is stored of them, off the request path: bots, the user agent, the
 * first language, the referrer's host and the country of the client's address. The address is
 * used for the lookup and dropped: it is never part of an event. What each header says is
 * remembered by its text, and a visit with the same headers as the one before costs one comparison
 * of each, so a busy visitor or a crowd with the same browser costs little more than a count.
 */
export class VisitEnricher {
  private readonly agents = new Map<string, Agent>();
  private readonly referrers = new Map<string, string | null>();
  private readonly languages = new Map<string, string | null>();
  /** Places by address, for one batch: busy clients and proxies come back often, and a lookup costs more than the visit. */
  private readonly countries = new Map<string, string | null>();
  private readonly cities = new Map<string, string | null>();
  private readonly profiles = new Profiles();
  private last: RawVisit | undefined;
  private lastProfile: VisitProfile = NOTHING;

  constructor(
    private readonly level: AnalyticsLevel,
    private readonly address: ClientAddress,
    private readonly country: PlaceLookup | undefined,
    /** GEOIP_CITY_DB's lookup, when the operator gave one. */
    private readonly city?: PlaceLookup,
  ) {}

  /**
   * After a batch of visits: forgets its last visit, every address it looked up and every Referer it
   * read (no address or referring page stays in memory past its batch), and what it remembers of user
   * agents, languages and profiles past REMEMBERED_MAX of each.
   */
  trim(): void {
    this.last = undefined;
    this.referrers.clear();
    this.countries.clear();
    this.cities.clear();
    for (const table of [this.agents, this.languages]) if (table.size > REMEMBERED_MAX) table.clear();
    this.profiles.trim();
  }

  /** The event of a visit; never throws (a visit that cannot be read counts, with nothing else known). */
  enrich(visit: RawVisit): ClickEvent {
    return eventOf(visit, this.profile(visit));
  }

  /**
   * What a visit says of its visitor, as one shared object per distinct set of values; never throws
   * (a visit that cannot be read has nothing known).
   */
  profile(visit: RawVisit): VisitProfile {
    const last = this.last;
    if (last !== undefined && sameVisitor(last, visit)) return this.lastProfile;
    let profile: VisitProfile;
    try {
      profile = this.read(visit);
    } catch {
      profile = NOTHING;
    }
    this.last = visit;
    this.lastProfile = profile;
    return profile;
  }

  private read(visit: RawVisit): VisitProfile {
    if (visit.optedOut) return NOTHING;
    const userAgent = visit.userAgent ?? '';
    if (this.level === 'minimal') {
      const agent = this.agent(userAgent, false);
      return agent.bot === null ? NOTHING : this.profiles.of(agent, null, null, null, null);
    }
    const address = this.address(visit.socketAddress, visit.forwardedFor);
    return this.profiles.of(
      this.agent(userAgent, true),
      remembered(this.languages, visit.acceptLanguage, firstLanguage),
      remembered(this.referrers, visit.referer, referrerHost),
      this.country ? remembered(this.countries, address, this.country) : null,
      this.city ? remembered(this.cities, address, this.city) : null,
    );
  }

  /** What the agent says, remembered; `parse` false: its bot name only (ANALYTICS=minimal parses nothing else). */
  private agent(userAgent: string, parse: boolean): Agent {
    let agent = this.agents.get(userAgent);
    if (agent) return agent;
    agent = parse ? parseAgent(userAgent) : { ...NO_AGENT, bot: botName(userAgent) };
    this.agents.set(userAgent, agent);
    return agent;
  }
}

/**
 * One object per distinct profile, found by its values in nested tables: the agent (itself one
 * object per user agent), then language, referrer, country and city. No key is built: the values
 * are the enricher's own remembered strings, whose hashes V8 keeps.
 */
class Profiles {
  private readonly byAgent = new Map<Agent, Map<string | null, Map<string | null, Map<string | null, Map<string | null, VisitProfile>>>>>();
  private size = 0;

  trim(): void {
    if (this.size <= REMEMBERED_MAX) return;
    this.byAgent.clear();
    this.size = 0;
  }

  of(agent: Agent, language: string | null, referrerHost: string | null, country: string | null, city: string | null): VisitProfile {
    const byCity = within(within(within(within(this.byAgent, agent), language), referrerHost), country);
    let profile = byCity.get(city);
    if (profile !== undefined) return profile;
    profile = {
      bot: agent.bot,
      browser: agent.browser,
      browserVersion: agent.browserVersion,
      os: agent.os,
      deviceType: agent.deviceType,
      deviceVendor: agent.deviceVendor,
      language,
      referrerHost,
      country,
      city,
    };
    byCity.set(city, profile);
    this.size++;
    return profile;
  }
}

/** The event of a visit with what it says of its visitor: its second, link, rule taken and number, and the profile's values. */
export function eventOf(visit: RawVisit, profile: VisitProfile): ClickEvent {
  return { time: visit.time, linkId: visit.linkId, ...profile, rule: visit.rule, clicks: visit.visits };
}

/** Whether two visits came with the same headers, opt-out and addresses: the same visitor, as far as analytics can tell. */
export function sameVisitor(a: RawVisit, b: RawVisit): boolean {
  return (
    a.userAgent === b.userAgent &&
    a.socketAddress === b.socketAddress &&
    a.referer === b.referer &&
    a.acceptLanguage === b.acceptLanguage &&
    a.forwardedFor === b.forwardedFor &&
    a.optedOut === b.optedOut
  );
}

/** What `read` makes of a header, remembered by the header's text (none: null). */
function remembered(table: Map<string, string | null>, header: string | undefined, read: (header: string) => string | null): string | null {
  if (!header) return null;
  let value = table.get(header);
  if (value !== undefined) return value;
  value = read(header);
  table.set(header, value);
  return value;
}

/** The first tag of Accept-Language, lower-case (`en-GB,en;q=0.8` → `en-gb`); null for none or `*`. */
export function firstLanguage(header: string | undefined): string | null {
  if (!header) return null;
  return languageTag(header.split(',', 1)[0]!.split(';', 1)[0]!);
}

/**
 * The host of the Referer, lower-case, without port or path; null for none, a malformed one, or
 * a host that is an IP address (no address is ever recorded, not even a referring machine's).
 */
export function referrerHost(header: string | undefined): string | null {
  if (!header) return null;
  let url: URL;
  try {
    url = new URL(header);
  } catch {
    return null;
  }
  const host = url.hostname;
  if (!host || host.length > 253 || isIP(host.replace(/^\[|\]$/g, '')) !== 0) return null;
  return host;
}
