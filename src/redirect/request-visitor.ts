import type { IncomingMessage } from 'node:http';
import type { ClientAddress } from '../net/client-address.js';
import { type PlaceLookup, type Visitor, visitorOf } from '../visitors/visitor.js';

/** How the redirect learns who a request's visitor is. */
export type VisitorOfRequest = (request: IncomingMessage) => Visitor;

const firstOf = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * The visitor of a request, from its headers, its query string and the client's address (as TRUST_PROXY says,
 * as analytics reads it); each part read from the request only when a rule asks for it.
 */
export function requestVisitors(addressOf?: ClientAddress, places?: PlaceLookup): VisitorOfRequest {
  return (request) => {
    const headers = request.headers;
    return visitorOf(
      {
        get userAgent() {
          return headers['user-agent'];
        },
        get acceptLanguage() {
          return headers['accept-language'];
        },
        get referrer() {
          return firstOf(headers.referer);
        },
        get ip() {
          return addressOf?.(request.socket?.remoteAddress, headers['x-forwarded-for']);
        },
        get query() {
          const url = request.url ?? '';
          const mark = url.indexOf('?');
          return mark === -1 ? undefined : url.slice(mark + 1);
        },
      },
      places,
    );
  };
}
