// The redirect route's schema: its parameter and its answers, for the API document
// (http/api-docs.ts). The answers themselves are built by redirect/redirect-answer.ts.
import { Type } from 'typebox';
import { NO_AUTH } from '../http/api-docs.js';
import { errorMedia, errorResponses } from '../http/error-schemas.js';
import { BLOCKED_PAGE, NOT_FOUND_PAGE } from './pages.js';

const redirect = (description: string) => ({
  description: `${description}; \`REDIRECT_STATUS\` picks one of 301, 302, 307, 308 for the whole server. No body.`,
  type: 'null',
  headers: {
    Location: { type: 'string', description: 'The stored long URL.', examples: ['https://example.com/some/long/page'] },
    'Cache-Control': {
      type: 'string',
      description: '`private, max-age=90` for 301 and 308, `no-store` for 302 and 307.',
      examples: ['private, max-age=90'],
    },
  },
});

const html = (example: string) => ({ schema: Type.String({ contentMediaType: 'text/html' }), example });

export const redirectSchema = {
  summary: 'Follow a short URL',
  description:
    'GET and HEAD `/{key}` on any configured short domain, chosen by the `Host` header (case-insensitively). ' +
    'A link lives only on its own domain. Each GET of a live link counts a click.',
  tags: ['redirect'],
  security: NO_AUTH,
  params: Type.Object({
    key: Type.String({ description: 'The code or slug of the link.', examples: ['x4Tq9Zb', 'launch'] }),
  }),
  response: {
    301: redirect('Moved Permanently (the default)'),
    302: redirect('Found'),
    307: redirect('Temporary Redirect'),
    308: redirect('Permanent Redirect'),
    404: {
      description:
        'An unknown or deleted link, or an unknown host: a small HTML page. A word Brief keeps for its own routes ' +
        '(`v2`, `api`, `docs`, …) is never a key: under `/v2` it answers JSON `E_ROUTE_NOT_FOUND`.',
      content: { 'text/html': html(NOT_FOUND_PAGE), 'application/json': errorMedia('routeNotFound') },
    },
    410: { description: 'A link blocked by the administrator (`brief link block`): a small HTML page.', content: { 'text/html': html(BLOCKED_PAGE) } },
    ...errorResponses(400, 500, 503),
  },
};
