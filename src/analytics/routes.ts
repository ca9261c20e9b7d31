import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { documentedOnly, REQUIRED_AUTH } from '../http/api-docs.js';
import type { WorkspaceCaller } from '../http/auth.js';
import { errorResponse, errorResponses } from '../http/error-schemas.js';
import type { AnalyticsService } from './analytics-service.js';
import { ClicksQuery, ClicksResult } from './schemas.js';

const clicksSchema = {
  summary: 'Clicks over time',
  description:
    "Clicks on the workspace's links (or one link's, with `link`) per day or hour of the range, in the time zone, every " +
    'bucket present (zero-filled). Visits by crawlers and link-preview fetchers are not counted. Events are written every ' +
    'CLICK_FLUSH_MS, so the last second or so may not be counted yet.',
  tags: ['v3 analytics'],
  security: REQUIRED_AUTH,
  querystring: ClicksQuery,
  response: {
    200: ClicksResult,
    ...errorResponses(400, 500, 503),
    401: errorResponse(401, { examples: 'tokenRequired', description: 'E_UNAUTHORIZED_ACCESS: no bearer token, or not a valid one.' }),
    404: errorResponse(404, {
      examples: 'v3NotFound',
      description: "E_NOT_FOUND: a workspaceId that is not the caller's, or a link not among the caller's.",
    }),
    422: errorResponse(422, { examples: 'analyticsValidation' }),
  },
};

/** The v3 analytics calls (../shared/spec/v3-interface.md, "Analytics"), under /v3; all need a token. */
export function analyticsRoutes(analytics: AnalyticsService, callerIn: WorkspaceCaller) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/shorten/analytics/clicks', { serializerCompiler: documentedOnly, schema: clicksSchema }, async (request) => {
      const { workspaceId, ...query } = request.query as ClicksQuery;
      const caller = await callerIn(request, workspaceId, 'account');
      return analytics.clicks(caller, query);
    });
  };
}
