// The link routes' data schemas, defined once: Fastify validates requests with them (Ajv,
// whose errors http/error-handler.ts turns into the v2 messages), the service and the
// handlers take their types from them, and routes.ts puts them into the API document.
import { type Static, Type } from '@sinclair/typebox';

// Validation keywords only where they were before: what Ajv checks, and so every message,
// is unchanged. Lengths, URL form and slug characters are checked by LinkService, whose
// messages the document lists under 422.
export const ShortenQuery = Type.Object({
  url: Type.String({
    description:
      'The long URL to shorten: absolute http or https, at most 8,192 characters. It is normalized (WHATWG URL parser); ' +
      "a URL on one of Brief's own short domains or addresses (however its host is written) is refused, and so is one with a user name or password unless ALLOW_URL_CREDENTIALS is on.",
    examples: ['https://example.com/some/long/page'],
  }),
  title: Type.Optional(Type.String({ description: 'Title of the link, at most 512 characters.', examples: ['Launch'] })),
  domain: Type.Optional(
    Type.String({
      description: "Short domain to use: a public one or one of the caller's private ones; defaults to the default public domain.",
      examples: ['go.example.com'],
    }),
  ),
  slug: Type.Optional(
    Type.String({
      description:
        'Custom alias: 1–64 of A-Z a-z 0-9 _ -, case-sensitive, unique per domain. Words Brief keeps for its own routes ' +
        '(v2, api, docs, …) are refused. Empty counts as not given.',
      examples: ['launch'],
    }),
  ),
});

/** What LinkService.shorten takes: `url` is required, as the schema requires it. */
export type ShortenInput = Static<typeof ShortenQuery>;

export const LinkViewSchema = Type.Object(
  {
    code: Type.String({ description: 'Generated code, unique across all domains.' }),
    url: Type.String({ description: 'The normalized long URL.' }),
    status: Type.Unsafe<'public' | 'blocked'>({ type: 'string', enum: ['public', 'blocked'], description: '`blocked` after `brief link block`.' }),
    shortened: Type.String({ description: '`urlPrefix/slug`, or `urlPrefix/code` without a slug.' }),
    hostname: Type.String({ description: 'Host name of the long URL.' }),
    tally: Type.Integer({ description: "The link's numeric sequence id." }),
    urlPrefix: Type.String(),
    domain: Type.String(),
    slug: Type.Optional(Type.String({ description: 'Present when the link has a slug.' })),
    title: Type.Optional(Type.String({ description: 'Present when the link has a title.' })),
  },
  {
    additionalProperties: false,
    description: 'The link: new, or found again (same URL without a slug, or a repeated request with a slug).',
    examples: [
      {
        code: 'x4Tq9Zb',
        url: 'https://example.com/launch',
        status: 'public',
        shortened: 'https://go.example.com/launch',
        hostname: 'example.com',
        tally: 42,
        urlPrefix: 'https://go.example.com',
        domain: 'go.example.com',
        slug: 'launch',
        title: 'Launch',
      },
    ],
  },
);

/**
 * Fastify's wildcard param is `*`; the document names it `link` (see swaggerTransform in
 * links/routes.ts). Any string passes, as before: LinkService answers 404 for what it cannot read.
 */
export const DeleteParams = Type.Object({ '*': Type.String() });

export const LinkParamDoc = Type.Object({
  link: Type.String({
    description:
      'The code, the slug (on the default domain), `domain/code-or-slug`, or the full short URL; each may also be percent-encoded as one path segment.',
    examples: ['launch', 'go.example.com%2Flaunch'],
  }),
});
