// Brief's one way out to a server someone else named (webhooks): a POST that cannot be turned against
// Brief's own network (decision 0044). The host is resolved here, every answer must be a public address,
// and the connection goes to the address that was checked (a pinned lookup), so a second DNS answer
// (rebinding) is never asked for. Redirects are outcomes, never followed; 10 s for the whole exchange;
// at most 64 KB of the answer read; a fixed User-Agent and no cookies.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { canonicalHostname, ipAddressOf } from './host-names.js';

export const OUTBOUND_TIMEOUT_MS = 10_000;
export const OUTBOUND_BODY_MAX = 64 * 1024;

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address a host name has (the system's resolver by default; tests give hostile ones). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export type OutboundOutcome =
  /** The server answered (a 3xx too: it is not followed). `body` is at most OUTBOUND_BODY_MAX bytes. */
  | { readonly kind: 'response'; readonly status: number; readonly body: string; readonly truncated: boolean }
  /** Not sent: the URL or an address it resolves to is one Brief does not send to. */
  | { readonly kind: 'refused'; readonly reason: string }
  /** No whole answer within the timeout. */
  | { readonly kind: 'timeout' }
  /** The name did not resolve, the connection or TLS failed, or the answer broke off. */
  | { readonly kind: 'error'; readonly reason: string };

export interface OutboundOptions {
  /** WEBHOOK_ALLOW_HOSTS: exempt from https-only and the public-address rule. */
  readonly allowHosts: readonly string[];
  /** `Brief-Webhooks/1 (+BASE_URL)`. */
  readonly userAgent: string;
  readonly timeoutMs?: number;
  readonly bodyMax?: number;
  readonly resolve?: Resolver;
  /** Which addresses may be reached; isPublicAddress unless a test stands in for the Internet. */
  readonly isReachable?: (address: ipaddr.IPv4 | ipaddr.IPv6) => boolean;
}

// The IPv6 global unicast block: what is outside it (IPv4-compatible ::a.b.c.d among it) is no public host.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Whether an address is a public host on the Internet: ipaddr.js's `unicast` (not private, loopback,
 * link-local with the cloud metadata address 169.254.169.254, unique-local, CGNAT, multicast,
 * unspecified, broadcast, reserved or documentation ranges, nor the IPv6 forms that carry an IPv4
 * address: NAT64, 6to4, Teredo), an IPv6 one also inside 2000::/3; an IPv4-mapped IPv6 address is
 * judged as the IPv4 address it reaches.
 */
export function isPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()) return isPublicAddress(address.toIPv4Address());
  if (address.range() !== 'unicast') return false;
  return address instanceof ipaddr.IPv4 || address.match(GLOBAL_UNICAST_V6);
}

/** Why a URL can never be sent to, whatever DNS says (undefined: it may be, once resolved); checked when an endpoint is added. */
export function refusalOf(url: URL, allowHosts: readonly string[]): string | undefined {
  const hostname = canonicalHostname(url.hostname);
  if (hostname === undefined) return 'the URL has no host';
  const allowed = isAllowed(hostname, allowHosts);
  if (url.protocol !== 'https:' && !(allowed && url.protocol === 'http:')) return 'only https URLs are sent to';
  if (url.username !== '' || url.password !== '') return 'the URL must not carry a user name or password';
  const address = ipAddressOf(hostname);
  if (!allowed && address !== undefined && !isPublicAddress(address)) return `${hostname} is not a public address`;
  return undefined;
}

/** Whether a canonical host name is one WEBHOOK_ALLOW_HOSTS names, however that entry is written. */
const isAllowed = (hostname: string, allowHosts: readonly string[]): boolean => allowHosts.some((host) => canonicalHostname(host) === hostname);

const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

export class OutboundClient {
  private readonly allowHosts: readonly string[];
  private readonly timeoutMs: number;
  private readonly bodyMax: number;
  private readonly resolve: Resolver;
  private readonly isReachable: (address: ipaddr.IPv4 | ipaddr.IPv6) => boolean;

  constructor(private readonly options: OutboundOptions) {
    this.allowHosts = options.allowHosts;
    this.timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
    this.bodyMax = options.bodyMax ?? OUTBOUND_BODY_MAX;
    this.resolve = options.resolve ?? systemResolver;
    this.isReachable = options.isReachable ?? isPublicAddress;
  }

  /**
   * POSTs a body to a URL; never throws: every way it can end is an outcome. `stop` (the server stopping) ends it
   * early the way the timeout does: the caller, which knows it stopped, tells that from a receiver that hung.
   */
  async post(target: string, headers: Readonly<Record<string, string>>, body: string, stop?: AbortSignal): Promise<OutboundOutcome> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    const stopped = () => abort.abort();
    if (stop?.aborted) abort.abort();
    stop?.addEventListener('abort', stopped, { once: true });
    try {
      return await this.postWithin(target, headers, body, abort.signal);
    } catch (error) {
      return abort.signal.aborted ? { kind: 'timeout' } : { kind: 'error', reason: reasonOf(error) };
    } finally {
      clearTimeout(timer);
      stop?.removeEventListener('abort', stopped);
    }
  }

  private async postWithin(target: string, headers: Readonly<Record<string, string>>, body: string, signal: AbortSignal): Promise<OutboundOutcome> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return { kind: 'refused', reason: 'not a URL' };
    }
    const refusal = refusalOf(url, this.allowHosts);
    if (refusal !== undefined) return { kind: 'refused', reason: refusal };
    const hostname = canonicalHostname(url.hostname) as string;
    const allowed = isAllowed(hostname, this.allowHosts);
    const literal = ipAddressOf(hostname);
    const answers =
      literal !== undefined
        ? [{ address: literal.toString(), family: literal.kind() === 'ipv6' ? 6 : 4 } as const]
        : await untilAborted(this.resolve(hostname), signal);
    if (answers.length === 0) return { kind: 'error', reason: `${hostname} has no address` };
    if (!allowed) {
      // Every answer, not just the one used: a name that has any private address is not sent to at all.
      const inside = answers.find(({ address }) => !this.isReachable(ipaddr.parse(address)));
      if (inside !== undefined) return { kind: 'refused', reason: `${hostname} resolves to ${inside.address}, which is not a public address` };
    }
    return this.send(url, answers[0] as ResolvedAddress, headers, body, signal);
  }

  private send(
    url: URL,
    pinned: ResolvedAddress,
    headers: Readonly<Record<string, string>>,
    body: string,
    signal: AbortSignal,
  ): Promise<OutboundOutcome> {
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = transport.request({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        // Only what is given and the fixed ones: no cookie jar, no credentials, nothing of the caller's.
        headers: { ...headers, 'user-agent': this.options.userAgent, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(pinned),
        agent: false, // no pooled socket: each request connects to its own checked address
        signal,
      });
      request.on('error', reject);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = (truncated: boolean) => {
          resolve({ kind: 'response', status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), truncated });
        };
        response.on('data', (chunk: Buffer) => {
          const room = this.bodyMax - size;
          if (chunk.length <= room) {
            chunks.push(chunk);
            size += chunk.length;
            return;
          }
          // Past the cap: keep what fits, and stop reading rather than take in the rest.
          chunks.push(chunk.subarray(0, room));
          size = this.bodyMax;
          finish(true);
          response.destroy();
        });
        response.on('end', () => finish(false));
        response.on('error', reject);
      });
      request.end(body);
    });
  }
}

/** A lookup that answers the checked address whatever the name: the connection cannot go anywhere else. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    work.then(resolve, reject);
  });
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) return 'code' in error && typeof error.code === 'string' ? `${error.code}: ${error.message}` : error.message;
  return String(error);
}
