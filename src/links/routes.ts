import type { FastifyInstance } from 'fastify';
import { BriefError } from '../errors.js';
import type { Authenticate } from '../http/auth.js';
import type { LinkService, ShortenInput } from './link-service.js';

const shortenSchema = {
  querystring: {
    type: 'object',
    required: ['url'],
    properties: {
      url: { type: 'string', description: 'The long URL to shorten (http or https).' },
      title: { type: 'string', description: 'Title of the link.' },
      domain: { type: 'string', description: 'Short domain to use; defaults to the default public domain.' },
      slug: { type: 'string', description: 'Custom alias: letters, digits, "_" and "-".' },
    },
  },
} as const;

export function linkRoutes(links: LinkService, authenticate: Authenticate) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: ShortenInput }>('/shorten', { schema: shortenSchema }, async (request) => {
      const caller = await authenticate(request);
      return links.shorten(caller, request.query);
    });

    // `*` so that an unencoded `domain/key` reaches us as well as one encoded path segment.
    app.delete<{ Params: { '*': string } }>('/links/*', async (request) => {
      const caller = await authenticate(request);
      if (caller.anonymous) throw BriefError.unauthorized('Deleting a link needs a bearer token');
      await links.delete(caller, request.params['*']);
      return { success: true };
    });
  };
}
