import { setTimeout as delay } from 'node:timers/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { BriefError, badFormat, fieldExample, notInList, rangeExample } from '../errors.js';
import { documentedOnly, NO_AUTH } from '../http/api-docs.js';
import { errorResponse, errorResponses } from '../http/error-schemas.js';
import { URL_ERRORS } from '../net/url-errors.js';
import { QR_ERRORS } from './qr-errors.js';
import { QrService } from './qr-service.js';
import { QR_WEIGHT_CHARACTERS, QR_WEIGHT_PIXELS, qrWeight } from './qr-weight.js';
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

/** Seconds a caller refused because the QR threads are busy waits: a queue drains in well under a second. */
const BUSY_RETRY_AFTER = 1;

/**
 * How long a refusal (429 over a limit, 503 busy) waits before it is sent. A refusal costs the event
 * loop ~0.1 ms, several redirects' worth, and a client that ignores Retry-After asks again at once: issue
 * 37's flood (4 connections back to back) sent ~2,000 a second once refused. Held this long, each
 * connection makes at most 4 a second; the wait is a timer, no work.
 */
export const QR_REFUSAL_DELAY_MS = 250;

const qrSchema = {
  summary: 'A QR code of a URL',
  description:
    'An SVG (the default) or PNG image of a QR code that encodes `url`. No token is needed (one that is sent must be live: ' +
    'otherwise 401) and the URL is never fetched. ' +
    'The format is `format` when given, otherwise `image/png` when `Accept` prefers it to SVG, otherwise SVG ' +
    '(`application/xml` counts as SVG). Answers are cacheable for a day and carry a strong `ETag`; a matching ' +
    '`If-None-Match` answers 304. An empty parameter counts as not given.\n\n' +
    'Besides counting as one call against `RATE_LIMIT_READ`, a code counts its weight against `RATE_LIMIT_QR` (1200 a minute by ' +
    `default, per token or, without one, per address): 1, plus 1 for every full ${QR_WEIGHT_CHARACTERS} characters of the ` +
    `(normalized) URL, plus 1 for every full ${QR_WEIGHT_PIXELS} pixels of \`width\`, so about what it costs to draw: a short ` +
    "URL at 256 pixels is 1, a 1,900-character URL at 2,048 pixels 17. Its `RateLimit-*` headers are that limit's. " +
    'Codes are drawn on a few threads of their own with a bounded queue: when it is full the answer is 503 with `Retry-After`. ' +
    `A refusal (429 or 503) is sent ${QR_REFUSAL_DELAY_MS} ms after it is decided.`,
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
    ...errorResponses(400, 401, 500),
    422: errorResponse(422, {
      examples: {
        urlInvalid: URL_ERRORS.invalid,
        width: rangeExample('A number out of range', 'width', QrQuery.properties.width),
        level: fieldExample('A value not in the list', notInList('level')),
        colour: fieldExample('Not 3, 6 or 8 hex digits', badFormat('dark')),
        capacity: QR_ERRORS.capacity,
      },
    }),
    503: {
      ...errorResponse(503, {
        description: 'E_SERVICE_UNAVAILABLE: every QR thread is drawing and the queue of codes waiting is full; retry after `Retry-After` seconds.',
      }),
      headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before asking again (1).' } },
    },
  },
};

export function qrRoutes(qr = new QrService()) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onClose', () => qr.close());

    app.get(
      '/qrcode',
      {
        schema: qrSchema,
        serializerCompiler: documentedOnly,
        // Counted as a read, and by its weight against RATE_LIMIT_QR (qr-weight.ts).
        config: { limit: 'read', scope: 'none', qrWeight: (request) => qrWeight(request.query as QrQuery) },
        // As for /v2/shorten, an empty parameter (`width=`) counts as not given: its default applies.
        preValidation: async (request) => {
          const query = request.query as Record<string, unknown>;
          for (const [name, value] of Object.entries(query)) if (value === '') delete query[name];
        },
        onSend: async (_request, reply, payload) => {
          if (reply.statusCode === 429 || reply.statusCode === 503) await delay(QR_REFUSAL_DELAY_MS);
          return payload;
        },
      },
      async (request, reply) => {
        const { format, ...params } = request.query;
        const spec = qr.prepare({ ...params, format: format ?? preferredFormat(request) });
        const etag = `"${spec.key}"`;
        if (matchesAny(request.headers['if-none-match'], etag)) {
          return reply.code(304).headers({ ETag: etag, 'Cache-Control': CACHE_CONTROL, Vary: 'Accept' }).send();
        }
        const image = await qr.render(spec); // before the headers: an error answer must not look cacheable
        if (image === 'busy') {
          reply.header('Retry-After', BUSY_RETRY_AFTER);
          throw BriefError.unavailable();
        }
        return reply.headers({ ETag: etag, 'Cache-Control': CACHE_CONTROL, Vary: 'Accept' }).type(image.contentType).send(image.body);
      },
    );
  };
}

// What an Accept header may ask for: SVG under its XML names too (one client sends
// `Accept: application/xml`), and PNG. With equal preference SVG, listed first, wins.
const OFFERED = ['image/svg+xml', 'application/xml', 'text/xml', 'image/png'];

/**
 * PNG when `Accept` prefers `image/png` to SVG (by quality, then by how specific the range is,
 * as `negotiator` ranks them), else SVG: on a tie, without `Accept`, or when neither is acceptable.
 */
export function preferredFormat(request: Pick<FastifyRequest, 'headers'>): QrFormat {
  if (!request.headers.accept) return 'svg';
  return new Negotiator({ headers: { accept: request.headers.accept } }).mediaType(OFFERED) === 'image/png' ? 'png' : 'svg';
}

/** `If-None-Match` compares weakly (RFC 9110 §13.1.2): `*`, or any listed tag with or without `W/`. */
function matchesAny(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
