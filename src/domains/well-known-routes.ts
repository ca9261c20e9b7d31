// The v3 calls on a private domain's app-link files (docs/api/v3.md, "App links"; decision 0042), under /v3.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_ERRORS } from '../accounts/account-errors.js';
import { documentedOnly, REQUIRED_AUTH } from '../http/api-docs.js';
import type { WorkspaceCaller } from '../http/auth.js';
import { errorResponse, workspaceCallErrors } from '../http/error-schemas.js';
import { DOMAIN_ERRORS } from './domain-errors.js';
import { DomainSuccess, DomainsQuery } from './v3-schemas.js';
import { WELL_KNOWN_ERRORS } from './well-known-errors.js';
import { WellKnownBody, WellKnownEntry as WellKnownEntrySchema, WellKnownList, WellKnownListPath, WellKnownPath } from './well-known-schemas.js';
import type { WellKnownEntry, WellKnownService } from './well-known-service.js';

const tags = ['v3 domains'];
const notFound = (withFile: boolean) =>
  errorResponse(404, {
    examples: {
      domain: DOMAIN_ERRORS.notFound,
      workspace: ACCOUNT_ERRORS.workspaceNotFound,
      ...(withFile && { name: WELL_KNOWN_ERRORS.unknownName, none: WELL_KNOWN_ERRORS.noFile }),
    },
    description:
      "E_NOT_FOUND: not one of the caller's private domains (a public domain, another account's, or none)" +
      (withFile ? ', a name other than the two files, or (GET, DELETE) no such file on the domain.' : '.'),
  });
const common = { tags, security: REQUIRED_AUTH, querystring: DomainsQuery };

const listSchema = {
  ...common,
  summary: "A private domain's app-link files",
  description: 'Which of `apple-app-site-association` and `assetlinks.json` the domain serves under `/.well-known/`.',
  params: WellKnownListPath,
  response: { 200: WellKnownList, ...workspaceCallErrors(), 404: notFound(false) },
};

const getSchema = {
  ...common,
  summary: 'One app-link file of a private domain',
  description: 'The file as it was uploaded, byte for byte (`application/json`), as the domain serves it at `/.well-known/{name}`.',
  params: WellKnownPath,
  response: {
    200: { description: 'The file.', content: { 'application/json': { schema: { description: 'The uploaded JSON, as it was sent.' } } } },
    ...workspaceCallErrors(),
    404: notFound(true),
  },
};

const putSchema = {
  ...common,
  summary: 'Upload an app-link file of a private domain',
  description:
    'Sets (or replaces) the file the domain serves at `/.well-known/{name}` with `Content-Type: application/json`, for ' +
    "iOS universal links (`apple-app-site-association`) or Android App Links (`assetlinks.json`). An admin's or owner's " +
    'call. The domain serves it once it is verified; every instance at once (it is read from the database).',
  params: WellKnownPath,
  body: WellKnownBody,
  response: {
    200: WellKnownEntrySchema,
    ...workspaceCallErrors(),
    404: notFound(true),
    422: errorResponse(422, {
      examples: { tooLarge: WELL_KNOWN_ERRORS.tooLarge, notJson: WELL_KNOWN_ERRORS.notJson, kind: WELL_KNOWN_ERRORS.wrongKind },
    }),
  },
};

const removeSchema = {
  ...common,
  summary: 'Remove an app-link file of a private domain',
  description: 'The domain answers 404 at `/.well-known/{name}` from then on.',
  params: WellKnownPath,
  response: { 200: DomainSuccess, ...workspaceCallErrors(), 404: notFound(true) },
};

const toEntry = (entry: WellKnownEntry) => ({ name: entry.name, bytes: entry.bytes, updatedAt: new Date(entry.updatedAt).toISOString() });

/** Under /v3, in a context of their own: a body is taken as text, whatever its type, and kept as it came. */
export function v3WellKnownRoutes(files: WellKnownService, callerIn: WorkspaceCaller) {
  return async (fastify: FastifyInstance) => {
    fastify.removeAllContentTypeParsers();
    // Fastify's default limit (1 MB) stands for the request; the service answers 422 past 64 KB, naming the file.
    fastify.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const options = { serializerCompiler: documentedOnly };
    const read = { ...options, config: { limit: 'read' as const, scope: 'links:read' as const } };
    const write = { ...options, config: { limit: 'read' as const, scope: 'domains:write' as const } };
    const base = '/shorten/domains/:domain/well-known';

    app.get(base, { ...read, schema: listSchema }, async (request) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      return (await files.listOwn(caller, request.params.domain)).map(toEntry);
    });

    app.get(`${base}/:name`, { ...read, schema: getSchema }, async (request, reply) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      const file = await files.getOwn(caller, request.params.domain, request.params.name);
      return reply.type('application/json').send(file.body);
    });

    app.put(`${base}/:name`, { ...write, schema: putSchema }, async (request) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      return toEntry(await files.putOwn(caller, request.params.domain, request.params.name, request.body));
    });

    app.delete(`${base}/:name`, { ...write, schema: removeSchema }, async (request) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      await files.removeOwn(caller, request.params.domain, request.params.name);
      return { success: true as const };
    });
  };
}
