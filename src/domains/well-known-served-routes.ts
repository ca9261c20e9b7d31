// GET and HEAD /.well-known/apple-app-site-association and /.well-known/assetlinks.json on a short domain (decision
// 0042): the file its owner uploaded, for iOS universal links and Android App Links. `.well-known` is never a link
// key (a key holds no dot), so these paths shadow no link and no link shadows them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NOT_FOUND_PAGE } from '../html/pages.js';
import { documentedOnly, NO_AUTH } from '../http/api-docs.js';
import { errorResponses } from '../http/error-schemas.js';
import { WELL_KNOWN_NAMES } from './well-known-schemas.js';
import type { WellKnownService } from './well-known-service.js';

/** Short enough that a file replaced or removed reaches Apple's CDN and Android's verifier soon; they fetch rarely. */
export const WELL_KNOWN_MAX_AGE_S = 300;

const SERVED_HEADERS = {
  'content-type': 'application/json',
  'cache-control': `public, max-age=${WELL_KNOWN_MAX_AGE_S}`,
  'x-content-type-options': 'nosniff',
};

const schemaFor = (name: string) => ({
  summary: `A domain's ${name}`,
  description:
    `The \`${name}\` file uploaded for the domain the \`Host\` header names (\`PUT /v3/shorten/domains/{domain}/well-known/${name}\`, ` +
    '`brief domain well-known set`), byte for byte. A Host that is no short domain answers as the default domain ' +
    '(unless `STRICT_HOSTS=on`); a claim not verified yet serves nothing.',
  tags: ['redirect'],
  security: NO_AUTH,
  response: {
    200: {
      description: `The file, \`Content-Type: application/json\`, \`Cache-Control: public, max-age=${WELL_KNOWN_MAX_AGE_S}\`.`,
      content: { 'application/json': { schema: { description: 'The uploaded JSON.' } } },
    },
    404: {
      description: 'The domain has no such file: the 404 page, as any unknown path.',
      content: { 'text/html': { schema: { type: 'string', contentMediaType: 'text/html' }, example: NOT_FOUND_PAGE } },
    },
    // 429 is documented by the `read` limit itself when RATE_LIMIT_READ is on (http/rate-limits.ts).
    ...errorResponses(500, 503),
  },
});

/** `domainOf`: the domain a request is answered as (the redirect side's rule, decision 0015). */
export function wellKnownRoutes(files: WellKnownService, domainOf: (request: FastifyRequest) => string) {
  return async (app: FastifyInstance) => {
    for (const name of WELL_KNOWN_NAMES) {
      app.get(
        `/.well-known/${name}`,
        { schema: schemaFor(name), serializerCompiler: documentedOnly, config: { limit: 'read' } },
        async (request, reply) => {
          const body = await files.served(domainOf(request), name);
          if (body === undefined) return reply.callNotFound();
          // As bytes, so the type stays exactly as Apple documents it (Fastify adds a charset to a string's JSON type).
          return reply.code(200).headers(SERVED_HEADERS).send(Buffer.from(body));
        },
      );
    }
  };
}
