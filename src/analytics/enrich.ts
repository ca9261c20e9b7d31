import { isIP } from 'node:net';
import UAParser from 'ua-parser-js';
import type { AnalyticsLevel } from '../config.js';
import type { ClientAddress } from '../net/client-address.js';
import type { ClickEvent } from '../storage/stores/analytics.js';
import { botName } from './bots.js';
import type { PlaceLookup } from './places.js';

/**
 * A visit as the redirect noted it: references to what the request already had, nothing
 * parsed. An opted-out visit (DNT: 1 or Sec-GPC: 1) has no user agent, referrer, language or
 * addresses at all: they are not even held in memory.
 */
export interface RawVisit {
  readonly time: number;
  readonly linkId: number;
  readonly userAgent: string | undefined;
  readonly referer: string | undefined;
  readonly acceptLanguage: string | undefined;
  readonly socketAddress: string | undefined;
  readonly forwardedFor: string | string[] | undefined;
  readonly optedOut: boolean;
}

/** What a user agent says (the event's fields that come from it), parsed once per distinct agent. */
type Agent = Pick<ClickEvent, 'bot' | 'browser' | 'browserVersion' | 'os' | 'deviceType' | 'deviceVendor'>;

const NOTHING = {
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
} as const;

const NO_AGENT: Agent = { bot: null, browser: null, browserVersion: null, os: null, deviceType: null, deviceVendor: null };

/** Distinct user agents remembered between batches; a crawl of made-up agents only empties it. */
const AGENTS_MAX = 2000;
const FIELD_MAX = 64;

/**
 * Turns raw visits into stored events, off the request path: bots, the user agent, the first
 * language, the referrer's host and the country of the client's address. The address is used
 * for the lookup and dropped: it is never part of an event.
 */
export class VisitEnricher {
  private readonly agents = new Map<string, Agent>();

  constructor(
    private readonly level: AnalyticsLevel,
    private readonly address: ClientAddress,
    private readonly country: PlaceLookup | undefined,
    /** GEOIP_CITY_DB's lookup, when the operator gave one. */
    private readonly city?: PlaceLookup,
  ) {}

  /** The event of a visit; never throws (a visit that cannot be read counts, with nothing else known). */
  enrich(visit: RawVisit): ClickEvent {
    try {
      return this.read(visit);
    } catch {
      return { time: visit.time, linkId: visit.linkId, ...NOTHING, clicks: 1 };
    }
  }

  private read(visit: RawVisit): ClickEvent {
    const { time, linkId } = visit;
    if (visit.optedOut) return { time, linkId, ...NOTHING, clicks: 1 };
    const userAgent = visit.userAgent ?? '';
    if (this.level === 'minimal') return { time, linkId, ...NOTHING, bot: this.agent(userAgent, false).bot, clicks: 1 };
    const address = this.address(visit.socketAddress, visit.forwardedFor);
    return {
      time,
      linkId,
      ...this.agent(userAgent, true),
      language: firstLanguage(visit.acceptLanguage),
      referrerHost: referrerHost(visit.referer),
      country: address !== undefined && this.country ? this.country(address) : null,
      city: address !== undefined && this.city ? this.city(address) : null,
      clicks: 1,
    };
  }

  /** What the agent says, remembered; `parse` false: its bot name only (ANALYTICS=minimal parses nothing else). */
  private agent(userAgent: string, parse: boolean): Agent {
    let agent = this.agents.get(userAgent);
    if (agent) return agent;
    agent = parse ? parseAgent(userAgent) : { ...NO_AGENT, bot: botName(userAgent) };
    if (this.agents.size >= AGENTS_MAX) this.agents.clear();
    this.agents.set(userAgent, agent);
    return agent;
  }
}

function parseAgent(userAgent: string): Agent {
  const { browser, os, device } = new UAParser(userAgent).getResult();
  return {
    bot: botName(userAgent),
    browser: short(browser.name),
    browserVersion: short(browser.major),
    os: short(os.name),
    // ua-parser-js names mobile, tablet, console, smarttv, wearable and embedded devices; the rest are desktops.
    deviceType: short(device.type) ?? 'desktop',
    deviceVendor: short(device.vendor),
  };
}

const short = (value: string | undefined): string | null => (value ? value.slice(0, FIELD_MAX) : null);

const LANGUAGE_TAG = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/;

/** The first tag of Accept-Language, lower-case (`en-GB,en;q=0.8` → `en-gb`); null for none or `*`. */
export function firstLanguage(header: string | undefined): string | null {
  if (!header) return null;
  const tag = header.split(',', 1)[0]!.split(';', 1)[0]!.trim().toLowerCase().replaceAll('_', '-');
  return tag.length <= 35 && LANGUAGE_TAG.test(tag) ? tag : null;
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
