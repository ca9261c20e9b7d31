// One written form for every host a URL can name, so that two spellings of one server compare equal
// (the loop check of destinations: decision 0015's addendum).
import { isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';

/** Where a URL goes: its host in its one written form and the port it connects to. */
export interface Endpoint {
  /** canonicalHostname of the URL's host: `localhost`, `127.0.0.1`, `[::1]`, `xn--bcher-kva.example`. */
  readonly hostname: string;
  /** The port, the scheme's default one (80, 443) when the URL leaves it out. */
  readonly port: number;
}

/**
 * The one written form of a host name (no port): lower-case, an IDN in punycode, without the trailing
 * dot(s) of a fully qualified name (`localhost.` is `localhost`), an IPv4 address in dotted decimal
 * whatever form it was written in (`0x7f.1`, `2130706433`, `0177.0.0.1`), an IPv6 address compressed
 * and in brackets (`[::1]`; bare `::1` is taken too), and an IPv4-mapped IPv6 address
 * (`[::ffff:127.0.0.1]`) as the IPv4 address it reaches. undefined when it cannot be a host.
 * The parsing is WHATWG's (node:url's domainToASCII) and ipaddr.js's, never our own.
 */
export function canonicalHostname(raw: string): string | undefined {
  const trimmed = raw.trim().replace(/\.+$/, '');
  if (trimmed === '') return undefined;
  const bracketed = !trimmed.startsWith('[') && trimmed.includes(':') ? `[${trimmed}]` : trimmed;
  const ascii = domainToASCII(bracketed);
  if (ascii === '') return undefined;
  const address = ipAddressOf(ascii);
  return address === undefined ? ascii : writtenAddress(address);
}

/** A URL's endpoint: its canonical host name and the port it connects to (the scheme's default when none is written). */
export function endpointOf(url: URL): Endpoint {
  return { hostname: canonicalUrlHostname(url), port: url.port === '' ? defaultPort(url.protocol) : Number(url.port) };
}

/** A URL's `host[:port]` in canonical form, the port only when the URL names one other than its scheme's default: how domains are keyed. */
export function canonicalHost(url: URL): string {
  const hostname = canonicalUrlHostname(url);
  return url.port === '' ? hostname : `${hostname}:${url.port}`;
}

/** The IP address a canonical host name is, if it is one (IPv4 dotted decimal, or IPv6 in brackets). */
export function ipAddressOf(hostname: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  // node:net says first: ipaddr.js tells a name from an address by throwing, which costs ~100 µs a name.
  const inner = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : undefined;
  try {
    if (inner !== undefined) return isIPv6(inner) ? ipaddr.process(inner) : undefined;
    return isIPv4(hostname) ? ipaddr.IPv4.parse(hostname) : undefined;
  } catch {
    return undefined; // an address node:net takes and ipaddr.js does not (a zone id): no address to compare
  }
}

/** An address as canonicalHostname writes it. */
export function writtenAddress(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  return address.kind() === 'ipv6' ? `[${address.toString()}]` : address.toString();
}

/** Whether an address always means this machine: loopback (127.0.0.0/8, ::1) or unspecified (0.0.0.0, ::), which Linux connects to itself. */
export function isOwnMachine(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const range = address.range();
  return range === 'loopback' || range === 'unspecified';
}

/**
 * canonicalHostname of a parsed URL's host. The WHATWG parser has written it in lower case, punycode and
 * dotted decimal already, so only a trailing dot or an IPv6 address (IPv4-mapped) is left to do: a plain
 * name costs two character tests, not a second parse.
 */
function canonicalUrlHostname(url: URL): string {
  const { hostname } = url;
  return hostname.endsWith('.') || hostname.startsWith('[') ? (canonicalHostname(hostname) ?? hostname) : hostname;
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? 443 : 80);
