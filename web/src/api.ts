// The only place the app talks to the server: Brief's own API (v2, v3, /auth), same origin, the token in a
// header or, for a signed-in person, the session cookie (sent by the browser; no script reads it).

import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { ClicksQuery, ClicksResult, TopQuery, TopResult } from '../../src/analytics/schemas';
import type { Range } from '../../src/analytics/time-series';
import type { DomainPage, ListDomainsQuery } from '../../src/domains/schemas';
import type { DomainSettingsBody, V3Domain } from '../../src/domains/v3-schemas';
import type { WellKnownEntry, WellKnownName } from '../../src/domains/well-known-schemas';
import type { Tag, TagEditBody } from '../../src/links/tag-schemas';
import type {
  BulkItem,
  BulkResult,
  EditBody,
  ListedLink,
  ListV3Query,
  ListV3Result,
  OneLink,
  ShortenV3Query,
  ShortenV3Result,
} from '../../src/links/v3-schemas';
import type { Passkey } from '../../src/people/passkeys/schemas';
import type { InvitationView, MadeInvitation, Member, Workspace } from '../../src/people/schemas';
import type { QrQuery } from '../../src/qr/schemas';
import type { ApiToken, NewToken, NewTokenBody, PresentedToken } from '../../src/tokens/schemas';
import type { Delivery, Webhook, WebhookWithSecret } from '../../src/webhooks/schemas';
import { itemField } from './item-field';
import { currentToken, type Me } from './session';
import { filterQuery, NO_FILTER, type TagFilter } from './tags/tag-filter';

/** One field's problem, as the API names it. */
interface FieldProblem {
  field: string;
  message: string;
}

/** An API error in the API's own words: `{message, code, errors?}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: readonly FieldProblem[] = [],
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined>;

function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * `raw`: a body sent as it is (a domain's app-link file, kept byte for byte) rather than `body` as JSON; `text`: the
 * answer's text, not parsed (the file as it was uploaded).
 */
async function call<T>(
  method: string,
  path: string,
  options: { query?: Query; body?: unknown; raw?: string; text?: boolean; token?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = options.token ?? currentToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined || options.raw !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method,
      headers,
      body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      // The session cookie rides along without a token; with one, nothing but the token counts.
      credentials: token ? 'omit' : 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'E_NETWORK', 'The server could not be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body ?? {}) as { message?: unknown; code?: unknown; errors?: unknown };
    const errors = Array.isArray(error.errors)
      ? error.errors.filter((e): e is FieldProblem => typeof e?.field === 'string' && typeof e?.message === 'string')
      : [];
    const message = typeof error.message === 'string' ? error.message : `The server answered ${response.status}.`;
    throw new ApiError(response.status, typeof error.code === 'string' ? error.code : 'E_UNKNOWN', message, errors);
  }
  return (options.text ? text : body) as T;
}

// The server's own types, imported type-only from its schema modules (plain TypeBox data): the
// build erases them, so no server code reaches the bundle, and a change on the server that the app
// does not follow (a field or parameter renamed, a range added) fails `npm run typecheck`
// (web/tsconfig.json) rather than a user's page. test/web-app/server-types.test.ts keeps it so.
/** One link, as GET and PATCH /v3/shorten/{domain}/{slug} give it (`domain`, not `domainName`). */
export type { Delivery, OneLink, Range, Webhook, WebhookWithSecret };

/** What the shorten form shows of a new link (GET /v3/shorten's answer, or a bulk item's, renamed). */
export type Shortened = Pick<ShortenV3Result, 'slug' | 'domain' | 'url' | 'shortened'>;
/**
 * A visit to try on a link's rules, and where it would go (POST /v3/shorten/{domain}/{slug}/evaluate): the route's
 * schemas live with the redirect (src/redirect/evaluate-routes.ts), which the app may not read, so their shape is here.
 */
export interface VisitToTry {
  userAgent?: string;
  acceptLanguage?: string;
  country?: string;
  ip?: string;
  query?: string;
  referrer?: string;
  at?: string;
}
export interface VisitOutcome {
  url: string;
  rule: number | null;
}
/** A link as the list gives it. */
export type Link = ListedLink;
export type LinkPage = ListV3Result;
export type LinkEdit = EditBody;
export type ClickSeries = ClicksResult;
export type TopList = TopResult;
/**
 * An API token of the workspace, as Settings lists it (never its secret), and one just made (with it, once); a
 * workspace's member, an invitation just made (its one-time link shown once), a workspace of the person; a short
 * domain as the v3 list gives it, and what the settings PATCH changes; one of a signed-in person's passkeys (never its key).
 */
export type {
  ApiToken,
  DomainSettingsBody,
  InvitationView,
  MadeInvitation,
  Member,
  NewToken,
  NewTokenBody,
  Passkey,
  PresentedToken,
  Tag,
  TagEditBody,
  V3Domain,
  WellKnownEntry,
  WellKnownName,
  Workspace,
};

/** A preset range, or a custom one: local calendar days, `to` included (YYYY-MM-DD both). */
export type Choice = Range | { from: string; to: string };

/** Local midnight of a YYYY-MM-DD day, `days` later, as an ISO timestamp. */
function localMidnight(day: string, days = 0): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year!, month! - 1, date! + days).toISOString();
}

/** Hours for a day or two, days beyond. */
export function isHourly(choice: Choice): boolean {
  if (typeof choice === 'string') return choice === '24h' || choice === '1d';
  return Date.parse(localMidnight(choice.to, 1)) - Date.parse(localMidnight(choice.from)) <= 2 * 86_400_000;
}

/** What the analytics calls take: the range (a custom one as `from`/`to`, `to` exclusive), for a link or the whole workspace. */
function periodQuery(choice: Choice, link: string | undefined): Partial<Pick<ClicksQuery & TopQuery, 'range' | 'from' | 'to' | 'link' | 'timezone'>> {
  const range = typeof choice === 'string' ? { range: choice } : { from: localMidnight(choice.from), to: localMidnight(choice.to, 1) };
  return { ...range, link, timezone: timezone() };
}

const timezone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'Etc/UTC';
const domainPath = (domain: string) => `/v3/shorten/domains/${encodeURIComponent(domain)}`;
const linkPath = (domain: string, slug: string) => `/v3/shorten/${encodeURIComponent(domain)}/${encodeURIComponent(slug)}`;

/** A link to make with everything the shorten form has; a password travels in a body, never in a URL. */
type NewLink = Pick<BulkItem, 'url' | 'slug' | 'domain' | 'comment' | 'password' | 'expiredAt' | 'tags'>;

type BulkAnswer = BulkResult[number];

/** One link through POST /v3/shorten/bulk (one item), so that a password is sent in the body; its errors as the form's. */
async function shortenInBody(input: NewLink): Promise<Shortened> {
  const item = Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0)),
  );
  let answers: BulkAnswer[];
  try {
    answers = await call<BulkResult>('POST', '/v3/shorten/bulk', { body: [item] });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const errors = error.errors.map((problem) => ({ ...problem, field: itemField(problem.field) ?? problem.field }));
    throw new ApiError(error.status, error.code, error.message, errors);
  }
  const answer = answers[0]!;
  if ('error' in answer) {
    const field = itemField(answer.message);
    throw new ApiError(422, answer.error, answer.message, field ? [{ field, message: answer.message }] : []);
  }
  return { slug: answer.slug, domain: answer.domain, url: answer.url, shortened: answer.shortLink };
}

export const api = {
  /** Email and password: the server sets the session cookie and answers who is signed in. */
  signIn: (email: string, password: string) => call<Me>('POST', '/auth/sign-in', { body: { email, password }, token: '' }),
  /** Ends the session on the server (and its cookie). */
  signOut: () => call<unknown>('POST', '/auth/sign-out', { token: '' }),
  /** What an invitation is for (its secret from the link's `#`). */
  invitation: (token: string) => call<InvitationView>('POST', '/auth/invitation', { body: { token }, token: '' }),
  /**
   * Accepts an invitation: a new person's password is set (someone who signs in already gives theirs, or none
   * when signed in as the invitation's email), the person joins and is signed in.
   */
  accept: (token: string, password: string | undefined, displayName: string) =>
    call<Me>('POST', '/auth/invitation/accept', {
      body: { token, ...(password !== undefined && { password }), ...(displayName ? { displayName } : {}) },
      token: '',
    }),
  /** The signed-in person's new password, given the current one; their other sessions end. */
  changePassword: (currentPassword: string, newPassword: string) =>
    call<unknown>('POST', '/auth/password', { body: { currentPassword, newPassword }, token: '' }),
  /** A reset link's new password (its secret from the link's `#`); every session of the person ends. */
  resetPassword: (token: string, newPassword: string) => call<unknown>('POST', '/auth/password/reset', { body: { token, newPassword }, token: '' }),
  /** The signed-in person's workspaces, and a move of the session to another of them. */
  workspaces: () => call<Workspace[]>('GET', '/auth/workspaces', { token: '' }),
  switchWorkspace: (workspaceId: string) => call<Me>('POST', '/auth/workspace/switch', { body: { workspaceId }, token: '' }),
  members: () => call<Member[]>('GET', '/auth/members'),
  invite: (email: string, role: string) => call<MadeInvitation>('POST', '/auth/invitations', { body: { email, role } }),
  changeRole: (userId: number, role: string) => call<Member>('PATCH', `/auth/members/${userId}`, { body: { role } }),
  removeMember: (userId: number) => call<unknown>('DELETE', `/auth/members/${userId}`),
  /** The v3 domain calls: the workspace's private domains are those not global. */
  shortDomains: () => call<V3Domain[]>('GET', '/v3/shorten/domains'),
  addDomain: (domain: string) => call<V3Domain>('PUT', '/v3/shorten/domains', { body: { domain } }),
  verifyDomain: (domain: string) => call<V3Domain>('POST', `${domainPath(domain)}/verify`),
  updateDomain: (domain: string, settings: DomainSettingsBody) => call<unknown>('PATCH', domainPath(domain), { body: settings }),
  removeDomain: (domain: string) => call<unknown>('DELETE', domainPath(domain)),
  /** A private domain's app-link files (decision 0042): which it has, one as uploaded, set from text, removed. */
  wellKnownFiles: (domain: string) => call<WellKnownEntry[]>('GET', `${domainPath(domain)}/well-known`),
  wellKnownFile: (domain: string, name: WellKnownName) => call<string>('GET', `${domainPath(domain)}/well-known/${name}`, { text: true }),
  setWellKnownFile: (domain: string, name: WellKnownName, text: string) =>
    call<WellKnownEntry>('PUT', `${domainPath(domain)}/well-known/${name}`, { raw: text }),
  removeWellKnownFile: (domain: string, name: WellKnownName) => call<unknown>('DELETE', `${domainPath(domain)}/well-known/${name}`),
  /** Who is signed in, or a 401 when nobody is. */
  me: () => call<Me>('GET', '/auth/me', { token: '' }),
  /** Passkeys (web/src/passkeys.ts): a ceremony's options from the server, then the authenticator's answer to them. */
  passkeySignInOptions: () => call<PublicKeyCredentialRequestOptionsJSON>('POST', '/auth/passkeys/sign-in/options', { token: '' }),
  passkeySignIn: (response: AuthenticationResponseJSON) => call<Me>('POST', '/auth/passkeys/sign-in', { body: { response }, token: '' }),
  passkeys: () => call<Passkey[]>('GET', '/auth/passkeys', { token: '' }),
  passkeyOptions: () => call<PublicKeyCredentialCreationOptionsJSON>('POST', '/auth/passkeys/registration/options', { token: '' }),
  addPasskey: (response: RegistrationResponseJSON, name: string) =>
    call<Passkey>('POST', '/auth/passkeys/registration', { body: { response, ...(name ? { name } : {}) }, token: '' }),
  removePasskey: (id: number) => call<unknown>('DELETE', `/auth/passkeys/${id}`, { token: '' }),
  invitationPasskeyOptions: (token: string) =>
    call<PublicKeyCredentialCreationOptionsJSON>('POST', '/auth/invitation/passkey/options', { body: { token }, token: '' }),
  /** Accepts an invitation with a passkey instead of a password: the person joins and is signed in. */
  acceptWithPasskey: (token: string, response: RegistrationResponseJSON, displayName: string) =>
    call<Me>('POST', '/auth/invitation/passkey', { body: { token, response, ...(displayName ? { displayName } : {}) }, token: '' }),
  domains: () => call<DomainPage>('GET', '/v2/shorten-domains', { query: { perPage: 500 } satisfies Partial<ListDomainsQuery> }),
  /**
   * GET /v3/shorten as the v3 clients use it; with a password or an expiry, the bulk call (a body, not a URL), and with
   * tags too (GET /v3/shorten takes none).
   */
  shorten: (input: NewLink) =>
    input.password || input.expiredAt || (input.tags?.length ?? 0) > 0
      ? shortenInBody(input)
      : call<Shortened>('GET', '/v3/shorten', {
          query: { url: input.url, slug: input.slug, domain: input.domain, comment: input.comment } satisfies ShortenV3Query,
        }),
  /** Whether a token is good (one page of one link), before it is kept. */
  checkToken: (token: string) => call<LinkPage>('GET', '/v3/shorten/list', { query: { perPage: 1 } satisfies Partial<ListV3Query>, token }),
  list: (page: number, perPage: number, search: string, filter: TagFilter = NO_FILTER) =>
    call<LinkPage>('GET', '/v3/shorten/list', { query: { page, perPage, search, ...filterQuery(filter) } satisfies Partial<ListV3Query> }),
  link: (domain: string, slug: string) => call<OneLink>('GET', linkPath(domain, slug)),
  edit: (domain: string, slug: string, edit: LinkEdit) => call<OneLink>('PATCH', linkPath(domain, slug), { body: edit }),
  /** Where the link's redirect would send a visit like this one (its rules, then its query forwarding); no visit is counted. */
  evaluate: (domain: string, slug: string, visit: VisitToTry) => call<VisitOutcome>('POST', `${linkPath(domain, slug)}/evaluate`, { body: visit }),
  remove: (domain: string, slug: string) => call<unknown>('DELETE', linkPath(domain, slug)),
  /** The analytics of a link, or of the workspace's links that `filter` keeps by their tags. */
  clicks: (choice: Choice, link?: string, filter: TagFilter = NO_FILTER) =>
    call<ClickSeries>('GET', '/v3/shorten/analytics/clicks', {
      query: { ...periodQuery(choice, link), ...filterQuery(filter), granularity: isHourly(choice) ? 'hour' : 'day' } satisfies Partial<ClicksQuery>,
    }),
  top: (dimension: string, choice: Choice, link?: string, limit = 10, filter: TagFilter = NO_FILTER) =>
    call<TopList>('GET', `/v3/shorten/analytics/top-${dimension}`, {
      query: { ...periodQuery(choice, link), ...filterQuery(filter), limit } satisfies Partial<TopQuery>,
    }),
  /** The workspace's tags (with their colours and live links), one renamed or recoloured, one deleted (decision 0040). */
  tags: () => call<Tag[]>('GET', '/v3/tags'),
  editTag: (name: string, edit: TagEditBody) => call<Tag>('PATCH', `/v3/tags/${encodeURIComponent(name)}`, { body: edit }),
  removeTag: (name: string) => call<unknown>('DELETE', `/v3/tags/${encodeURIComponent(name)}`),
  tokens: () => call<ApiToken[]>('GET', '/v3/tokens'),
  /** The token this browser is signed in with, and its workspace (for the header). */
  presentedToken: () => call<PresentedToken>('GET', '/v3/tokens/current'),
  createToken: (input: NewTokenBody) => call<NewToken>('POST', '/v3/tokens', { body: input }),
  revokeToken: (id: number) => call<unknown>('DELETE', `/v3/tokens/${id}`),
  webhooks: () => call<Webhook[]>('GET', '/v3/webhooks'),
  createWebhook: (input: { url: string; events: string[]; includeBots: boolean }) => call<WebhookWithSecret>('POST', '/v3/webhooks', { body: input }),
  removeWebhook: (id: number) => call<unknown>('DELETE', `/v3/webhooks/${id}`),
  webhookDeliveries: (id: number) => call<Delivery[]>('GET', `/v3/webhooks/${id}/deliveries`),
  testWebhook: (id: number) => call<Delivery>('POST', `/v3/webhooks/${id}/test`),
  enableWebhook: (id: number) => call<Webhook>('PATCH', `/v3/webhooks/${id}`, { body: { enabled: true } }),
};

/** The QR code image of a short URL, from the API (same origin). */
export const qrUrl = (shortUrl: string, format: 'svg' | 'png', width?: number) =>
  withQuery('/v2/qrcode', { url: shortUrl, format, width: format === 'png' ? (width ?? 512) : undefined } satisfies Partial<QrQuery>);
