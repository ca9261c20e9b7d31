import { LRUCache } from 'lru-cache';
import UAParser from 'ua-parser-js';
import type { ClickEvent } from '../storage/stores/analytics.js';
import { botName } from './bots.js';

/**
 * What a user agent says, as analytics records it (the click event's fields that come from it): ua-parser-js's
 * names, cut to FIELD_MAX; null where it says nothing; the device type `desktop` when it names none.
 */
export type Agent = Pick<ClickEvent, 'bot' | 'browser' | 'browserVersion' | 'os' | 'deviceType' | 'deviceVendor'>;

const FIELD_MAX = 64;

/** Reads a user agent: its bot name and what ua-parser-js makes of it. Costs tens of microseconds: callers remember the answer. */
export function parseAgent(userAgent: string): Agent {
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

/**
 * The device tags a redirect rule's `device` condition names. What each means, read off the user agent:
 * - `android`, `ios`, `windows`, `macos`, `chromeos`: the operating system (osFamily's `android`, `ios`, `windows`,
 *   `macos`, `chromeos`); `ios` includes iPadOS, which ua-parser-js names iOS. An iPad that asks for desktop sites
 *   (Safari's default since iPadOS 13) sends a Mac's user agent and is `macos` and `desktop`: nothing tells them apart.
 *   `windows` is Windows itself, not Windows Phone or Xbox.
 * - `linux`: Linux or a Linux distribution (Ubuntu, Fedora, Debian, …), not Android or ChromeOS, which have their own tags.
 * - `mobile`: a phone-class device (ua-parser-js's `mobile`); `tablet`: a tablet. Neither for the rest.
 * - `desktop`: a device ua-parser-js names no type for (a computer), and not a bot. Consoles, TVs, watches and
 *   embedded devices are neither `mobile`, `tablet` nor `desktop`. A visit without a user agent is `desktop`.
 * - `bot`: a crawler or link-preview fetcher (isbot's list plus bots.ts's fetchers: what analytics counts as a bot).
 *   A bot is tagged with what its agent says besides (Googlebot's smartphone agent is `bot`, `android` and `mobile`).
 */
// biome-ignore format: a list of words reads best as a line of words
export const DEVICE_TAGS = ['android', 'ios', 'mobile', 'windows', 'macos', 'linux', 'chromeos', 'desktop', 'tablet', 'bot'] as const;

export type DeviceTag = (typeof DEVICE_TAGS)[number];

/** What a redirect rule asks of a user agent: its device tags and its browser's and system's families. */
export interface AgentTraits {
  readonly bot: boolean;
  readonly tags: ReadonlySet<DeviceTag>;
  /** browserFamily of the browser's name, or null. */
  readonly browser: string | null;
  /** osFamily of the system's name, or null. */
  readonly os: string | null;
}

/**
 * A family name in its one written form: lower-case, spaces single, a `mobile` before or after dropped
 * (`Mobile Safari` → `safari`, `Chrome Mobile` → `chrome`), and the aliases below. A rule's value and an agent's
 * name both go through it, so `Safari`, `mobile safari` and `safari` all name one family.
 */
function family(name: string): string {
  const words = name.trim().toLowerCase().replace(/\s+/g, ' ');
  const bare = words.replace(/^mobile /, '').replace(/ mobile$/, '');
  return ALIASES[bare] ?? bare;
}

/** Other names for a family, as people write them or as ua-parser-js names it. */
const ALIASES: Readonly<Record<string, string>> = {
  'mac os': 'macos',
  'mac os x': 'macos',
  'os x': 'macos',
  'chromium os': 'chromeos',
  'chrome os': 'chromeos',
  ipados: 'ios',
  'internet explorer': 'ie',
  'samsung browser': 'samsung internet',
  'microsoft edge': 'edge',
};

/** A browser's family: its ua-parser-js name through `family` (`chrome`, `firefox`, `safari`, `edge`, `opera`, `samsung internet`, `ie`, …). */
export const browserFamily = family;

/** A system's family: its ua-parser-js name through `family` (`windows`, `macos`, `ios`, `android`, `chromeos`, `linux`, `ubuntu`, …). */
export const osFamily = family;

/** ua-parser-js's names of Linux distributions (and `linux` itself), lower-case: the `linux` tag and the `os` family `linux`. */
const LINUX =
  /^(?:linux|[kxln]?ubuntu(?: touch)?|debian|suse|opensuse|gentoo|arch|slackware|fedora|mandriva|centos|pclinuxos|red ?hat|zenwalk|linpus|raspbian|deepin|manjaro|elementary os|sabayon|linspire|mint|mageia|vectorlinux)$/;

/** Whether a system's family is Linux or one of its distributions. */
export const isLinux = (os: string | null): boolean => os !== null && LINUX.test(os);

const OS_TAGS: Readonly<Record<string, DeviceTag>> = { android: 'android', ios: 'ios', windows: 'windows', macos: 'macos', chromeos: 'chromeos' };

/** The traits of what an agent says (see DEVICE_TAGS). */
export function traitsOf(agent: Agent): AgentTraits {
  const browser = agent.browser === null ? null : browserFamily(agent.browser);
  const os = agent.os === null ? null : osFamily(agent.os);
  const tags = new Set<DeviceTag>();
  const bot = agent.bot !== null;
  if (bot) tags.add('bot');
  const osTag = os === null ? undefined : OS_TAGS[os];
  if (osTag !== undefined) tags.add(osTag);
  else if (isLinux(os)) tags.add('linux');
  if (agent.deviceType === 'mobile' || agent.deviceType === 'tablet') tags.add(agent.deviceType);
  else if (agent.deviceType === 'desktop' && !bot) tags.add('desktop');
  return { bot, tags, browser, os };
}

/** A user agent longer than this is read each time rather than remembered (a made-up one must not fill memory). */
const REMEMBERED_LENGTH = 512;

/**
 * Traits by user agent, the most recent few: a redirect rule asks on the request path, where a parse
 * (tens of microseconds) costs more than the rest of the redirect, and most visits come from a few agents.
 */
const remembered = new LRUCache<string, AgentTraits>({ max: 1000 });

/** The traits of a user agent (none: `''`), remembered. */
export function agentTraits(userAgent: string): AgentTraits {
  const known = remembered.get(userAgent);
  if (known !== undefined) return known;
  const traits = traitsOf(parseAgent(userAgent));
  if (userAgent.length <= REMEMBERED_LENGTH) remembered.set(userAgent, traits);
  return traits;
}
