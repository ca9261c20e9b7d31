// The error body every route can answer, defined once as a schema for the API document
// (http/api-docs.ts). The body itself is built by http/error-handler.ts; these schemas
// describe it and never serialize it (see `documentedOnly` in http/api-docs.ts).
import { type Static, Type } from '@sinclair/typebox';
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

const body = (code: ApiErrorCode, message: string, errors?: ErrorBody['errors']): ErrorBody =>
  errors ? { message, code, errors } : { message, code };
const field = (name: string, rule: string, message: string): ErrorBody => body('E_VALIDATION_ERROR', message, [{ field: name, rule, message }]);

const IMPOSSIBLE_DATE =
  'The expiredAt field must be a date and time that exist (month 1–12, a day of that month, hours 0–23, minutes and seconds 0–59), got "2027-02-30T00:00:00Z"';
const URL_CREDENTIALS =
  'The url field must not contain a user name or password (https://user:pass@host/): everyone who has the short link would see them';

// Examples that several routes share (errorResponse copies them, so sharing is safe).
const BAD_TOKEN = { summary: 'Unknown, revoked or expired token', value: body('E_UNAUTHORIZED_ACCESS', 'Invalid, expired or revoked token') };
const LINK_NOT_FOUND = { summary: 'Unknown link, or a link of another account', value: body('E_NOT_FOUND', 'Link not found') };
const WORKSPACE_NOT_FOUND = { summary: 'A workspaceId that is not the caller’s', value: body('E_NOT_FOUND', 'Workspace not found') };
const NOT_BEARER = { summary: 'Not a bearer token', value: body('E_UNAUTHORIZED_ACCESS', 'The Authorization header must be "Bearer <token>"') };
const NOT_A_ROLE = { summary: 'Not a role', value: field('role', 'enum', 'The role field must be one of viewer, member, admin, owner') };
const NOT_A_URL = { summary: 'Not an absolute http(s) URL', value: field('url', 'url', 'The url field must be a valid URL') };
const URL_WITH_CREDENTIALS = { summary: 'A user name or password in the URL', value: field('url', 'credentials', URL_CREDENTIALS) };
/** What the analytics calls' query may get wrong (the top lists add their limit). */
const ANALYTICS_QUERY = {
  range: { summary: 'Not one of the ranges', value: field('range', 'enum', 'The selected range is invalid') },
  timezone: {
    summary: 'Not an IANA time zone',
    value: field('timezone', 'timezone', 'The timezone field must be an IANA time zone name, such as Europe/Paris'),
  },
  link: { summary: 'A link that is not domain/slug', value: field('link', 'link', 'The link field must be domain/slug') },
};

/** Named examples of the error bodies, as the API answers them. */
const EXAMPLES = {
  badRequest: {
    badEncoding: { summary: 'A malformed percent-encoding', value: body('E_BAD_REQUEST', "'/%E0%A4%A' is not a valid url component") },
  },
  unauthorized: {
    badToken: BAD_TOKEN,
    badHeader: NOT_BEARER,
  },
  unauthorizedDelete: {
    noToken: { summary: 'No token: anonymous callers cannot delete', value: body('E_UNAUTHORIZED_ACCESS', 'Deleting a link needs a bearer token') },
    badToken: BAD_TOKEN,
  },
  tokenRequired: {
    noToken: { summary: 'No token: this call is for an account', value: body('E_UNAUTHORIZED_ACCESS', 'This call needs a bearer token') },
    badToken: BAD_TOKEN,
  },
  forbidden: {
    scope: { summary: 'A token without the scope the call needs', value: body('E_FORBIDDEN', 'This call needs a token with the scope links:write') },
    every: {
      summary: 'Managing tokens needs every scope',
      value: body('E_FORBIDDEN', 'This call needs a token with every scope; this token lacks the scope domains:write'),
    },
    role: {
      summary: 'A role that may see but not do this',
      value: body('E_FORBIDDEN', "A viewer may not make, edit or delete the workspace's links; this needs the member role or above"),
    },
    crossSite: {
      summary: 'A cookie-authenticated request from another site',
      value: body('E_FORBIDDEN', 'Cross-site requests with the session cookie are refused: call from Brief’s own pages, or use a bearer token'),
    },
  },
  tokenNotFound: {
    notFound: { summary: "Not a live token of the caller's workspace", value: body('E_NOT_FOUND', 'Token not found') },
    workspace: WORKSPACE_NOT_FOUND,
  },
  tokenValidation: {
    scope: {
      summary: 'A scope that does not exist',
      value: field('scopes', 'enum', 'Unknown scope "links:delete": the scopes are links:read, links:write, analytics:read, domains:write'),
    },
    noScope: {
      summary: 'An empty list of scopes',
      value: field('scopes', 'minItems', 'Choose at least one scope (a token made without any has them all)'),
    },
    name: { summary: 'An empty name', value: field('name', 'required', 'The name field must not be empty') },
    expiry: { summary: 'An expiry in the past', value: field('expiresAt', 'future', 'The expiresAt field must be a date in the future') },
  },
  invitationNotFound: {
    unknown: { summary: 'No invitation with this secret', value: body('E_NOT_FOUND', 'No such invitation: check that the whole link was copied') },
  },
  invitationValidation: {
    used: { summary: 'Used already', value: field('token', 'used', 'This invitation has been used already; ask for a new one') },
    expired: { summary: 'Past its 7 days', value: field('token', 'expired', 'This invitation has expired; ask for a new one') },
    password: { summary: 'A password too short', value: field('password', 'minLength', 'The password field must be at least 10 characters') },
    usedUp: {
      summary: 'Used up by 5 wrong passwords',
      value: field('token', 'usedUp', 'This invitation is used up: 5 wrong passwords were given with it; ask for a new one'),
    },
  },
  passwordResetNotFound: {
    unknown: { summary: 'No reset link with this secret', value: body('E_NOT_FOUND', 'No such reset link: check that the whole link was copied') },
  },
  passwordResetValidation: {
    used: { summary: 'Used already', value: field('token', 'used', 'This reset link has been used already; ask for a new one') },
    expired: { summary: 'Past its hour', value: field('token', 'expired', 'This reset link has expired; ask for a new one') },
    password: {
      summary: 'A password too short',
      value: field('newPassword', 'minLength', 'The newPassword field must be at least 10 characters'),
    },
  },
  passwordValidation: {
    password: {
      summary: 'A new password too short',
      value: field('newPassword', 'minLength', 'The newPassword field must be at least 10 characters'),
    },
  },
  passwordsBusy: {
    busy: {
      summary: 'Too many passwords being checked on the server (see Retry-After)',
      value: body('E_SERVICE_UNAVAILABLE', 'Too many passwords are being checked right now: try again in a moment'),
    },
    unavailable: {
      summary: 'The database is unreachable',
      value: body('E_SERVICE_UNAVAILABLE', 'The service is temporarily unavailable, try again shortly'),
    },
  },
  memberNotFound: {
    notFound: { summary: "Not a member of the caller's workspace", value: body('E_NOT_FOUND', 'Member not found') },
  },
  memberValidation: {
    role: NOT_A_ROLE,
    lastOwner: {
      summary: 'The last owner',
      value: field('role', 'lastOwner', 'The last owner of a workspace cannot be demoted: make someone else owner first'),
    },
    lastOwnerRemoved: {
      summary: 'The last owner, removed',
      value: field('userId', 'lastOwner', 'The last owner of a workspace cannot be removed: make someone else owner first'),
    },
  },
  inviteValidation: {
    email: { summary: 'Not an email address', value: field('email', 'email', 'The email field must be an email address') },
    role: NOT_A_ROLE,
  },
  notFound: { notFound: LINK_NOT_FOUND },
  v3NotFound: { notFound: LINK_NOT_FOUND, workspace: WORKSPACE_NOT_FOUND },
  workspaceNotFound: { workspace: WORKSPACE_NOT_FOUND },
  domainNotFound: {
    notFound: { summary: "Not one of the caller's private domains", value: body('E_NOT_FOUND', 'Domain not found') },
    workspace: WORKSPACE_NOT_FOUND,
  },
  addDomainValidation: {
    taken: { summary: 'The caller has the domain already', value: field('domain', 'unique', 'The domain has already been taken') },
    claimed: {
      summary: 'Another account claimed the domain',
      value: field('domain', 'unique', "The domain has already been claimed by another account; if it is yours, ask this server's administrator"),
    },
    defaultDomain: {
      summary: 'The default domain, on any port',
      value: field('domain', 'public', "The domain is this server's default domain (BASE_URL)"),
    },
    public: { summary: 'A public domain, on any port', value: field('domain', 'public', 'The domain is a public domain of this server') },
    limit: { summary: 'DOMAINS_PER_ACCOUNT reached', value: field('domain', 'limit', 'An account may have at most 10 domains; remove one first') },
    hostname: {
      summary: 'Not a host name',
      value: field('domain', 'hostname', 'The domain field must be a host name, such as go.example.com'),
    },
    missing: { summary: 'No domain', value: field('domain', 'required', 'The domain field must be defined') },
    codeLength: {
      summary: 'A code length out of range',
      value: field('shortCodeLength', 'range', 'The shortCodeLength field must be between 4 and 32'),
    },
  },
  verifyDomainValidation: {
    missing: {
      summary: 'No TXT record',
      value: field(
        'domain',
        'verification',
        'The domain is not verified: there is no TXT record at _brief-verify.go.example.com; add one holding "brief-verify=3q2-7wXkV0b9yUe1cZfN4aLh"',
      ),
    },
    wrong: {
      summary: 'A TXT record without the value',
      value: field(
        'domain',
        'verification',
        'The domain is not verified: the TXT record at _brief-verify.go.example.com does not hold "brief-verify=3q2-7wXkV0b9yUe1cZfN4aLh" (found 1 other value)',
      ),
    },
    failed: {
      summary: 'The DNS lookup failed',
      value: field(
        'domain',
        'verification',
        'The domain is not verified: the DNS lookup of _brief-verify.go.example.com failed (ETIMEOUT); try again later',
      ),
    },
  },
  removeDomainValidation: {
    inUse: { summary: 'The domain has live links', value: field('domain', 'in_use', 'The domain still has 2 live links; delete them first') },
  },
  domainSettingsValidation: {
    codeLength: {
      summary: 'A code length out of range',
      value: field('randomCodeLength', 'range', 'The randomCodeLength field must be between 4 and 32'),
    },
    url: { summary: 'Not an absolute http(s) URL', value: field('homePageRedirectUrl', 'url', 'The homePageRedirectUrl field must be a valid URL') },
    credentials: {
      summary: 'A user name or password in the URL',
      value: field('homePageRedirectUrl', 'credentials', URL_CREDENTIALS.replace('The url', 'The homePageRedirectUrl')),
    },
    loop: {
      summary: 'A URL on a short domain of this server',
      value: field('notFoundPageRedirectUrl', 'notShortLink', 'The notFoundPageRedirectUrl field must not point to a short link domain'),
    },
  },
  analyticsValidation: ANALYTICS_QUERY,
  topValidation: {
    ...ANALYTICS_QUERY,
    limit: { summary: 'A number out of range', value: field('limit', 'range', 'The limit field must be between 1 and 100') },
  },
  bulkValidation: {
    notArray: { summary: 'The body is not an array', value: field('request', 'array', 'The request field must be an array') },
    tooMany: { summary: 'More than 200 items', value: field('request', 'maxItems', 'The request field must have at most 200 items') },
    item: {
      summary: 'An item with a bad field: nothing is made',
      value: body('E_VALIDATION_ERROR', 'The 1.url field must be a valid URL', [
        { field: '1.url', rule: 'url', message: 'The 1.url field must be a valid URL' },
        {
          field: '3.expiredAt',
          rule: 'calendar',
          message:
            'The 3.expiredAt field must be a date and time that exist (month 1–12, a day of that month, hours 0–23, minutes and seconds 0–59), got "2027-02-30T00:00:00Z"',
        },
      ]),
    },
  },
  editValidation: {
    password: { summary: 'A password too short', value: field('password', 'minLength', 'The password field must be at least 6 characters') },
    expiry: { summary: 'An expiry in the past', value: field('expiredAt', 'future', 'The expiredAt field must be a date in the future') },
    impossibleDate: { summary: 'A date that does not exist', value: field('expiredAt', 'calendar', IMPOSSIBLE_DATE) },
    credentials: URL_WITH_CREDENTIALS,
    url: NOT_A_URL,
  },
  shortenValidation: {
    urlMissing: { summary: 'A required parameter is missing', value: field('url', 'required', 'The url field must be defined') },
    urlInvalid: NOT_A_URL,
    credentials: URL_WITH_CREDENTIALS,
    slugFormat: { summary: 'A malformed slug', value: field('slug', 'regex', 'The slug field format is invalid') },
    slugTaken: { summary: 'The slug is used on that domain', value: field('slug', 'unique', 'The slug has already been taken') },
    domain: { summary: 'Not a domain the caller may use', value: field('domain', 'exists', 'The selected domain is invalid') },
  },
  domainsValidation: {
    perPage: { summary: 'A number out of range', value: field('perPage', 'range', 'The perPage field must be between 1 and 500') },
    page: { summary: 'Not a whole number', value: field('page', 'integer', 'The page field must be a whole number') },
    visibility: { summary: 'A value not in the list', value: field('visibility', 'enum', 'The selected visibility is invalid') },
  },
  qrValidation: {
    urlInvalid: NOT_A_URL,
    width: { summary: 'A number out of range', value: field('width', 'range', 'The width field must be between 64 and 2048') },
    level: { summary: 'A value not in the list', value: field('level', 'enum', 'The selected level is invalid') },
    colour: { summary: 'Not 3, 6 or 8 hex digits', value: field('dark', 'regex', 'The dark field format is invalid') },
    capacity: {
      summary: 'More than a QR code holds at that level',
      value: field('url', 'capacity', 'The url field is too long for a QR code at level H'),
    },
  },
  tooManyRequests: {
    tooMany: {
      summary: 'Over a rate limit (see the RateLimit-* and Retry-After headers)',
      value: body('E_TOO_MANY_REQUESTS', 'Too many requests: the rate limit is reached, try again in 42 seconds'),
    },
  },
  unauthorizedShorten: {
    badToken: BAD_TOKEN,
    badHeader: NOT_BEARER,
    anonymousOff: {
      summary: 'No token while ANONYMOUS_SHORTEN is off',
      value: body('E_UNAUTHORIZED_ACCESS', 'Anonymous shortening is turned off on this server: send a bearer token'),
    },
  },
  internal: {
    internal: { summary: 'A bug; the body carries no internals', value: body('E_INTERNAL_ERROR', 'Internal server error') },
  },
  unavailable: {
    unavailable: {
      summary: 'The database is unreachable',
      value: body('E_SERVICE_UNAVAILABLE', 'The service is temporarily unavailable, try again shortly'),
    },
  },
  routeNotFound: {
    routeNotFound: { summary: 'A reserved word under the API prefix', value: body('E_ROUTE_NOT_FOUND', 'Cannot GET /v2') },
  },
} as const;

export type ErrorExamples = keyof typeof EXAMPLES;

/** The documented error statuses: what each means, and its examples unless a route names others. */
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
  404: { description: "E_NOT_FOUND: no such live link among the caller's own.", examples: 'notFound' },
  422: {
    description: 'E_VALIDATION_ERROR: bad input; `errors` lists the failed fields, `message` repeats the first.',
    examples: 'shortenValidation',
  },
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
} as const satisfies Record<number, { description: string; examples: ErrorExamples }>;

export type ErrorStatus = keyof typeof STATUSES;

/**
 * A response schema for one error status: the error body, with a description and named
 * examples (`x-examples` becomes the media type's `examples` in the document). A new
 * object on every call, because the document generator edits what it is given.
 */
export function errorResponse(status: ErrorStatus, options: { description?: string; examples?: ErrorExamples } = {}) {
  return Type.Object(ErrorBodySchema.properties, {
    additionalProperties: false,
    description: options.description ?? STATUSES[status].description,
    'x-examples': structuredClone(EXAMPLES[options.examples ?? STATUSES[status].examples]),
    ...(status === 429 && { headers: structuredClone(RATE_LIMIT_HEADERS) }),
  });
}

/** The headers of a rate-limited answer (429 has them all; other answers all but Retry-After). */
export const RATE_LIMIT_HEADERS = {
  'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the limit resets.' },
  'RateLimit-Limit': { schema: { type: 'integer' }, description: 'The limit of the current window (a minute).' },
  'RateLimit-Remaining': { schema: { type: 'integer' }, description: 'What is left of it.' },
  'RateLimit-Reset': { schema: { type: 'integer' }, description: 'Seconds until the window resets.' },
};

/** The error responses of a route, by status, each with its default description and examples. */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]): Record<S, ReturnType<typeof errorResponse>> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponse(status)])) as Record<S, ReturnType<typeof errorResponse>>;
}

/** The error body as an OpenAPI media type object, for a response that lists its media types. */
export function errorMedia(examples: ErrorExamples) {
  return { schema: Type.Object(ErrorBodySchema.properties, { additionalProperties: false }), examples: structuredClone(EXAMPLES[examples]) };
}

/** The 401 of a call that needs a token (v3's calls for a workspace): none was sent, or not a valid one. */
export function tokenRequiredResponse() {
  return errorResponse(401, { examples: 'tokenRequired', description: 'E_UNAUTHORIZED_ACCESS: no bearer token, or not a valid one.' });
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
  return Type.Object(ErrorBodySchema.properties, {
    additionalProperties: false,
    description:
      'E_SERVICE_UNAVAILABLE: too many passwords are being checked on the server right now (a few run at once, a few more ' +
      'wait): the password was not checked; retry after `Retry-After` seconds. Or the database is unreachable.',
    'x-examples': structuredClone(EXAMPLES.passwordsBusy),
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait (1) when the password threads are busy.' } },
  });
}

/** The errors of a v3 call for a token's workspace: 400, 401 (tokenRequiredResponse), 403, 500 and 503. */
export function workspaceCallErrors() {
  return { ...errorResponses(400, 403, 500, 503), 401: tokenRequiredResponse() };
}
