// The v3 domain routes' data schemas (docs/api/v3.md, "Domains"):
// validation, types and, through v3-routes.ts, the API document.
import { type Static, Type } from '@sinclair/typebox';
import { CODE_LENGTH_MAX, CODE_LENGTH_MIN } from './code-lengths.js';

export const DomainsQuery = Type.Object({
  workspaceId: Type.Optional(
    Type.String({
      description: "The caller's workspace id; absent, empty or `undefined` mean the caller's own. Another account's is not found (404).",
    }),
  ),
});

export const V3Domain = Type.Object(
  {
    domain: Type.String({ description: 'host[:port] of the short domain.' }),
    randomCodeLength: Type.Integer({ description: "Length of the codes generated on it: the domain's own, else CODE_LENGTH." }),
    isPrimary: Type.Boolean({ description: 'The default domain (BASE_URL), where links go when no domain is named.' }),
    isGlobal: Type.Boolean({ description: 'A public domain, usable by everybody; false for the caller’s private ones.' }),
    verified: Type.Boolean({
      description:
        "Brief's addition. Whether the domain serves its links and redirects: always for public domains; for a private one " +
        'once its control is proven by its DNS TXT record (`POST /v3/shorten/domains/{domain}/verify`) or an administrator ' +
        'verified it. Links can be made on an unverified domain by its owner; they answer 404 until it is verified.',
    }),
    verification: Type.Optional(
      Type.Object(
        {
          type: Type.Literal('TXT', { description: 'The DNS record type.' }),
          record: Type.String({ description: 'The name to publish it at: `_brief-verify.` and the domain’s host (no port).' }),
          value: Type.String({ description: 'The value the TXT record must hold; made for this claim.' }),
        },
        {
          additionalProperties: false,
          description: "Brief's addition, on an unverified private domain only: the DNS record that proves its owner controls it.",
        },
      ),
    ),
    homePageRedirectUrl: Type.Optional(
      Type.String({ description: "Brief's addition, on a private domain whose bare address (`/`) redirects: where to (PATCH sets it)." }),
    ),
    notFoundPageRedirectUrl: Type.Optional(
      Type.String({ description: "Brief's addition, on a private domain whose unknown keys redirect instead of the 404 page: where to." }),
    ),
  },
  { additionalProperties: false },
);

export type V3Domain = Static<typeof V3Domain>;

export const V3DomainList = Type.Array(V3Domain, {
  description: "The public domains, then the caller's private ones, each by name.",
  examples: [
    [
      { domain: 'localhost:3000', randomCodeLength: 7, isPrimary: true, isGlobal: true, verified: true },
      { domain: 'go.example.com', randomCodeLength: 5, isPrimary: false, isGlobal: false, verified: true },
      {
        domain: 'links.example.org',
        randomCodeLength: 7,
        isPrimary: false,
        isGlobal: false,
        verified: false,
        verification: { type: 'TXT', record: '_brief-verify.links.example.org', value: 'brief-verify=3q2-7wXkV0b9yUe1cZfN4aLh' },
      },
    ],
  ],
});

const codeLength = (description: string) => ({ minimum: CODE_LENGTH_MIN, maximum: CODE_LENGTH_MAX, description });

export const AddDomainBody = Type.Object({
  domain: Type.String({
    description: 'host[:port] of a domain whose DNS points at this server; `https://` unless a scheme (`http://`) is given.',
    examples: ['go.example.com'],
  }),
  shortCodeLength: Type.Optional(Type.Integer(codeLength('Length of the codes generated on the domain; default CODE_LENGTH.'))),
});
export type AddDomainBody = Static<typeof AddDomainBody>;

export const DomainPath = Type.Object({
  domain: Type.String({ description: "host[:port] of one of the caller's private domains." }),
});

// One keyword pair (`type: [x, 'null']`) rather than a union: its errors name the bound that failed.
const nullable = <T>(type: 'integer' | 'string', options: object) => Type.Optional(Type.Unsafe<T | null>({ type: [type, 'null'], ...options }));

export const DomainSettingsBody = Type.Object(
  {
    randomCodeLength: nullable<number>('integer', codeLength('Length of the codes generated on the domain from now on; null: CODE_LENGTH.')),
    homePageRedirectUrl: nullable<string>('string', {
      description:
        'Where the bare domain (`/`) redirects (302): an absolute http(s) URL, not on a short domain or address of this server; null or empty: nowhere.',
    }),
    notFoundPageRedirectUrl: nullable<string>('string', {
      description: 'Where an unknown key on the domain redirects (302) instead of the 404 page; null or empty: nowhere.',
    }),
  },
  { description: 'Only the fields given change.' },
);
export type DomainSettingsBody = Static<typeof DomainSettingsBody>;

export const DomainSuccess = Type.Object({ success: Type.Literal(true) }, { examples: [{ success: true }] });
