// The domain routes' data schemas, defined once: validation (Ajv), the types of the handler and
// of the domain service (plain TypeBox data, no HTTP) and, through routes.ts, the API document.
import { type Static, Type } from '@sinclair/typebox';
import { withDefaults } from '../query-defaults.js';

const VISIBILITIES = ['public', 'private'] as const;
/** Public domains serve everyone; a private one is its account's. */
export type Visibility = (typeof VISIBILITIES)[number];

// Every parameter has a default: optional for a client, always there for the handler (withDefaults).
export const ListDomainsQuery = withDefaults(
  Type.Object({
    page: Type.Integer({ minimum: 1, default: 1, description: 'Page number; a page past the end has empty `data`.' }),
    perPage: Type.Integer({ minimum: 1, maximum: 500, default: 20, description: 'Domains per page.' }),
    // `type` and `enum` as one keyword pair (TypeBox's Enum would drop `type`), so a repeated
    // parameter is still "must be a string" rather than "is invalid".
    visibility: Type.Unsafe<'all' | Visibility>({
      type: 'string',
      enum: ['all', ...VISIBILITIES],
      default: 'all',
      description: "Which domains: public ones, the caller's private ones, or both.",
    }),
  }),
);
export type ListDomainsQuery = Static<typeof ListDomainsQuery>;

export const DomainPageSchema = Type.Object(
  {
    meta: Type.Object(
      {
        total: Type.Integer({ description: 'Domains matching `visibility`.' }),
        perPage: Type.Integer(),
        currentPage: Type.Integer(),
        lastPage: Type.Integer({ description: 'max(1, ceil(total / perPage))' }),
        firstPage: Type.Integer({ const: 1 }),
      },
      { additionalProperties: false },
    ),
    data: Type.Array(
      Type.Object(
        {
          domainName: Type.String(),
          visibility: Type.Unsafe<Visibility>({ type: 'string', enum: [...VISIBILITIES] }),
        },
        { additionalProperties: false },
      ),
      { description: "Public domains first, then the caller's private ones, each by name." },
    ),
  },
  {
    additionalProperties: false,
    description: 'One page of the short domains the caller may use.',
    examples: [
      {
        meta: { total: 2, perPage: 20, currentPage: 1, lastPage: 1, firstPage: 1 },
        data: [
          { domainName: 'localhost:3000', visibility: 'public' },
          { domainName: 'go.example.com', visibility: 'private' },
        ],
      },
    ],
  },
);
export type DomainPage = Static<typeof DomainPageSchema>;
