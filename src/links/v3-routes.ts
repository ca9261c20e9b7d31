import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DOMAIN_LIST_EXAMPLES } from '../domains/domain-errors.js';
import { fieldExample, itemCount, tooShort } from '../errors.js';
import { documentedOnly, OPTIONAL_AUTH, REQUIRED_AUTH } from '../http/api-docs.js';
import type { WorkspaceCaller } from '../http/auth.js';
import { errorResponse, errorResponses, workspaceCallErrors, workspaceNotFoundResponse } from '../http/error-schemas.js';
import { URL_ERRORS } from '../net/url-errors.js';
import { LINK_ERRORS, LINK_NOT_FOUND_EXAMPLES, SHORTEN_EXAMPLES } from './link-errors.js';
import { EXPIRY_ERRORS, PASSWORD_MIN_LENGTH } from './link-fields.js';
import type { LinkService } from './link-service.js';
import { TAG_ERRORS } from './tag-names.js';
import {
  BULK_MAX_ITEMS,
  BulkBody,
  BulkQuery,
  BulkResult,
  EditBody,
  LinkPath,
  LinkQuery,
  ListV3Query,
  ListV3Result,
  OneLink,
  ShortenV3Query,
  ShortenV3Result,
  Success,
} from './v3-schemas.js';
import { toBulkResult, toListedLink, toOneLink, toShortenResult } from './v3-views.js';

const tags = ['v3 links'];

/** The bulk answer's example (here, not in v3-schemas.ts, which the web app reads): one item made, one refused at write time. */
const SLUG_TAKEN = LINK_ERRORS.slugTaken.example();
const BulkAnswer = Type.Array(BulkResult.items, {
  examples: [
    [
      {
        id: '1b4e28ba-2fa1-51d2-883f-0016d3cca427',
        url: 'https://example.com/a',
        slug: 'x4Tq9Zb',
        isCustomSlug: false,
        domain: 'localhost:3000',
        isReused: false,
        shortLink: 'http://localhost:3000/x4Tq9Zb',
        comment: '',
      },
      { url: 'https://example.com/b', error: SLUG_TAKEN.code, message: SLUG_TAKEN.message },
    ],
  ],
});

const bulkSchema = {
  summary: 'Make one or many links',
  description:
    'Every item is checked before any is made: a body that is not an array of 1 to 200 items, or an item with a bad ' +
    'field (a url that is not an http(s) URL or carries a user name or password, a malformed or reserved slug, a short ' +
    'password, an expiredAt that is not a future timestamp), is refused as a whole (422, each failed field named by its ' +
    'path, `0.url`) and nothing is made. What can fail only at write time (a slug already taken, a blocked host, a ' +
    'domain the caller may not use, a URL on a short domain) refuses that item alone: an error element `{url, error, message}` ' +
    'in its place, `url` being the item’s normalized URL, while the others are made.',
  tags,
  security: OPTIONAL_AUTH,
  querystring: BulkQuery,
  body: BulkBody,
  response: {
    200: BulkAnswer,
    ...errorResponses(400, 401, 403, 500, 503),
    404: workspaceNotFoundResponse(),
    422: errorResponse(422, {
      examples: {
        notArray: LINK_ERRORS.notArray,
        tooMany: fieldExample(`More than ${BULK_MAX_ITEMS} items`, itemCount('request', 'maxItems', BULK_MAX_ITEMS)),
        item: LINK_ERRORS.badItems,
        tag: TAG_ERRORS.badName.exampleWith(['3.tags', 'a,b', 'it has a comma']),
      },
    }),
  },
};

const shortenSchema = {
  summary: 'Make one link (v2 style)',
  description: 'Without `returnExisting` a new link is made even when the caller has one to the URL.',
  tags,
  security: OPTIONAL_AUTH,
  querystring: ShortenV3Query,
  response: {
    200: ShortenV3Result,
    ...errorResponses(400, 401, 403, 500, 503),
    404: workspaceNotFoundResponse(),
    422: errorResponse(422, { examples: SHORTEN_EXAMPLES }),
  },
};

const listSchema = {
  summary: "The caller's links",
  description: 'Newest first.',
  tags,
  security: REQUIRED_AUTH,
  querystring: ListV3Query,
  response: {
    200: ListV3Result,
    ...workspaceCallErrors(),
    404: workspaceNotFoundResponse(),
    422: errorResponse(422, {
      examples: {
        ...DOMAIN_LIST_EXAMPLES,
        tag: TAG_ERRORS.badName.exampleWith(['tags', 'x'.repeat(50), 'it is longer than 50 characters'], 'A tag name too long'),
      },
    }),
  },
};

const oneSchema = (summary: string, description: string, ok: object, extra: object = {}) => ({
  summary,
  description,
  tags,
  security: REQUIRED_AUTH,
  params: LinkPath,
  querystring: LinkQuery,
  ...extra,
  response: {
    200: ok,
    ...workspaceCallErrors(),
    404: errorResponse(404, { examples: LINK_NOT_FOUND_EXAMPLES, description: "E_NOT_FOUND: no such live link among the caller's own." }),
    422: errorResponse(422, {
      examples: {
        password: fieldExample('A password too short', tooShort('password', PASSWORD_MIN_LENGTH)),
        expiry: EXPIRY_ERRORS.past,
        impossibleDate: EXPIRY_ERRORS.impossibleDate,
        credentials: URL_ERRORS.credentials,
        url: URL_ERRORS.invalid,
        tag: TAG_ERRORS.badName,
        tagTwice: TAG_ERRORS.twice,
      },
    }),
  },
});

const getSchema = oneSchema('One link', 'A link of the caller by its domain and slug (or generated code).', OneLink);
const deleteSchema = oneSchema('Delete a link', 'The short URL stops redirecting at once on every instance.', Success);
const editSchema = oneSchema(
  'Edit a link',
  'Changes the destination, comment, password, expiry or query forwarding; the redirect changes on every instance as a delete does. A new destination takes the link out of dedupe.',
  OneLink,
  { body: EditBody },
);

/**
 * A bulk body must be an array as sent: Fastify's Ajv coerces a lone value into a
 * one-item array (`coerceTypes: 'array'`), which would turn `"text"` into a batch of one.
 */
async function refuseNonArray(request: { body: unknown }): Promise<void> {
  if (!Array.isArray(request.body)) throw LINK_ERRORS.notArray();
}

/** The v3 link calls (docs/api/v3.md), under /v3. */
export function v3LinkRoutes(links: LinkService, callerIn: WorkspaceCaller) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const options = { serializerCompiler: documentedOnly };

    app.post(
      '/shorten/bulk',
      { ...options, config: { limit: 'links', scope: 'links:write' }, schema: bulkSchema, preValidation: refuseNonArray },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'anyone');
        const results = await links.createMany(caller, request.body);
        return results.map((result) =>
          'error' in result ? { url: result.url, error: result.error.code, message: result.error.message } : toBulkResult(result),
        );
      },
    );

    app.get('/shorten', { ...options, config: { limit: 'links', scope: 'links:write' }, schema: shortenSchema }, async (request) => {
      const { workspaceId, returnExisting, forwardQuery, ...input } = request.query;
      const caller = await callerIn(request, workspaceId, 'anyone');
      const yes = (flag: string | undefined) => flag === '1' || flag === 'true';
      return toShortenResult(
        await links.create(caller, { ...input, reuseExisting: yes(returnExisting), forwardQuery: forwardQuery === undefined || yes(forwardQuery) }),
      );
    });

    app.get('/shorten/list', { ...options, config: { limit: 'read', scope: 'links:read' }, schema: listSchema }, async (request) => {
      const { page, perPage, search, workspaceId, ...filter } = request.query;
      const caller = await callerIn(request, workspaceId, 'account');
      const { total, links: found } = await links.list(caller, page, perPage, search, filter);
      return { links: found.map(toListedLink), metadata: { total, perPage, page } };
    });

    app.get('/shorten/:domain/:slug', { ...options, config: { limit: 'read', scope: 'links:read' }, schema: getSchema }, async (request) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      const placed = await links.own(caller, request.params.domain, request.params.slug);
      return toOneLink(placed);
    });

    app.patch('/shorten/:domain/:slug', { ...options, config: { limit: 'read', scope: 'links:write' }, schema: editSchema }, async (request) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      const placed = await links.edit(caller, request.params.domain, request.params.slug, request.body ?? {});
      return toOneLink(placed);
    });

    app.delete('/shorten/:domain/:slug', { ...options, config: { limit: 'read', scope: 'links:write' }, schema: deleteSchema }, async (request) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      await links.deleteOwn(caller, request.params.domain, request.params.slug);
      return { success: true as const };
    });
  };
}
