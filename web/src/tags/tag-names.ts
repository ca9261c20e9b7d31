// The tag editor's rules (decision 0040's, as the server keeps them in src/links/tag-names.ts): what a typed name
// adds to a link's tags, and which of the workspace's tags to suggest for it. Pure, so the unit tests read it whole.
import type { MAX_TAGS as SERVER_MAX_TAGS, TAG_NAME_MAX_LENGTH as SERVER_NAME_MAX_LENGTH } from '../../../src/links/tag-names.js';

// The server's limits, written again as values (the app imports the server's modules for types only): typed by the
// server's constants, so a change of either there fails the web's typecheck until it is followed here.
export const MAX_TAGS: typeof SERVER_MAX_TAGS = 20;
export const TAG_NAME_MAX_LENGTH: typeof SERVER_NAME_MAX_LENGTH = 50;

/** How many suggestions the editor lists at once. */
export const MAX_SUGGESTIONS = 8;

const key = (name: string) => name.toLowerCase();

/** Whether `names` has `name`, whatever its case (a workspace's tag names ignore case). */
export function hasName(names: readonly string[], name: string): boolean {
  return names.some((other) => key(other) === key(name));
}

/** The names in typed text: split at commas (no name has one), trimmed, empty pieces dropped. */
export function typedNames(text: string): string[] {
  return text
    .split(',')
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '');
}

/**
 * `tags` with the names typed in `text` added after them: each in the spelling of the workspace's tag of that name
 * when there is one (`known`), a name already there (any case) not added twice. All or nothing: a name too long, or
 * more than MAX_TAGS in all, adds none and says why, in words for the field. The server checks the rest (control
 * characters) and its 422 is shown at the field too.
 */
export function addNames(tags: readonly string[], text: string, known: readonly string[]): { tags: string[]; problem?: string } {
  const added = [...tags];
  for (const typed of typedNames(text)) {
    if ([...typed].length > TAG_NAME_MAX_LENGTH) {
      return {
        tags: [...tags],
        problem: `A tag name has at most ${TAG_NAME_MAX_LENGTH} characters: “${[...typed].slice(0, 20).join('')}…” has ${[...typed].length}.`,
      };
    }
    if (hasName(added, typed)) continue;
    added.push(known.find((name) => key(name) === key(typed)) ?? typed);
  }
  if (added.length > MAX_TAGS) return { tags: [...tags], problem: `A link has at most ${MAX_TAGS} tags: remove one to add another.` };
  return { tags: added };
}

/**
 * The workspace's tags to offer for typed text: those whose name starts with it first, then those that have it
 * elsewhere, ignoring case, each group in the workspace's order; none already chosen; all of them for empty text.
 */
export function suggestions(known: readonly string[], text: string, chosen: readonly string[]): string[] {
  const typed = key(text.trim());
  const open = known.filter((name) => !hasName(chosen, name));
  const starting = open.filter((name) => key(name).startsWith(typed));
  const containing = open.filter((name) => !key(name).startsWith(typed) && key(name).includes(typed));
  return [...starting, ...containing].slice(0, MAX_SUGGESTIONS);
}

/**
 * A form's tags on submit (a TagEditor named `name`): its chips, and a name still typed in its box added after them;
 * or the reason the typed name cannot be added, to show at the field.
 */
export function tagsOfForm(form: FormData, name: string): { tags: string[]; problem?: string } {
  let chips: string[] = [];
  try {
    const parsed: unknown = JSON.parse(String(form.get(name) ?? '[]'));
    if (Array.isArray(parsed)) chips = parsed.filter((tag): tag is string => typeof tag === 'string');
  } catch {
    chips = [];
  }
  return addNames(chips, String(form.get(`${name}Typed`) ?? ''), []);
}

/** Whether two lists name the same tags, whatever their order and case (the server keeps the workspace's spelling). */
export function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name) => hasName(b, name));
}
