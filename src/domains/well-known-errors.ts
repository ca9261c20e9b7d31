// The errors of a domain's `/.well-known/` files (decision 0042), declared once (decision 0037): the well-known
// service throws them, the routes show them in the API document. A file's problems name the file as the field.
import { BriefError, declareError } from '../errors.js';
import { WELL_KNOWN_MAX_BYTES, WELL_KNOWN_NAMES } from './well-known-schemas.js';

const KIND_WORDS = {
  array: 'a JSON array (a list of Digital Asset Links statements)',
  object: 'a JSON object (with applinks, webcredentials or appclips)',
} as const;

export const WELL_KNOWN_ERRORS = {
  unknownName: declareError('Not a file a domain can carry', () =>
    BriefError.notFound(`No such file: a domain carries only ${WELL_KNOWN_NAMES.join(' and ')}`),
  ),
  noFile: declareError(
    'The domain has no such file',
    (domain: string, name: string) => BriefError.notFound(`${domain} has no ${name}`),
    'go.example.com',
    'assetlinks.json',
  ),
  tooLarge: declareError(
    'Over 64 KB',
    (name: string, bytes: number) =>
      BriefError.invalid(name, 'maxBytes', `The ${name} file must be at most ${WELL_KNOWN_MAX_BYTES} bytes (64 KB); it is ${bytes} bytes`),
    'assetlinks.json',
    65_537,
  ),
  notJson: declareError(
    'Not JSON',
    (name: string, why: string) => BriefError.invalid(name, 'json', `The ${name} file must be JSON: ${why}`),
    'apple-app-site-association',
    'Unexpected end of JSON input',
  ),
  wrongKind: declareError(
    'JSON of the other kind',
    (name: string, kind: keyof typeof KIND_WORDS) => BriefError.invalid(name, kind, `The ${name} file must be ${KIND_WORDS[kind]}`),
    'assetlinks.json',
    'array',
  ),
};
