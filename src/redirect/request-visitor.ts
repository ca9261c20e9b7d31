import type { IncomingMessage } from 'node:http';
import type { ClientAddress } from '../net/client-address.js';
import { type PlaceLookup, type Visitor, type VisitorInput, visitorOf } from '../visitors/visitor.js';

/** How the redirect learns who a request's visitor is. */
export type VisitorOfRequest = (request: IncomingMessage) => Visitor;

/**
 * What a request says of its visitor, each part read from the request only when asked. A class, not an object
 * literal with getters: V8 makes such a literal's accessors anew each time, microseconds a visit.
 */
class RequestInput implements VisitorInput {
  constructor(
    private readonly request: IncomingMessage,
    private readonly addressOf: ClientAddress | undefined,
  ) {}

  get userAgent(): string | undefined {
    return this.request.headers['user-agent'];
  }

  get acceptLanguage(): string | undefined {
    return this.request.headers['accept-language'];
  }

  get referrer(): string | undefined {
    const referer = this.request.headers.referer;
    return Array.isArray(referer) ? referer[0] : referer;
  }

  get ip(): string | undefined {
    return this.addressOf?.(this.request.socket?.remoteAddress, this.request.headers['x-forwarded-for']);
  }

  get query(): string | undefined {
    const url = this.request.url ?? '';
    const mark = url.indexOf('?');
    return mark === -1 ? undefined : url.slice(mark + 1);
  }
}

/**
 * The visitor of a request, from its headers, its query string and the client's address (as TRUST_PROXY says,
 * as analytics reads it); each part read from the request only when a rule asks for it.
 */
export function requestVisitors(addressOf?: ClientAddress, places?: PlaceLookup): VisitorOfRequest {
  return (request) => visitorOf(new RequestInput(request, addressOf), places);
}
