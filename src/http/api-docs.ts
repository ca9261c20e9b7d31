import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { DOCS_PAGE_HEADERS } from './html-headers.js';

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
        { name: 'operations', description: 'Health and readiness probes, for load balancers and orchestrators' },
      ],
    },
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());

  // The reference page and its script, made on the first visit: Scalar's module holds its 4 MB
  // page script and ~18 MB of heap (measured), which every process would otherwise carry.
  const page = (path: string, type: string) => async (_request: FastifyRequest, reply: FastifyReply) => {
    const files = await scalarFiles();
    if (path === SCRIPT_PATH) return reply.type(type).send(files.script);
    return reply.headers(DOCS_PAGE_HEADERS).type(type).send(files.html);
  };
  for (const path of [DOCS_PATH, `${DOCS_PATH}/`]) app.get(path, { schema: { hide: true } }, page(path, 'text/html; charset=utf-8'));
  app.get(SCRIPT_PATH, { schema: { hide: true } }, page(SCRIPT_PATH, 'application/javascript; charset=utf-8'));
}

const SCRIPT_PATH = `${DOCS_PATH}/js/scalar.js`;

let scalar: Promise<{ html: string; script: Buffer }> | undefined;

/**
 * Scalar's page and script, as its Fastify plugin serves them, taken once from a throwaway
 * instance. The page's links are absolute (`cdn`, `url`), so it serves from `/docs` and `/docs/` alike.
 */
function scalarFiles(): Promise<{ html: string; script: Buffer }> {
  scalar ??= (async () => {
    const { default: plugin } = await import('@scalar/fastify-api-reference');
    const docs = Fastify({ logger: false });
    try {
      await docs.register(plugin, {
        routePrefix: DOCS_PATH,
        configuration: {
          url: OPENAPI_PATH,
          cdn: SCRIPT_PATH,
          pageTitle: 'Brief API reference',
          // Offline: no fonts from fonts.scalar.com, no telemetry, no AI agent calling home.
          withDefaultFonts: false,
          telemetry: false,
          agent: { disabled: true },
          showDeveloperTools: 'never',
        },
      });
      const [html, script] = await Promise.all([docs.inject(`${DOCS_PATH}/`), docs.inject(SCRIPT_PATH)]);
      if (html.statusCode !== 200 || script.statusCode !== 200) throw new Error(`Scalar answered ${html.statusCode} and ${script.statusCode}`);
      return { html: html.body, script: script.rawPayload };
    } finally {
      await docs.close();
    }
  })();
  // A failure is not kept: the next visit tries again.
  scalar.catch(() => (scalar = undefined));
  return scalar;
}
