import { URL_MAX_LENGTH } from '../net/normalize-url.js';

// A visitor's query string added to a link's destination on redirect (decision 0015).

/** What a query may carry as it is; anything else is percent-encoded, byte by byte (Node reads the request line as latin1). */
const UNSAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g;
/** A `%` that does not start an escape: a query that cannot be parsed. */
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
/** Past latin1: not what a request line holds (only app.inject can send it). */
const WIDE = /[\u0100-\uffff]/;

const escapeByte = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * The destination with the visitor's parameters added after its own, in the visitor's order, its fragment kept at the
 * end. A parameter whose name the destination has already is left out: the destination's own value wins. The
 * destination as it is when there is nothing to add, when the query cannot be parsed (a `%` that starts no escape),
 * or when the result would be longer than a link's destination may be (URL_MAX_LENGTH): the link still works, without
 * the extra parameters. `query` is what follows the request's first `?`.
 */
export function withVisitorQuery(destination: string, query: string): string {
  if (query === '' || BAD_ESCAPE.test(query) || WIDE.test(query)) return destination;
  const hash = destination.indexOf('#');
  const beforeHash = hash === -1 ? destination : destination.slice(0, hash);
  const fragment = hash === -1 ? '' : destination.slice(hash);
  const mark = beforeHash.indexOf('?');
  const own = mark === -1 ? '' : beforeHash.slice(mark + 1);
  const taken = own === '' ? undefined : new Set(new URLSearchParams(own).keys());
  // URLSearchParams skips empty pieces as the filter does, so names[i] is pieces[i]'s name, decoded (the leading
  // '&' stops it dropping a '?' the query may start with).
  const pieces = query.split('&').filter((piece) => piece !== '');
  const names = taken && [...new URLSearchParams(`&${query}`).keys()];
  let added = '';
  for (let i = 0; i < pieces.length; i++) {
    if (taken?.has(names![i]!)) continue;
    added += `${added === '' ? '' : '&'}${pieces[i]!.replace(UNSAFE, escapeByte)}`;
  }
  if (added === '') return destination;
  const joiner = mark === -1 ? '?' : own === '' ? '' : '&';
  const forwarded = `${beforeHash}${joiner}${added}${fragment}`;
  return forwarded.length > URL_MAX_LENGTH ? destination : forwarded;
}
