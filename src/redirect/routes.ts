import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  BLOCKED_PAGE,
  cardPage,
  EXPIRED_PAGE,
  NOT_FOUND_PAGE,
  PASSWORD_CHECKS_BUSY_PAGE,
  PASSWORD_PAGE,
  WRONG_PASSWORD_PAGE,
} from '../html/pages.js';
import { documentedOnly, NO_AUTH } from '../http/api-docs.js';
import { errorMedia, errorResponses } from '../http/error-schemas.js';
import type { RedirectAnswer } from './redirect-answer.js';
import type { RedirectPipeline } from './redirect-pipeline.js';

// The route's parameter and its answers, for the API document; the answers themselves are
// built by redirect-answer.ts.
const redirect = (description: string) => ({
  description: `${description}; \`REDIRECT_STATUS\` picks one of 301, 302, 307, 308 for the whole server. No body.`,
  type: 'null',
  headers: {
    Location: {
      type: 'string',
      description:
        "The stored long URL, with the visitor's query string added after its own parameters (the destination's value wins " +
        "a clash; its fragment kept) unless `FORWARD_QUERY=off` or the link's `forwardQuery` is false. A query that cannot " +
        'be parsed, or a result longer than 8,192 characters, adds nothing.',
      examples: ['https://example.com/some/long/page?utm_source=news'],
    },
    'Cache-Control': {
      type: 'string',
      description: '`private, max-age=90` for 301 and 308, `no-store` for 302 and 307.',
      examples: ['private, max-age=90'],
    },
  },
});

const CARD_PAGE_EXAMPLE = cardPage({
  title: 'Spring sale',
  description: 'Until Sunday, everywhere.',
  image: 'https://example.com/images/spring-sale.jpg',
  shortUrl: 'https://go.example.com/spring',
  destination: 'https://example.com/sale',
});

const html = (example: string) => ({ schema: Type.String({ contentMediaType: 'text/html' }), example });

const KeyParams = Type.Object({
  key: Type.String({ description: 'The code or slug of the link.', examples: ['x4Tq9Zb', 'launch'] }),
});

const redirectSchema = {
  summary: 'Follow a short URL',
  description:
    'GET and HEAD `/{key}` on any configured short domain, chosen by the `Host` header (case-insensitively); a `Host` that is ' +
    'no short domain (or a claim not verified yet) is answered as the default domain, unless `STRICT_HOSTS=on`. ' +
    'A link lives only on its own domain. Each GET of a live link counts a click. A link with a password answers ' +
    'a form (200) that posts the password back to the same address; an expired link, or one past its visit limit (`maxVisits`), answers 410. An unknown key on a ' +
    'domain with a not-found page redirect (`notFoundPageRedirectUrl`) answers 302 to it (`Cache-Control: no-store`). ' +
    "A link with a card (v3 `preview`) answers a chat or social app's preview fetcher (Slackbot-LinkExpanding, " +
    'facebookexternalhit, Twitterbot, WhatsApp, …, matched on the `User-Agent`) with its card page (200) instead of the ' +
    'redirect; everyone else gets the redirect, with `Vary: User-Agent`.',
  tags: ['redirect'],
  security: NO_AUTH,
  params: KeyParams,
  response: {
    200: {
      description:
        'A password-protected link: the password form (`Cache-Control: no-store`). Or, to a preview fetcher, the card page of ' +
        "a link with a card: the link's Open Graph and Twitter card tags, a refresh and a link to the destination " +
        '(`Cache-Control: private, no-store`, `Vary: User-Agent`).',
      content: {
        'text/html': {
          schema: Type.String({ contentMediaType: 'text/html' }),
          examples: { password: { value: PASSWORD_PAGE }, card: { value: CARD_PAGE_EXAMPLE } },
        },
      },
    },
    301: redirect('Moved Permanently (the default)'),
    302: redirect("Found; also an unknown key's redirect to its domain's `notFoundPageRedirectUrl`"),
    307: redirect('Temporary Redirect'),
    308: redirect('Permanent Redirect'),
    404: {
      description:
        'An unknown or deleted link, or (with `STRICT_HOSTS=on`) a host that is no short domain: a small HTML page. A word Brief keeps for its own routes ' +
        '(`v2`, `api`, `docs`, …) is never a key: under `/v2` it answers JSON `E_ROUTE_NOT_FOUND`.',
      content: { 'text/html': html(NOT_FOUND_PAGE), 'application/json': errorMedia('routeNotFound') },
    },
    410: {
      description: 'A link blocked by the administrator (`brief link block`), or expired: a small HTML page.',
      content: {
        'text/html': {
          schema: Type.String({ contentMediaType: 'text/html' }),
          examples: { blocked: { value: BLOCKED_PAGE }, expired: { value: EXPIRED_PAGE } },
        },
      },
    },
    ...errorResponses(400, 500, 503),
  },
};

const unlockSchema = {
  summary: "Enter a protected link's password",
  description:
    'The password form posts here (`application/x-www-form-urlencoded`, field `password`). The right password ' +
    'answers 303 to the destination and counts a click; a wrong or missing one answers the form again with 403.',
  tags: ['redirect'],
  security: NO_AUTH,
  params: KeyParams,
  response: {
    303: { description: 'The right password: on to the destination.', type: 'null', headers: { Location: { type: 'string' } } },
    403: { description: 'A wrong or missing password: the form again, with an error.', content: { 'text/html': html(WRONG_PASSWORD_PAGE) } },
    404: { description: 'An unknown or deleted link.', content: { 'text/html': html(NOT_FOUND_PAGE) } },
    410: { description: 'A blocked or expired link.', content: { 'text/html': html(EXPIRED_PAGE) } },
    ...errorResponses(400, 500),
    503: {
      description:
        'Too many passwords are being checked on the server right now (a few run at once, a few more wait): a page ' +
        'saying so, with `Retry-After: 1`, and no check. Or E_SERVICE_UNAVAILABLE: the database is unreachable.',
      content: { 'text/html': html(PASSWORD_CHECKS_BUSY_PAGE), 'application/json': errorMedia('unavailable') },
    },
  },
};

const homeSchema = {
  summary: 'The bare short domain',
  description:
    'GET and HEAD `/` on a short domain with a home page redirect (`PATCH /v3/shorten/domains/{domain}`, ' +
    '`homePageRedirectUrl`) answer 302 to it, not cached and not counted as a click. Without one, the web app on the ' +
    'default domain (`BASE_URL`, and any `Host` that is no short domain unless `STRICT_HOSTS=on`), the 404 page on any other.',
  tags: ['redirect'],
  security: NO_AUTH,
  response: {
    200: { description: 'The web app, on the default domain without a home page redirect.', content: { 'text/html': html('<!doctype html>…') } },
    302: {
      description: "The domain's home page redirect.",
      type: 'null',
      headers: {
        Location: { type: 'string', description: 'The domain’s `homePageRedirectUrl`.', examples: ['https://example.com/'] },
        'Cache-Control': { type: 'string', description: 'Always `no-store`: the setting can change.', examples: ['no-store'] },
      },
    },
    404: {
      description: 'A domain without a home page redirect, or (with `STRICT_HOSTS=on`) a host that is no short domain: a small HTML page.',
      content: { 'text/html': html(NOT_FOUND_PAGE) },
    },
    ...errorResponses(400, 500),
  },
};

/** A password is short; the form's body is bounded well below Fastify's default 1 MB. */
const FORM_BODY_LIMIT = 4096;

function send(reply: FastifyReply, answer: RedirectAnswer | undefined) {
  // Not a redirect (a reserved word, or `/` without a home redirect): the not-found handler answers, JSON under /v2.
  if (answer === undefined) return reply.callNotFound();
  reply.code(answer.status);
  for (let i = 0; i < answer.headers.length; i += 2) reply.header(answer.headers[i]!, answer.headers[i + 1]);
  return answer.body === '' ? reply.send() : reply.send(answer.body);
}

/**
 * GET and HEAD / (a domain's home redirect) and /{key} through Fastify: what the fast path left (percent-encoded keys, a
 * query string, a cache miss on PostgreSQL) and every app.inject, with the same pipeline;
 * and POST /{key}, a protected link's password form. `homePage` answers `/` on a domain without a home redirect (the
 * web app, on the default domain); without it, the not-found handling does.
 */
export function redirectRoutes(pipeline: RedirectPipeline, homePage?: (request: FastifyRequest, reply: FastifyReply) => unknown) {
  return async (fastify: FastifyInstance) => {
    await fastify.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    // No home redirect: the web app's page (on the default domain), or the not-found handling, as any unknown path.
    app.get('/', { schema: homeSchema, serializerCompiler: documentedOnly }, async (request, reply) => {
      const answer = pipeline.home(request.raw);
      return answer === undefined && homePage ? homePage(request, reply) : send(reply, answer);
    });
    app.get('/:key', { schema: redirectSchema, serializerCompiler: documentedOnly }, async (request, reply) =>
      send(reply, await pipeline.answer(request.raw, request.params.key)),
    );
    app.post(
      '/:key',
      { schema: unlockSchema, serializerCompiler: documentedOnly, bodyLimit: FORM_BODY_LIMIT, config: { limit: 'password' } },
      async (request, reply) => {
        const body = request.body as { password?: unknown } | undefined;
        const password = typeof body?.password === 'string' ? body.password : undefined;
        return send(reply, await pipeline.unlock(request.raw, request.params.key, password));
      },
    );
  };
}
