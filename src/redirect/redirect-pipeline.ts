import type { IncomingMessage } from 'node:http';
import { LINK_KEY, RESERVED_SLUGS } from '../links/codes.js';
import { PasswordPool } from '../passwords/password-pool.js';
import type { LinkTarget } from '../storage/stores/links.js';
import type { DomainRedirect } from './domain-redirects.js';
import { ASK_DATABASE, type LinkResolver } from './link-resolver.js';
import { withVisitorQuery } from './query-forwarding.js';
import { BLOCKED, PASSWORD_CHECKS_BUSY, type RedirectAnswer, unlocked, varyingByAgent, WRONG_PASSWORD } from './redirect-answer.js';
import { requestVisitors, type VisitorOfRequest } from './request-visitor.js';
import { isExpired } from './steps/expiry.js';
import { type RedirectTarget, Visit } from './steps/redirect-step.js';

/**
 * Something that sees every visit: a GET redirect to a live link (not HEAD, not a
 * blocked, expired or unknown link), or the right password for a protected one. Called on
 * the request path, so it must only note what it needs and return (the click counter adds
 * one to a tally). `taken`: what a visit of a link with rules took (`rules.N`, `rules.N.split.M`
 * or `url`, rules/rule-labels.ts); undefined for any other link.
 */
export type VisitObserver = (target: LinkTarget, request: IncomingMessage, taken?: string) => void;

/** True or false for a password against a link's stored hash, or `busy` when too many checks wait already. */
export type PasswordCheck = (password: string, stored: string) => Promise<boolean | 'busy'>;

/** A pipeline's own bounded check, when none is given (the server gives the pool every password shares). */
function ownPasswordCheck(): PasswordCheck {
  const pool = new PasswordPool();
  return (password, stored) => pool.check('link', password, stored);
}

/**
 * The one redirect pipeline: request → answer, for GET and HEAD /{key} on every short
 * domain (the Host header picks the domain; a Host that is none answers as the default domain
 * unless STRICT_HOSTS is on, decision 0015), GET and HEAD / (a domain's home redirect), and
 * POST of a protected link's password. Every rule of a redirect lives here: what a key is,
 * Brief's reserved words, blocked and unknown links (and a domain's not-found redirect), the
 * blocklist, who is told of a visit, and the link's own steps (steps/steps.ts: expiry, visit limit,
 * password, rules, query forwarding, a card for preview fetchers), which a plain link has none of. Its two doors call
 * it: the node:http fast path (fast-path.ts) with answerNow, before Fastify, and the
 * Fastify routes (routes.ts) with answer and unlock, for what the fast path leaves (and
 * for app.inject).
 */
export class RedirectPipeline {
  /** Visits refused (410) because the link's destination host is on the blocklist (GET /metrics). */
  blockedVisits = 0;

  constructor(
    private readonly resolver: LinkResolver,
    /**
     * The answer for a target (its `location` when given: the destination chosen, with the visitor's query, else its
     * url); `personal`: the destination depends on the visitor, so browsers must not keep the answer; `cookie`: a
     * Set-Cookie value to send with it (a split's choice).
     */
    private readonly answerFor: (target: LinkTarget | null, location?: string, personal?: boolean, cookie?: string) => RedirectAnswer,
    private readonly observers: readonly VisitObserver[],
    /**
     * The domains' home and not-found redirects, by lower-case host (asked only for `/` and unknown
     * keys), and whether a host serves its links at all (an unverified claim does not).
     */
    private readonly domains: {
      get(domain: string): DomainRedirect | undefined;
      serves(domain: string): boolean;
      /** The domain a Host header stands for (decision 0015): itself, or the default domain. */
      domainOf(host: string | undefined): string;
    },
    /** Blocked destinations (abuse/blocked-hosts.ts): links to them answer as blocked links do. Asked only while not empty. */
    private readonly blockedHosts: { readonly size: number; coversUrl(url: string): boolean } = { size: 0, coversUrl: () => false },
    /** Passwords against their hashes, a few at once (passwords/password-pool.ts). */
    private readonly checkPassword: PasswordCheck = ownPasswordCheck(),
    /** FORWARD_QUERY: a visitor's query string is added to the destination's (decision 0015). */
    private readonly forwardQuery = true,
    /** Who a request's visitor is, for the steps that ask (a link's rules). */
    private readonly visitorOf: VisitorOfRequest = requestVisitors(),
  ) {}

  /**
   * The answer without waiting, or undefined when this is not a redirect to answer here:
   * not GET/HEAD, not a bare `/{key}` path (a query string, percent-encoding or another
   * segment: the router decodes those), a reserved word, a lookup that needs the
   * database (PostgreSQL, on a cache miss), or `/` on a domain without a home redirect.
   */
  answerNow(request: IncomingMessage): RedirectAnswer | undefined {
    const method = request.method;
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    const url = request.url;
    if (url === undefined) return undefined;
    // A key never holds '/', '?' or '%', so anything else fails here and goes to the router.
    const key = url.slice(1);
    if (!LINK_KEY.test(key)) return url === '/' ? this.home(request) : undefined;
    const domain = this.domains.domainOf(request.headers.host);
    const found = this.resolver.resolveNow(domain, key);
    if (found === ASK_DATABASE) return undefined;
    // No query string here (a key holds no '?'): nothing to forward, and nothing looked for.
    return this.finish(request, domain, key, this.served(domain, found), undefined);
  }

  /**
   * The answer for the decoded key of GET/HEAD /{key}; undefined when the key is one of
   * Brief's reserved words (the router's not-found handling answers those).
   */
  async answer(request: IncomingMessage, key: string): Promise<RedirectAnswer | undefined> {
    const domain = this.domains.domainOf(request.headers.host);
    const found = LINK_KEY.test(key) ? await this.resolver.resolve(domain, key) : null;
    return this.finish(request, domain, key, this.served(domain, found), this.queryOf(request));
  }

  /**
   * GET/HEAD / (the bare short domain): the domain's home redirect, or undefined when it has
   * none (the router answers: the 404 page today, an application later). Never a visit.
   */
  home(request: IncomingMessage): RedirectAnswer | undefined {
    return this.domains.get(this.domains.domainOf(request.headers.host))?.home;
  }

  /** The domain (lower-case host[:port]) a request is answered as: its Host's, or the default domain's (decision 0015). */
  domainOf(request: IncomingMessage): string {
    return this.domains.domainOf(request.headers.host);
  }

  /**
   * POST /{key} with the password of a protected link: 303 to the destination (and the
   * visit counts) when it is right, the form again with 403 when not. A link without a
   * password answers as to a HEAD: its redirect, its 404 or its 410, and no visit. While too many
   * checks wait already, 503 (a page with Retry-After), without a check.
   */
  async unlock(request: IncomingMessage, key: string, password: string | undefined): Promise<RedirectAnswer | undefined> {
    const domain = this.domains.domainOf(request.headers.host);
    const target = this.served(domain, LINK_KEY.test(key) ? await this.resolver.resolve(domain, key) : null);
    const passwordHash = target?.guard?.passwordHash;
    const query = this.queryOf(request);
    if (!target || this.isBlocked(target) || !passwordHash || isExpired(target)) return this.finish(request, domain, key, target, query);
    if (!password) return WRONG_PASSWORD;
    const right = await this.checkPassword(password, passwordHash);
    if (right === 'busy') return PASSWORD_CHECKS_BUSY;
    if (!right) return WRONG_PASSWORD;
    // The form posts to its own address, query string included: the visitor's parameters go on with them.
    const visit = this.walk(request, domain, key, target, query, true);
    if (!(visit instanceof Visit)) return visit;
    this.visit(target, request, visit.taken);
    return unlocked(visit.location(), visit.cookie);
  }

  /** What follows the request's first `?`, when there is one and forwarding is on. */
  private queryOf(request: IncomingMessage): string | undefined {
    if (!this.forwardQuery) return undefined;
    const url = request.url ?? '';
    const mark = url.indexOf('?');
    return mark === -1 ? undefined : url.slice(mark + 1);
  }

  /** A link on a domain that serves nothing yet (an unverified claim) is answered as an unknown one. */
  private served(domain: string, target: RedirectTarget | null): RedirectTarget | null {
    return target !== null && !this.domains.serves(domain) ? null : target;
  }

  private finish(
    request: IncomingMessage,
    domain: string,
    key: string,
    target: RedirectTarget | null,
    query: string | undefined,
  ): RedirectAnswer | undefined {
    if (target === null) {
      // Brief's own words (`/v2`, `/health`, …) are never link keys: not a redirect at all.
      if (RESERVED_SLUGS.has(key.toLowerCase())) return undefined;
      // Only now, for an unknown key, is the domain's setting asked: the hot path never is.
      return this.domains.get(domain)?.notFound ?? this.answerFor(null);
    }
    // The blocklist is asked only while it holds hosts: one comparison on the hot path otherwise.
    if (this.blockedHosts.size !== 0 && !target.blocked && this.blockedHosts.coversUrl(target.url)) {
      this.blockedVisits++;
      return BLOCKED;
    }
    if (target.blocked) return this.answerFor(target);
    // Most links have no steps: one property test on the hot path, and the answer it always was.
    if (target.steps === undefined) {
      if (request.method === 'GET') this.visit(target, request);
      // A query string is the router's door only; without one, the answer is what it always was.
      return query === undefined ? this.answerFor(target) : this.answerFor(target, withVisitorQuery(target.url, query));
    }
    const visit = this.walk(request, domain, key, target, query, false);
    if (!(visit instanceof Visit)) return visit;
    if (request.method === 'GET') this.visit(target, request, visit.taken);
    // A link's card, for a preview fetcher: a visit (of a bot), answered with the page instead of the redirect.
    if (visit.page !== undefined) return visit.page;
    const answer = this.answerFor(target, visit.location(), visit.personal, visit.cookie);
    return visit.varies ? varyingByAgent(answer) : answer;
  }

  /** Runs a link's steps in order: the first answer one gives, or the visit as they left it. */
  private walk(
    request: IncomingMessage,
    domain: string,
    key: string,
    target: RedirectTarget,
    query: string | undefined,
    unlockedNow: boolean,
  ): Visit | RedirectAnswer {
    const visit = new Visit(target, unlockedNow, query, () => this.visitorOf(request), request, `/${key}`, domain);
    for (const step of target.steps ?? []) {
      const answer = step(visit);
      if (answer !== undefined) return answer;
    }
    return visit;
  }

  private isBlocked(target: LinkTarget): boolean {
    return target.blocked || (this.blockedHosts.size !== 0 && this.blockedHosts.coversUrl(target.url));
  }

  private visit(target: LinkTarget, request: IncomingMessage, taken?: string): void {
    for (const observe of this.observers) observe(target, request, taken);
  }
}
