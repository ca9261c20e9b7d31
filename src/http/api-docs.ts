import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

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
 * from the route schemas) and `GET /docs` (Scalar, served from here: no CDN, no web fonts).
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
          [BEARER]: { type: 'http', scheme: 'bearer', description: 'A token made by `brief token create`.' },
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
      ],
    },
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());

  app.register(async (docs) => {
    // Loaded here rather than at import: its 4 MB page script is for the server, not the CLI.
    const { default: scalar } = await import('@scalar/fastify-api-reference');
    // Scalar answers /docs with a 301 to /docs/, as its page's links are relative to the
    // folder. Ours are absolute (`cdn`, `url`), so /docs serves the page itself.
    let page: RouteHandlerMethod | undefined;
    docs.addHook('onRoute', (route) => {
      if (route.method !== 'GET') return;
      if (route.url === `${DOCS_PATH}/`) page = route.handler as RouteHandlerMethod;
      if (route.url === DOCS_PATH) {
        route.handler = function (request, reply) {
          const [path, query] = splitUrl(request.url);
          const asFolder = Object.create(request, { url: { value: `${path}/${query}` } }) as FastifyRequest;
          return page!.call(this, asFolder, reply);
        };
      }
    });
    await docs.register(scalar, {
      routePrefix: DOCS_PATH,
      logLevel: 'warn',
      configuration: {
        url: OPENAPI_PATH,
        cdn: `${DOCS_PATH}/js/scalar.js`,
        pageTitle: 'Brief API reference',
        // Offline: no fonts from fonts.scalar.com, no telemetry, no AI agent calling home.
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        showDeveloperTools: 'never',
      },
    });
  });
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}
