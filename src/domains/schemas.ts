// The domain routes' data schemas, defined once: validation (Ajv), the handler's types and,
// through routes.ts, the API document.
import { type Static, Type } from '@sinclair/typebox';
import type { Visibility } from './domain-service.js';

export const ListDomainsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number; a page past the end has empty `data`.' })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20, description: 'Domains per page.' })),
  // `type` and `enum` as one keyword pair (TypeBox's Enum would drop `type`), so a repeated
  // parameter is still "must be a string" rather than "is invalid".
  visibility: Type.Optional(
    Type.Unsafe<'all' | Visibility>({
      type: 'string',
      enum: ['all', 'public', 'private'],
      default: 'all',
      description: "Which domains: public ones, the caller's private ones, or both.",
    }),
  ),
});

/** The query as the handler sees it: Ajv (useDefaults) has filled in every default. */
export type ListDomainsQuery = Required<Static<typeof ListDomainsQuery>>;

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
          visibility: Type.Unsafe<Visibility>({ type: 'string', enum: ['public', 'private'] }),
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
