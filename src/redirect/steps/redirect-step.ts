// What a step of the redirect pipeline is (decision 0039): a per-link option made into a function of a visit,
// once, when the link is loaded; the pipeline runs a link's steps in the order of steps.ts, and a plain link has none.
import type { IncomingMessage } from 'node:http';
import type { LinkTarget, VisitLimit } from '../../storage/stores/links.js';
import type { Visitor } from '../../visitors/visitor.js';
import { withVisitorQuery } from '../query-forwarding.js';
import type { RedirectAnswer } from '../redirect-answer.js';

/**
 * One visit of a link with steps, as its steps see and shape it: where it goes, whether the answer may be
 * cached, and who the visitor is (worked out only when a step asks).
 */
export class Visit {
  /** Where the visitor goes: the link's url, until a step (a rule) chooses another stored URL. */
  url: string;
  /** The rule that chose the url (its index), or null for the link's own. */
  rule: number | null = null;
  /**
   * What the visit took, for analytics (rules/rule-labels.ts): `rules.N`, `rules.N.split.M` or `url`, set by the rules
   * step; undefined for a link without rules.
   */
  taken: string | undefined;
  /** The visitor's query string, added to the destination on the way out; undefined: nothing added. */
  forwarded: string | undefined;
  /** The answer depends on the visitor: a 302 browsers must not keep (`private, no-store`), whatever REDIRECT_STATUS says. */
  personal = false;
  /** A cookie the answer sets (a split's choice, kept by the visitor's browser), as a Set-Cookie value. */
  cookie: string | undefined;
  /**
   * A page to answer instead of the redirect (a link's card, for a preview fetcher): unlike a step's answer, the visit
   * still happened, so the visit observers see it.
   */
  page: RedirectAnswer | undefined;
  /** The answer depends on the User-Agent (a link with a card): it says so (`Vary: User-Agent`). */
  varies = false;
  private known: Visitor | undefined;

  constructor(
    readonly target: LinkTarget,
    /** The visitor gave the link's password already (the form's POST). */
    readonly unlocked: boolean,
    forwarded: string | undefined,
    private readonly describe: () => Visitor,
    /** The request, for what a step reads of it besides the visitor (a cookie); none when a visit is only evaluated. */
    readonly request?: IncomingMessage,
    /** The link's path (`/{key}`), where a cookie of the link is kept. */
    readonly path = '/',
    /** The short domain the visit came to (lower-case host[:port]), as the pipeline answers it. */
    readonly domain = '',
  ) {
    this.url = target.url;
    this.forwarded = forwarded;
  }

  /** The visitor, worked out on first use: a link whose steps never ask costs nothing for it. */
  get visitor(): Visitor {
    this.known ??= this.describe();
    return this.known;
  }

  /** Where the redirect sends the visitor: the url chosen, with the visitor's query when forwarded. */
  location(): string {
    return this.forwarded === undefined ? this.url : withVisitorQuery(this.url, this.forwarded);
  }
}

/** A step: an answer ends the visit there (410, the password form); undefined lets it go on to the next step. */
export type RedirectStep = (visit: Visit) => RedirectAnswer | undefined;

/** What an instance gives the steps of the links it loads: the visits counted against links' limits, its domains' prefixes. */
export interface StepContext {
  readonly visits?: { of(id: number, limit: VisitLimit): { readonly total: number } };
  /** The short domains' URL prefixes (`https://go.example.com`), for a link's short URL (a card's `og:url`). */
  readonly origins?: { urlPrefixOf(domain: string): string };
}

/** A per-link option: the step a loaded link needs, or undefined when the link does not use the option. */
export type LinkOption = (target: LinkTarget, context: StepContext) => RedirectStep | undefined;

/** A target as the redirect keeps it: `steps` only on a link with per-link behaviour, never an empty list. */
export type RedirectTarget = LinkTarget & { readonly steps?: readonly RedirectStep[] };
