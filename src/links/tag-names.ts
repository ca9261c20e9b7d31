// A link's tags as the API takes them (decision 0040): the checks of a list of names and of a colour, and their
// errors, declared here rather than in link-errors.ts: the web app's typecheck reads this file (through
// v3-schemas.ts), so it imports nothing but errors.ts.
import { BriefError, declareError, itemCount } from '../errors.js';

export const MAX_TAGS = 20;
export const TAG_NAME_MAX_LENGTH = 50;

// C0 and C1 control characters, DEL among them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what the rule refuses
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const COLOR = /^#[0-9a-fA-F]{6}$/;

/** What is wrong with a name (trimmed already), in a few words; undefined when it is a tag's name. */
function nameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if ([...name].length > TAG_NAME_MAX_LENGTH) return `it is longer than ${TAG_NAME_MAX_LENGTH} characters`;
  if (name.includes(',')) return 'it has a comma';
  if (CONTROL.test(name)) return 'it has a control character';
  return undefined;
}

/** One tag's name (a path's, or a rename's `name`): trimmed, 1 to 50 characters, no comma, no control character. */
export function checkTagName(value: string, field = 'name'): string {
  const name = value.trim();
  const problem = nameProblem(name);
  if (problem !== undefined) throw TAG_ERRORS.badName(field, [...name].slice(0, TAG_NAME_MAX_LENGTH).join(''), problem);
  return name;
}

/** A link's tags: at most 20 names, each checked and trimmed, none twice whatever its case; in the order given. */
export function checkTags(values: readonly string[], field = 'tags'): string[] {
  if (values.length > MAX_TAGS) throw BriefError.field(itemCount(field, 'maxItems', MAX_TAGS));
  const seen = new Set<string>();
  return values.map((value) => {
    const name = checkTagName(value, field);
    if (seen.has(name.toLowerCase())) throw TAG_ERRORS.twice(field, name);
    seen.add(name.toLowerCase());
    return name;
  });
}

/** A tag's colour: `#rrggbb`, kept lower-case; null: none. */
export function checkTagColor(value: string | null, field = 'color'): string | null {
  if (value === null) return null;
  if (!COLOR.test(value)) throw TAG_ERRORS.badColor(field);
  return value.toLowerCase();
}

/** Which links to keep by their tags (storage's TagFilter): names in any case. */
export interface TagFilterInput {
  readonly tags: readonly string[];
  readonly mode: 'any' | 'all';
  readonly exclude: readonly string[];
}

/** Names in a query parameter: comma-separated, each trimmed and checked; empty pieces (`a,,b`, ``) name nothing. */
function namesIn(text: string | undefined, field: string): string[] {
  if (text === undefined) return [];
  return text
    .split(',')
    .filter((piece) => piece.trim() !== '')
    .map((piece) => checkTagName(piece, field));
}

/**
 * `tags`, `tagMode` and `excludeTags` of a list or an analytics call: undefined when they filter nothing. A name no tag
 * has is no error: it matches nothing.
 */
export function tagFilterOf(query: { tags?: string; tagMode?: 'any' | 'all'; excludeTags?: string }): TagFilterInput | undefined {
  const tags = namesIn(query.tags, 'tags');
  const exclude = namesIn(query.excludeTags, 'excludeTags');
  if (tags.length === 0 && exclude.length === 0) return undefined;
  return { tags, mode: query.tagMode ?? 'any', exclude };
}

/** The errors of tags, declared once (decision 0037). */
export const TAG_ERRORS = {
  badName: declareError(
    'A tag name that breaks the rules',
    (field: string, name: string, problem: string) =>
      BriefError.invalid(
        field,
        'tagName',
        `The ${field} field must hold tag names of 1 to ${TAG_NAME_MAX_LENGTH} characters without commas or control characters: "${name}" is not one (${problem})`,
      ),
    'tags',
    'a,b',
    'it has a comma',
  ),
  twice: declareError(
    'The same tag twice',
    (field: string, name: string) =>
      BriefError.invalid(field, 'distinct', `The ${field} field names the tag "${name}" twice (tag names ignore case)`),
    'tags',
    'Launch',
  ),
  badColor: declareError(
    'A colour that is not #rrggbb',
    (field: string) => BriefError.invalid(field, 'color', `The ${field} field must be a colour written #rrggbb, or null`),
    'color',
  ),
  notFound: declareError('Unknown tag, or a tag of another workspace', () => BriefError.notFound('Tag not found')),
  nameTaken: declareError('Another tag has the name', () => BriefError.conflict('Another tag already has that name')),
};
