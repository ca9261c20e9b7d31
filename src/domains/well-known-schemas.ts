// The app-link files a domain serves under `/.well-known/` (decision 0042) as the v3 calls show them: their names,
// their bound, and the routes' schemas. Only TypeBox here: the web app's typecheck reads this file.
import { type Static, Type } from '@sinclair/typebox';

/** The files a domain may carry, and the JSON each must be: Apple's is an object, Android's a list of statements. */
export const WELL_KNOWN_KINDS = { 'apple-app-site-association': 'object', 'assetlinks.json': 'array' } as const;
export type WellKnownName = keyof typeof WELL_KNOWN_KINDS;
export const WELL_KNOWN_NAMES = Object.keys(WELL_KNOWN_KINDS) as WellKnownName[];

/** At most 64 KB a file, counted in UTF-8 bytes: Apple's limit for apple-app-site-association is 128 KB, and no real one comes near. */
export const WELL_KNOWN_MAX_BYTES = 65_536;

export const WellKnownPath = Type.Object({
  domain: Type.String({ description: "host[:port] of one of the caller's private domains." }),
  name: Type.String({
    description: 'The file: `apple-app-site-association` or `assetlinks.json` (any other name is 404).',
    examples: ['apple-app-site-association'],
  }),
});

export const WellKnownListPath = Type.Pick(WellKnownPath, ['domain']);

export const WellKnownEntry = Type.Object(
  {
    name: Type.String({ description: 'The file’s name, as served under `/.well-known/`.' }),
    bytes: Type.Integer({ description: 'Its size in bytes.' }),
    updatedAt: Type.String({ format: 'date-time', description: 'When it was last uploaded.' }),
  },
  { additionalProperties: false, examples: [{ name: 'assetlinks.json', bytes: 312, updatedAt: '2026-11-28T09:00:00.000Z' }] },
);
export type WellKnownEntry = Static<typeof WellKnownEntry>;

export const WellKnownList = Type.Array(WellKnownEntry, { description: 'The files the domain carries, by name; empty when none.' });

/** Validates nothing (the route checks the text itself, as it must keep it byte for byte): the API document's word only. */
export const WellKnownBody = Type.Unsafe<unknown>({
  description:
    'The file, as it is to be served: JSON, at most 65,536 bytes; for `assetlinks.json` an array (Digital Asset Links ' +
    'statements), for `apple-app-site-association` an object. Stored and served byte for byte. Any content type is taken.',
  examples: [
    [
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: { namespace: 'android_app', package_name: 'com.example.app', sha256_cert_fingerprints: ['14:6D:E9:83:…'] },
      },
    ],
    { applinks: { details: [{ appIDs: ['ABCDE12345.com.example.app'], components: [{ '/': '/*' }] }] } },
  ],
});
