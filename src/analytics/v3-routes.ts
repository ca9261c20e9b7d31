import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { fieldExample, notInList, rangeExample } from '../errors.js';
import { documentedOnly, REQUIRED_AUTH } from '../http/api-docs.js';
import type { WorkspaceCaller } from '../http/auth.js';
import { errorResponse, workspaceCallErrors } from '../http/error-schemas.js';
import { LINK_NOT_FOUND_EXAMPLES } from '../links/link-errors.js';
import { TAG_ERRORS } from '../links/tag-names.js';
import { ANALYTICS_ERRORS } from './analytics-errors.js';
import { type AnalyticsService, TOP_DIMENSIONS, type TopDimension } from './analytics-service.js';
import { ClicksQuery, ClicksResult, TopQuery, TopResult, TopRulesResult } from './schemas.js';

/** What the analytics calls' query may get wrong (the top lists add their limit). */
const QUERY_EXAMPLES = {
  range: fieldExample('Not one of the ranges', notInList('range')),
  timezone: ANALYTICS_ERRORS.timezone,
  link: ANALYTICS_ERRORS.link,
  tagMode: fieldExample('A tagMode not any or all', notInList('tagMode')),
  tag: TAG_ERRORS.badName.exampleWith(['tags', 'a\u0001', 'it has a control character']),
};

const clicksSchema = {
  summary: 'Clicks over time',
  description:
    "Clicks on the workspace's links (or one link's, with `link`; those with or without some tags now, with `tags` and `excludeTags`) per day or hour of the range, in the time zone, every " +
    'bucket present (zero-filled). Visits by crawlers and link-preview fetchers are not counted. Events are written every ' +
    'CLICK_FLUSH_MS, so the last second or so may not be counted yet.',
  tags: ['v3 analytics'],
  security: REQUIRED_AUTH,
  querystring: ClicksQuery,
  response: {
    200: ClicksResult,
    ...workspaceCallErrors(),
    404: errorResponse(404, {
      examples: LINK_NOT_FOUND_EXAMPLES,
      description: "E_NOT_FOUND: a workspaceId that is not the caller's, or a link not among the caller's.",
    }),
    422: errorResponse(422, { examples: QUERY_EXAMPLES }),
  },
};

const TOP_SUBJECTS: Record<TopDimension, string> = {
  browsers: 'Browsers (`meta.version`: the most clicked major version)',
  'device-types': 'Device types (desktop, mobile, tablet, …)',
  'short-links': 'Short links, labelled by short URL',
  bots: 'Bots: the crawlers and link-preview fetchers that visited, by name (their visits are counted here only)',
  'device-vendors': 'Device vendors',
  'operating-systems': 'Operating systems',
  countries: 'Countries, as ISO 3166-1 alpha-2 codes',
  referers: "Referring sites, by the Referer's host",
  languages: 'Languages: the first of Accept-Language, lower-case',
  cities: 'Cities: always empty for now (there is no city database yet)',
  rules:
    "Brief's addition: what one link's visits took of its redirect rules (`link` is required). Labels: `rules.N` (rule N's url, " +
    "0-based as in the link's `rules`), `rules.N.split.M` (target M of rule N's A/B split) or `url` (no rule matched: the " +
    "link's own url); `meta.url` is the url the label names in the link's rules as they are now, absent when it names none " +
    'any more (the rules were edited since). Visits made while the link had no rules, and visits of which nothing of the ' +
    'visitor is recorded (`ANALYTICS=minimal`, `DNT: 1`), are left out',
};

const topSchema = (dimension: TopDimension) => ({
  summary: `Top ${dimension}`,
  description:
    `${TOP_SUBJECTS[dimension]}, with their clicks in the range of the time zone on ` +
    (dimension === 'rules' ? 'the link: ' : "the workspace's links (or one link's, with `link`): ") +
    'most clicked first, then by label, at most `limit` (10). Clicks whose value is not known are left out. ' +
    (dimension === 'bots' ? '' : 'Visits by crawlers and link-preview fetchers are not counted. ') +
    'Events are written every CLICK_FLUSH_MS, so the last second or so may not be counted yet.',
  tags: ['v3 analytics'],
  security: REQUIRED_AUTH,
  querystring: TopQuery,
  response: {
    ...clicksSchema.response,
    200: dimension === 'rules' ? TopRulesResult : TopResult,
    422: errorResponse(422, {
      examples: {
        ...QUERY_EXAMPLES,
        ...(dimension === 'rules' && { linkRequired: ANALYTICS_ERRORS.linkRequired }),
        limit: rangeExample('A number out of range', 'limit', TopQuery.properties.limit),
      },
    }),
  },
});

/** The v3 analytics calls (docs/api/v3.md, "Analytics"), under /v3; all need a token. */
export function analyticsRoutes(analytics: AnalyticsService, callerIn: WorkspaceCaller) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/shorten/analytics/clicks',
      { serializerCompiler: documentedOnly, config: { limit: 'read', scope: 'analytics:read' }, schema: clicksSchema },
      async (request) => {
        const { workspaceId, ...query } = request.query;
        const caller = await callerIn(request, workspaceId, 'account');
        return analytics.clicks(caller, query);
      },
    );
    // One route per dimension. Any other name under /v3/shorten/analytics is not a route (404 E_ROUTE_NOT_FOUND),
    // rather than a lookup of the link `analytics/{name}` by the link view's route (no short domain is named `analytics`).
    app.get('/shorten/analytics/:name', { schema: { hide: true }, config: { limit: 'read', scope: 'analytics:read' } }, (_request, reply) =>
      reply.callNotFound(),
    );
    for (const dimension of Object.keys(TOP_DIMENSIONS) as TopDimension[]) {
      app.get(
        `/shorten/analytics/top-${dimension}`,
        { serializerCompiler: documentedOnly, config: { limit: 'read', scope: 'analytics:read' }, schema: topSchema(dimension) },
        async (request) => {
          const { workspaceId, ...query } = request.query;
          const caller = await callerIn(request, workspaceId, 'account');
          return analytics.top(caller, dimension, query);
        },
      );
    }
  };
}
