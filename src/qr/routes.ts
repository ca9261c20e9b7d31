import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { documentedOnly, NO_AUTH } from '../http/api-docs.js';
import { errorResponse, errorResponses } from '../http/error-schemas.js';
import { QrService } from './qr-service.js';
import { type QrFormat, QrQuery } from './schemas.js';

/** A day: the image of the same parameters never changes (its ETag names the renderer's version too). */
const CACHE_CONTROL = 'public, max-age=86400';

const cachingHeaders = {
  ETag: { type: 'string', description: 'A strong validator: a hash of the normalized parameters, the format and the renderer version.' },
  'Cache-Control': { type: 'string', examples: [CACHE_CONTROL] },
  Vary: { type: 'string', description: 'The format may come from `Accept`.', examples: ['Accept'] },
};

const SVG_EXAMPLE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 29 29" shape-rendering="crispEdges">' +
  '<path fill="#ffffff" d="M0 0h29v29H0z"/><path stroke="#000000" d="M2 2.5h7m1 0h1…"/></svg>';

const qrSchema = {
  summary: 'A QR code of a URL',
  description:
    'An SVG (the default) or PNG image of a QR code that encodes `url`. No token is needed and the URL is never fetched. ' +
    'The format is `format` when given, otherwise `image/png` when `Accept` prefers it to SVG, otherwise SVG ' +
    '(`application/xml` counts as SVG). Answers are cacheable for a day and carry a strong `ETag`; a matching ' +
    '`If-None-Match` answers 304. An empty parameter counts as not given.',
  tags: ['qrcode'],
  security: NO_AUTH,
  querystring: QrQuery,
  response: {
    200: {
      description: 'The image: `width`×`width` pixels, quiet zone included (SVG: `width`/`height` attributes and a `viewBox` in modules).',
      headers: cachingHeaders,
      content: {
        'image/svg+xml': { schema: Type.String({ contentMediaType: 'image/svg+xml' }), example: SVG_EXAMPLE },
        'image/png': { schema: Type.String({ contentMediaType: 'image/png', description: 'A 1-bit palette PNG (alpha through tRNS).' }) },
      },
    },
    304: { description: 'Not Modified: `If-None-Match` names this image. No body.', type: 'null', headers: cachingHeaders },
    ...errorResponses(400, 500),
    422: errorResponse(422, { examples: 'qrValidation' }),
  },
};

export function qrRoutes(qr = new QrService()) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/qrcode',
      {
        schema: qrSchema,
        serializerCompiler: documentedOnly,
        // As for /v2/shorten, an empty parameter (`width=`) counts as not given: its default applies.
        preValidation: async (request) => {
          const query = request.query as Record<string, unknown>;
          for (const [name, value] of Object.entries(query)) if (value === '') delete query[name];
        },
      },
      async (request, reply) => {
        const { format, ...params } = request.query as Required<QrQuery>;
        const spec = qr.prepare({ ...params, format: format ?? preferredFormat(request) });
        const etag = `"${spec.key}"`;
        if (matchesAny(request.headers['if-none-match'], etag)) {
          return reply.code(304).headers({ ETag: etag, 'Cache-Control': CACHE_CONTROL, Vary: 'Accept' }).send();
        }
        const image = await qr.render(spec); // before the headers: an error answer must not look cacheable
        return reply.headers({ ETag: etag, 'Cache-Control': CACHE_CONTROL, Vary: 'Accept' }).type(image.contentType).send(image.body);
      },
    );
  };
}

const SVG_TYPES = new Set(['image/svg+xml', 'application/xml', 'text/xml']);

/**
 * PNG when `Accept` gives `image/png` a higher quality than SVG, else SVG. Each format takes
 * the quality of the most specific range that names it (`image/png` over `image/*` over `*\/*`);
 * a tie, no `Accept`, or neither acceptable is SVG, the default.
 */
export function preferredFormat(request: Pick<FastifyRequest, 'headers'>): QrFormat {
  const accept = request.headers.accept;
  if (!accept) return 'svg';
  const best = { png: { q: 0, specificity: -1 }, svg: { q: 0, specificity: -1 } };
  const offer = (format: QrFormat, q: number, specificity: number) => {
    const current = best[format];
    if (specificity > current.specificity || (specificity === current.specificity && q > current.q)) best[format] = { q, specificity };
  };
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q < 0 || q > 1) continue;
    const specificity = range === '*/*' ? 0 : range === 'image/*' ? 1 : 2;
    if (range === 'image/png' || specificity < 2) offer('png', q, specificity);
    if (SVG_TYPES.has(range) || specificity < 2) offer('svg', q, specificity);
  }
  return best.png.q > best.svg.q ? 'png' : 'svg';
}

/** `If-None-Match` compares weakly (RFC 9110 §13.1.2): `*`, or any listed tag with or without `W/`. */
function matchesAny(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
