import { isIP } from 'node:net';
import { BriefError } from '../errors.js';

/**
 * The destination hosts no link may point to, from the database (`brief blocklist`) and
 * BLOCKLIST_FILE. A host covers its subdomains: `example.com` covers `www.example.com`.
 * The redirect asks `coversUrl` of every visit, so it is made cheap: nothing while the
 * list is empty, else the host read from the stored (normalized) URL by index and a Set
 * lookup per label (docs/decisions/0008-abuse-controls.md).
 */
export class BlockedHosts {
  private stored: ReadonlySet<string> = new Set();
  private listed: ReadonlySet<string> = new Set();
  private all: ReadonlySet<string> = new Set();
  /** URL → whether it is blocked, for the list as it is now (cleared when it changes). */
  private readonly verdicts = new Map<string, boolean>();

  /** How many hosts are blocked; 0 is the redirect's one-comparison case. */
  get size(): number {
    return this.all.size;
  }

  /** The hosts from the database. */
  setStored(hosts: Iterable<string>): void {
    this.stored = new Set(hosts);
    this.all = new Set([...this.stored, ...this.listed]);
    this.verdicts.clear();
  }

  /** The hosts from BLOCKLIST_FILE. */
  setListed(hosts: Iterable<string>): void {
    this.listed = new Set(hosts);
    this.all = new Set([...this.stored, ...this.listed]);
    this.verdicts.clear();
  }

  /** Whether a (lower-case, punycode) host name is blocked, itself or through a parent domain. */
  covers(name: string): boolean {
    const all = this.all;
    if (all.size === 0) return false;
    // `example.com.` (fully qualified) is the same host as `example.com`.
    const hostname = name.charCodeAt(name.length - 1) === 46 /* . */ ? name.slice(0, -1) : name;
    if (all.has(hostname)) return true;
    // An address is blocked as itself only: 10.0.0.1 is no "subdomain" of 0.0.1.
    if (hostname.charCodeAt(0) === 91 /* [ */ || isIPv4(hostname)) return false;
    let dot = hostname.indexOf('.');
    while (dot !== -1) {
      if (all.has(hostname.slice(dot + 1))) return true;
      dot = hostname.indexOf('.', dot + 1);
    }
    return false;
  }

  /**
   * Whether a stored link's URL (normalized: `scheme://[user@]host[:port]/…`) points to a
   * blocked host. Answers are kept per URL until the list changes: the cached link hands the
   * same string to every visit, whose hash V8 keeps, so a repeat costs one Map lookup
   * (~15 ns) instead of reading the host again (~150 ns unloaded; measured in decision 0008).
   */
  coversUrl(url: string): boolean {
    if (this.all.size === 0) return false;
    let verdict = this.verdicts.get(url);
    if (verdict === undefined) {
      verdict = this.covers(hostOf(url));
      if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.clear();
      this.verdicts.set(url, verdict);
    }
    return verdict;
  }
}

/** URLs whose verdict is kept at most; past it the memo starts again (it only saves time). */
const MAX_VERDICTS = 100_000;

/** The host of a normalized http(s) URL, without parsing the whole of it. */
export function hostOf(url: string): string {
  const start = url.indexOf('//') + 2;
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  let authority = url.slice(start, end);
  const at = authority.lastIndexOf('@');
  if (at !== -1) authority = authority.slice(at + 1);
  if (authority.charCodeAt(0) === 91 /* [ */) return authority.slice(0, authority.indexOf(']') + 1);
  const colon = authority.indexOf(':');
  return colon === -1 ? authority : authority.slice(0, colon);
}

function isIPv4(hostname: string): boolean {
  const last = hostname.charCodeAt(hostname.length - 1);
  return last >= 48 && last <= 57 && isIP(hostname) === 4;
}

/**
 * A host as given to `brief blocklist` or in BLOCKLIST_FILE → its normalized form (what a
 * normalized URL's hostname holds: lower case, punycode), or a validation error.
 */
export function normalizeHost(raw: string): string {
  const trimmed = raw.trim().replace(/\.$/, '');
  const invalid = () => BriefError.invalid('host', 'hostname', `"${raw}" is not a host name, such as phishing.example`);
  if (trimmed === '' || /[/?#@\s\\]/.test(trimmed)) throw invalid();
  let url: URL;
  try {
    url = new URL(`http://${trimmed}/`);
  } catch {
    throw invalid();
  }
  // A port is not part of a host: "example.com:8080" is refused rather than silently widened.
  if (url.port !== '' || url.hostname === '' || trimmed.includes(':') !== url.hostname.startsWith('[')) throw invalid();
  return url.hostname;
}
