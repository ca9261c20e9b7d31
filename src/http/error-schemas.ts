// The error body every route can answer, defined once as a schema for the API document
// (http/api-docs.ts). The body itself is built by http/error-handler.ts; these schemas
// describe it and never serialize it (see `documentedOnly` in http/api-docs.ts).
import { type Static, Type } from '@sinclair/typebox';
import { ACCOUNT_ERRORS } from '../accounts/account-errors.js';
import { ROLE_ERRORS } from '../accounts/roles.js';
import { forbiddenFor } from '../accounts/scopes.js';
import { BriefError, type ErrorExample } from '../errors.js';
import { EDGE_ERRORS, httpError, internalError, routeNotFound } from './edge-errors.js';
import { type ApiErrorCode, ERROR_STATUS } from './error-status.js';

export const FieldErrorSchema = Type.Object(
  {
    field: Type.String({
      description: 'The input the error is about (a query parameter or body field name; in a bulk body its path, `0.url`), or "request".',
    }),
    rule: Type.String({ description: 'The rule that failed: required, url, regex, range, enum, maxLength, unique, …' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const ErrorBodySchema = Type.Object(
  {
    message: Type.String({ description: 'What went wrong, for a person; for a validation error, the first field error.' }),
    code: Type.Unsafe<ApiErrorCode>({ type: 'string', enum: Object.keys(ERROR_STATUS), description: 'Stable error code, for programs.' }),
    errors: Type.Optional(Type.Array(FieldErrorSchema, { description: 'Validation errors only: one entry per failed field.' })),
  },
  { additionalProperties: false },
);

export type ErrorBody = Static<typeof ErrorBodySchema>;

/** Named examples of error bodies: errors as their feature declares them (errors.ts), or bodies only the edge answers. */
export type ErrorExamples = Readonly<Record<string, ErrorExample | { readonly summary: string; readonly value: ErrorBody }>>;

const UNAVAILABLE = { summary: 'The database is unreachable', example: () => BriefError.unavailable() };

/**
 * The edge's own sets of examples: the statuses' defaults, and the answers every feature's routes share.
 * Each feature's own sets are its routes' (from its errors file: links/link-errors.ts, …; decision 0037).
 */
const EDGE_EXAMPLES = {
  badRequest: {
    badEncoding: { summary: 'A malformed percent-encoding', value: httpError('E_BAD_REQUEST', "'/%E0%A4%A' is not a valid url component") },
  },
  unauthorized: { badToken: EDGE_ERRORS.badToken, badHeader: EDGE_ERRORS.notBearer },
  tokenRequired: { noToken: ACCOUNT_ERRORS.tokenRequired, badToken: EDGE_ERRORS.badToken },
  forbidden: {
    scope: forbiddenFor,
    every: forbiddenFor.exampleWith([['domains:write'], 'every'], 'Managing tokens needs every scope'),
    role: ROLE_ERRORS.forbidden,
    crossSite: EDGE_ERRORS.crossSite,
  },
  workspaceNotFound: { workspace: ACCOUNT_ERRORS.workspaceNotFound },
  passwordsBusy: {
    busy: { summary: 'Too many passwords being checked on the server (see Retry-After)', example: () => BriefError.busy(1) },
    unavailable: UNAVAILABLE,
  },
  tooManyRequests: {
    tooMany: { summary: 'Over a rate limit (see the RateLimit-* and Retry-After headers)', example: () => BriefError.tooManyRequests(42) },
  },
  unauthorizedShorten: { badToken: EDGE_ERRORS.badToken, badHeader: EDGE_ERRORS.notBearer, anonymousOff: EDGE_ERRORS.anonymousOff },
  internal: { internal: { summary: 'A bug; the body carries no internals', value: internalError() } },
  unavailable: { unavailable: UNAVAILABLE },
  routeNotFound: { routeNotFound: { summary: 'A reserved word under the API prefix', value: routeNotFound('GET', '/v2') } },
} satisfies Record<string, ErrorExamples>;

/** A response's examples: one of the edge's sets by name, or the route's own. */
export type ExampleSet = keyof typeof EDGE_EXAMPLES | ErrorExamples;

/** The body an error is answered with, as error-handler.ts writes it. */
const bodyOf = (error: BriefError): ErrorBody =>
  error.errors ? { message: error.message, code: error.code, errors: error.errors } : { message: error.message, code: error.code };

/** A set of examples as the document takes them, `{ name: { summary, value } }`: a new object on every call (the generator edits it). */
function documented(examples: ExampleSet) {
  const set: ErrorExamples = typeof examples === 'string' ? EDGE_EXAMPLES[examples] : examples;
  return structuredClone(
    Object.fromEntries(
      Object.entries(set).map(([name, example]) => [
        name,
        { summary: example.summary, value: 'value' in example ? example.value : bodyOf(example.example()) },
      ]),
    ),
  );
}

/**
 * The documented error statuses: what each means, and its examples unless a route names others. A 404 or
 * a 409 or a 422 is always about what the route's feature holds or checks, so its examples are always the route's.
 */
const STATUSES = {
  400: {
    description:
      'E_BAD_REQUEST: a malformed request the framework refuses (a bad percent-encoding, a bad content type, …). ' +
      'Requests refused before routing answer the same body with 431 (headers over 16 KB) or 408 (headers too slow).',
    examples: 'badRequest',
  },
  401: { description: 'E_UNAUTHORIZED_ACCESS: the Authorization header is not a valid bearer token.', examples: 'unauthorized' },
  403: {
    description:
      "E_FORBIDDEN: the bearer token lacks the scope this call needs (the message names it), the caller's role in the workspace " +
      'may see this but not do it, or a cookie-authenticated request came from another site.',
    examples: 'forbidden',
  },
  404: { description: "E_NOT_FOUND: no such live link among the caller's own." },
  409: { description: 'E_CONFLICT: the change would take a name another one holds.' },
  422: { description: 'E_VALIDATION_ERROR: bad input; `errors` lists the failed fields, `message` repeats the first.' },
  429: {
    description:
      'E_TOO_MANY_REQUESTS: over a rate limit (per token, or per client address without one; links made, or other API calls, ' +
      'a minute). `Retry-After` gives the seconds until the window resets.',
    examples: 'tooManyRequests',
  },
  500: { description: 'E_INTERNAL_ERROR: an unexpected error.', examples: 'internal' },
  503: {
    description:
      'E_SERVICE_UNAVAILABLE: the database is unreachable; retry later. A call that hashes a password (a link made with one) ' +
      'also answers it, with `Retry-After`, while too many passwords are being hashed on the server.',
    examples: 'unavailable',
  },
} as const satisfies Record<number, { description: string; examples?: keyof typeof EDGE_EXAMPLES }>;

export type ErrorStatus = keyof typeof STATUSES;
/** The statuses whose examples the edge knows (the others' are the route's own). */
type DefaultedStatus = Exclude<ErrorStatus, 404 | 409 | 422>;

/** The error body's schema with a description and named examples (`x-examples` becomes the media type's `examples`). */
const responseSchema = (description: string, examples: ExampleSet, headers?: object) =>
  Type.Object(ErrorBodySchema.properties, {
    additionalProperties: false,
    description,
    'x-examples': documented(examples),
    ...(headers && { headers }),
  });

/**
 * A response schema for one error status: the error body, with a description and named
 * examples. A new object on every call, because the document generator edits what it is given.
 */
export function errorResponse(status: 404 | 409 | 422, options: { description?: string; examples: ExampleSet }): ReturnType<typeof responseSchema>;
export function errorResponse(status: DefaultedStatus, options?: { description?: string; examples?: ExampleSet }): ReturnType<typeof responseSchema>;
export function errorResponse(status: ErrorStatus, options: { description?: string; examples?: ExampleSet } = {}) {
  const defaults: { description: string; examples?: keyof typeof EDGE_EXAMPLES } = STATUSES[status];
  const examples = options.examples ?? defaults.examples;
  if (examples === undefined) throw new Error(`a ${status} response names its examples`);
  return responseSchema(options.description ?? defaults.description, examples, status === 429 ? structuredClone(RATE_LIMIT_HEADERS) : undefined);
}

/** The headers of a rate-limited answer (429 has them all; other answers all but Retry-After). */
export const RATE_LIMIT_HEADERS = {
  'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the limit resets.' },
  'RateLimit-Limit': { schema: { type: 'integer' }, description: 'The limit of the current window (a minute).' },
  'RateLimit-Remaining': { schema: { type: 'integer' }, description: 'What is left of it.' },
  'RateLimit-Reset': { schema: { type: 'integer' }, description: 'Seconds until the window resets.' },
};

/** The error responses of a route, by status, each with its default description and examples. */
export function errorResponses<S extends DefaultedStatus>(...statuses: S[]): Record<S, ReturnType<typeof responseSchema>> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponse(status)])) as Record<S, ReturnType<typeof responseSchema>>;
}

/** The error body as an OpenAPI media type object, for a response that lists its media types. */
export function errorMedia(examples: ExampleSet) {
  return { schema: Type.Object(ErrorBodySchema.properties, { additionalProperties: false }), examples: documented(examples) };
}

/** The 401 of a call that needs a token (v3's calls for a workspace): none was sent, or not a valid one; `examples` when it says so in its own words. */
export function tokenRequiredResponse(examples: ExampleSet = 'tokenRequired') {
  return errorResponse(401, { examples, description: 'E_UNAUTHORIZED_ACCESS: no bearer token, or not a valid one.' });
}

/** The 404 of a `workspaceId` that is not one of the caller's workspaces. */
export function workspaceNotFoundResponse() {
  return errorResponse(404, { examples: 'workspaceNotFound', description: 'E_NOT_FOUND: a workspaceId that is not the caller’s.' });
}

/**
 * The 503 of a call that checks or sets a person's password: the bounded password threads are busy
 * (passwords/password-pool.ts; `Retry-After`, nothing checked), or the database is unreachable.
 */
export function passwordsBusyResponse() {
  return responseSchema(
    'E_SERVICE_UNAVAILABLE: too many passwords are being checked on the server right now (a few run at once, a few more ' +
      'wait): the password was not checked; retry after `Retry-After` seconds. Or the database is unreachable.',
    'passwordsBusy',
    { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait (1) when the password threads are busy.' } },
  );
}

/** The errors of a v3 call for a token's workspace: 400, 401 (tokenRequiredResponse), 403, 500 and 503. */
export function workspaceCallErrors() {
  return { ...errorResponses(400, 403, 500, 503), 401: tokenRequiredResponse() };
}
