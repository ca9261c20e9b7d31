// The errors of links, declared once (decision 0037): the link service, its checks (codes.ts, link-fields.ts,
// bulk-items.ts) and its routes throw them; the routes show them in the API document. A field that breaks a
// rule many fields share (missing, too long, a bad format) is worded by errors.ts instead.
import { ACCOUNT_ERRORS } from '../accounts/account-errors.js';
import { DOMAIN_ERRORS } from '../domains/domain-errors.js';
import { BriefError, badFormat, declareError, type FieldError, required, wrongType } from '../errors.js';
import { URL_ERRORS } from '../net/url-errors.js';
import { EXPIRY_ERRORS } from './link-fields.js';

/**
 * A field error of bulk item `index`, named as the body's path to it: `2.url`, "The 2.url field
 * must be a valid URL" (the item itself, when it is not an object: `2`).
 */
function inItem(index: number, error: FieldError): FieldError {
  if (error.field === 'item') return { field: String(index), rule: error.rule, message: `Item ${index} must be an object with a url` };
  const field = `${index}.${error.field}`;
  const named = error.message.replace(/^The (selected )?(\S+)/, (whole, selected: string | undefined, name: string) =>
    name === error.field ? `The ${selected ?? ''}${field}` : whole,
  );
  return { field, rule: error.rule, message: named === error.message ? `Item ${index}: ${error.message}` : named };
}

export const LINK_ERRORS = {
  notFound: declareError('Unknown link, or a link of another account', () => BriefError.notFound('Link not found')),
  /** `brief link …`: no live link by that reference, whoever owns it. */
  noLiveLink: (reference: string) => BriefError.notFound(`No live link "${reference}"`),
  deleteNeedsToken: declareError('No token: anonymous callers cannot delete', () => BriefError.unauthorized('Deleting a link needs a bearer token')),
  slugTaken: declareError('The slug is used on that domain', () => BriefError.invalid('slug', 'unique', 'The slug has already been taken')),
  slugFormat: declareError('A malformed slug', () => BriefError.field(badFormat('slug'))),
  slugReserved: () => BriefError.invalid('slug', 'reserved', 'The slug is reserved'),
  codeShapedSlug: (codeLength: number) =>
    BriefError.invalid(
      'slug',
      'codeShape',
      `The slug must not be exactly ${codeLength} letters and digits: that is the shape of the codes generated on its domain`,
    ),
  blockedHost: declareError(
    'A destination on a blocked host',
    (field: string) => BriefError.invalid(field, 'blocked', `The ${field} field points to a blocked host`),
    'rules.0.url',
  ),
  /** A rule with both a url and a split. */
  ruleUrlAndSplit: declareError(
    'A rule with a url and a split',
    (field: string) => BriefError.invalid(field, 'oneOf', `The ${field} field must not be given with a split: a rule has a url or a split`),
    'rules.0.url',
  ),
  /** A split whose weights do not share out the visitors whole. */
  splitWeights: declareError(
    'A split whose weights do not sum to 100',
    (field: string, sum: number) => BriefError.invalid(field, 'weights', `The ${field} field's weights must sum to 100, not ${sum}`),
    'rules.0.split',
    90,
  ),
  ruleWithoutUrl: declareError('A rule with neither a url nor a split', (field: string) => BriefError.field(required(field)), 'rules.1.url'),
  /** A condition its kind cannot take; `problem` says why, in a few words. */
  badCondition: declareError(
    'A condition its kind cannot take',
    (field: string, problem: string) => BriefError.invalid(field, 'condition', `The ${field} field is invalid: ${problem}`),
    'rules.2.conditions.0.key',
    'a query-any condition needs the parameter name as its key',
  ),
  /** A card's image that is not https (link-preview.ts): fetchers refuse others, and a card's page is served over https. */
  previewImageNotHttps: declareError('A card image that is not https', () =>
    BriefError.invalid('preview.image', 'https', 'The preview.image field must be an https URL'),
  ),
  /** A bulk body that is not an array as sent. */
  notArray: declareError('The body is not an array', () => BriefError.field(wrongType('request', 'array'))),
  /** A bulk item that is not an object (bulk-items.ts); badItems names it by its place in the body. */
  notAnItem: () => BriefError.invalid('item', 'object', 'Each item must be an object with a url'),
  /** The items of a bulk body that failed their checks, as one error naming each field by its path (`0.url`): nothing is made. */
  badItems: declareError(
    'An item with a bad field: nothing is made',
    (failed: ReadonlyArray<readonly [index: number, errors: readonly FieldError[]]>) => {
      const errors = failed.flatMap(([index, itemErrors]) => itemErrors.map((error) => inItem(index, error)));
      return new BriefError('E_VALIDATION_ERROR', errors[0]?.message ?? 'The items are invalid', errors);
    },
    [
      [1, URL_ERRORS.invalid.example().errors ?? []],
      [3, EXPIRY_ERRORS.impossibleDate.example().errors ?? []],
    ],
  ),
};

/** What making a link may answer 422 with (v2's shorten, v3's shorten): its checks, then what only the write finds. */
export const SHORTEN_EXAMPLES = {
  urlMissing: URL_ERRORS.missing,
  urlInvalid: URL_ERRORS.invalid,
  credentials: URL_ERRORS.credentials,
  slugFormat: LINK_ERRORS.slugFormat,
  slugTaken: LINK_ERRORS.slugTaken,
  domain: DOMAIN_ERRORS.notUsable,
};

/** A v3 call on a link (or the analytics of one) whose link, or workspace, is not the caller's. */
export const LINK_NOT_FOUND_EXAMPLES = { notFound: LINK_ERRORS.notFound, workspace: ACCOUNT_ERRORS.workspaceNotFound };
