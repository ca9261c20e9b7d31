import type { IncomingMessage } from 'node:http';
import proxyaddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../config.js';

/** The visitor's address, from the connection's address and the X-Forwarded-For header it came with. */
export type ClientAddress = (socketAddress: string | undefined, forwardedFor: string | string[] | undefined) => string | undefined;

/**
 * Who the client is, as TRUST_PROXY says (Fastify's own `proxy-addr` walks the header):
 * - off: the connection's address; X-Forwarded-For is never believed;
 * - a hop count n: the n-th address from the right of X-Forwarded-For (n proxies in front);
 * - addresses and CIDRs: from the right, past every hop that is one of the trusted proxies,
 *   the first address that is not (the connection's own address must be trusted to begin with).
 * IPv4 addresses written as IPv6 (`::ffff:1.2.3.4`) come back as IPv4.
 */
export function clientAddress(trust: TrustProxy): ClientAddress {
  const trusted = fastifyTrustProxy(trust);
  if (trusted === false) return (socketAddress) => plain(socketAddress);
  return (socketAddress, forwardedFor) => {
    if (socketAddress === undefined) return undefined;
    // proxy-addr reads a request; these two fields are all it reads. A repeated header arrives joined by node:http.
    const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
    const request = { socket: { remoteAddress: socketAddress }, headers: { 'x-forwarded-for': header } } as unknown as IncomingMessage;
    return plain(proxyaddr(request, trusted));
  };
}

/**
 * Which hops TRUST_PROXY trusts (false: none), as proxy-addr and Fastify's own `trustProxy` option take it, so that `request.protocol` believes
 * `X-Forwarded-Proto` (the scheme the visitor used) from the same proxies as X-Forwarded-For, and no other.
 */
export function fastifyTrustProxy(trust: TrustProxy): false | ((address: string, hop: number) => boolean) {
  if (trust.kind === 'off') return false;
  return trust.kind === 'hops' ? (_address, hop) => hop < trust.hops : proxyaddr.compile([...trust.entries]);
}

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

function plain(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  return IPV4_MAPPED.exec(address)?.[1] ?? address;
}
