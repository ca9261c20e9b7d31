import type { IncomingMessage } from 'node:http';
import { LINK_KEY, RESERVED_SLUGS } from '../links/codes.js';
import type { LinkTarget } from '../storage/stores.js';
import { ASK_DATABASE, type LinkResolver } from './link-resolver.js';
import type { RedirectAnswer } from './redirect-answer.js';

/**
 * Something that sees every visit: a GET redirect to a live link (not HEAD, not a
 * blocked or unknown link). Called on the request path, so it must only note what it
 * needs and return (the click counter adds one to a tally).
 */
export type VisitObserver = (target: LinkTarget, request: IncomingMessage) => void;

/**
 * The one redirect pipeline: request → answer, for GET and HEAD /{key} on every short
 * domain (the Host header picks the domain). Every rule of a redirect lives here: what
 * a key is, Brief's reserved words, blocked and unknown links, and who is told of a
 * visit. Its two doors call it: the node:http fast path (fast-path.ts) with answerNow,
 * before Fastify, and the Fastify route (routes.ts) with answer, for what the fast path
 * leaves (and for app.inject).
 */
export class RedirectPipeline {
  constructor(
    private readonly resolver: LinkResolver,
    private readonly answerFor: (target: LinkTarget | null) => RedirectAnswer,
    private readonly observers: readonly VisitObserver[],
  ) {}

  /**
   * The answer without waiting, or undefined when this is not a redirect to answer here:
   * not GET/HEAD, not a bare `/{key}` path (a query string, percent-encoding or another
   * segment: the router decodes those), a reserved word, or a lookup that needs the
   * database (PostgreSQL, on a cache miss).
   */
  answerNow(request: IncomingMessage): RedirectAnswer | undefined {
    const method = request.method;
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    const url = request.url;
    if (url === undefined) return undefined;
    // A key never holds '/', '?' or '%', so anything else fails here and goes to the router.
    const key = url.slice(1);
    if (!LINK_KEY.test(key)) return undefined;
    const found = this.resolver.resolveNow(request.headers.host ?? '', key);
    if (found === ASK_DATABASE) return undefined;
    return this.finish(request, key, found);
  }

  /**
   * The answer for the decoded key of GET/HEAD /{key}; undefined when the key is one of
   * Brief's reserved words (the router's not-found handling answers those).
   */
  async answer(request: IncomingMessage, key: string): Promise<RedirectAnswer | undefined> {
    const found = LINK_KEY.test(key) ? await this.resolver.resolve(request.headers.host ?? '', key) : null;
    return this.finish(request, key, found);
  }

  private finish(request: IncomingMessage, key: string, target: LinkTarget | null): RedirectAnswer | undefined {
    if (target === null) {
      // Brief's own words (`/v2`, `/health`, …) are never link keys: not a redirect at all.
      return RESERVED_SLUGS.has(key.toLowerCase()) ? undefined : this.answerFor(null);
    }
    if (!target.blocked && request.method === 'GET') {
      for (const observe of this.observers) observe(target, request);
    }
    return this.answerFor(target);
  }
}
