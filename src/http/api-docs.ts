import { readFileSync } from 'node:fs';
import path from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { DOCS_PAGE_HEADERS } from '../html/pages.js';
import { PACKAGE_ROOT } from '../package-root.js';

const { version } = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };

export const OPENAPI_PATH = '/v2/openapi.json';
export const DOCS_PATH = '/docs';

/** The security scheme name routes refer to. */
const BEARER = 'bearerAuth';
type SecurityRequirements = Array<Record<string, string[]>>;
/** Anonymous callers allowed; a token, when sent, must be valid. */
export const OPTIONAL_AUTH: SecurityRequirements = [{}, { [BEARER]: [] }];
export const REQUIRED_AUTH: SecurityRequirements = [{ [BEARER]: [] }];
export const NO_AUTH: SecurityRequirements = [];

/**
 * Response schemas are for the API document only: every route serializes with
 * JSON.stringify, exactly as without schemas. Fastify would otherwise compile them with
 * fast-json-stringify, which orders keys by the schema, drops keys it does not list and
 * coerces values — and also shapes the error handler's bodies on the same route. Routes
 * with response schemas set `serializerCompiler: documentedOnly`.
 */
export const documentedOnly = () => (data: unknown) => JSON.stringify(data);

/**
 * The API document and its reference page: `GET /v2/openapi.json` (OpenAPI 3.1, generated
 * from the route schemas) and `GET /docs` (Swagger UI, served from here: no CDN, no web fonts).
 * Call before the routes are registered, so the document sees them.
 */
export function registerApiDocs(app: FastifyInstance): void {
  app.register(swagger, {
    mode: 'dynamic',
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Brief',
        version,
        description:
          'Brief, a self-hosted URL shortener speaking the v2 shortening interface. Every error is `{ message, code }`; ' +
          'validation errors add `errors: [{ field, rule, message }]`. An unknown path under `/v2` answers 404 ' +
          '`E_ROUTE_NOT_FOUND`. Without an `Authorization` header a request is made as the anonymous account.',
      },
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          [BEARER]: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A token made by `brief token create` or `POST /v3/tokens`; its scopes say which calls it may make (403 `E_FORBIDDEN` beyond them).',
          },
        },
      },
      tags: [
        { name: 'links', description: 'Shorten and delete links' },
        { name: 'domains', description: 'Short domains' },
        { name: 'redirect', description: 'Short URLs, on the short domains' },
        { name: 'qrcode', description: 'QR code images of URLs' },
        { name: 'v3 links', description: 'Links, as the v3 clients make, list, edit and delete them' },
        { name: 'v3 domains', description: "Short domains, and the settings of the caller's own" },
        { name: 'v3 analytics', description: "Clicks on the caller's links" },
        { name: 'tokens', description: "The caller's workspace's API tokens, for the web app's Settings (a token with every scope)" },
        {
          name: 'webhooks',
          description: "The workspace's webhook endpoints: signed deliveries of its links' events (webhooks:write, admin and above)",
        },
        { name: 'operations', description: 'Health and readiness probes, for load balancers and orchestrators' },
      ],
    },
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());

  // The reference page: Swagger UI, its files served from the package on disk (nothing from another
  // host). Its routes (/docs, /docs/json, /docs/static/…) carry the page's headers; the page reads
  // the same document as /v2/openapi.json.
  app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply) => {
      reply.headers(DOCS_PAGE_HEADERS);
    });
    await scope.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      theme: { title: 'Brief API reference' },
      // No validatorUrl: the plugin's default (null) keeps the page from asking validator.swagger.io.
      uiConfig: { deepLinking: true, tryItOutEnabled: false },
    });
  });
}
