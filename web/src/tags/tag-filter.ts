// A list's or the Overview's filter by tags, as the page's URL query holds it (so a filtered view is shared and
// reloaded as it is) and as the API takes it: the same names, `tags`, `tagMode` and `excludeTags` (decision 0040).
import type { ListV3Query } from '../../../src/links/v3-schemas.js';
import { hasName, typedNames } from './tag-names.js';

export interface TagFilter {
  readonly tags: readonly string[];
  readonly mode: 'any' | 'all';
  readonly exclude: readonly string[];
}

export const NO_FILTER: TagFilter = { tags: [], mode: 'any', exclude: [] };

/** What the API's list and analytics calls take of a filter: the parameters it sets, none when it filters nothing. */
export type TagFilterQuery = Partial<Pick<ListV3Query, 'tags' | 'tagMode' | 'excludeTags'>>;

/** Whether the filter keeps some links out. */
export const isFiltering = (filter: TagFilter): boolean => filter.tags.length > 0 || filter.exclude.length > 0;

/** Names once each (the first spelling kept). */
function distinct(names: readonly string[]): string[] {
  return names.filter((name, index) => !hasName(names.slice(0, index), name));
}

/** The filter in a URL query (`location.search`); what it does not name is no filter. */
export function filterOfSearch(search: string): TagFilter {
  const query = new URLSearchParams(search);
  return {
    tags: distinct(typedNames(query.get('tags') ?? '')),
    mode: query.get('tagMode') === 'all' ? 'all' : 'any',
    exclude: distinct(typedNames(query.get('excludeTags') ?? '')),
  };
}

/**
 * `search` (a URL query) with the filter written in it and its other parameters kept: names joined by commas, each
 * escaped but the commas between them left as they are, so the address reads `?tags=launch,news`; `tagMode` only
 * when it is `all` and there are tags to match. '' for no query at all.
 */
export function searchWithFilter(search: string, filter: TagFilter): string {
  const query = new URLSearchParams(search);
  for (const name of ['tags', 'tagMode', 'excludeTags']) query.delete(name);
  const parts = query.toString() === '' ? [] : [query.toString()];
  const names = (list: readonly string[]) => list.map(encodeURIComponent).join(',');
  if (filter.tags.length > 0) parts.push(`tags=${names(filter.tags)}`);
  if (filter.tags.length > 0 && filter.mode === 'all') parts.push('tagMode=all');
  if (filter.exclude.length > 0) parts.push(`excludeTags=${names(filter.exclude)}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** The filter as the API's query parameters. */
export function filterQuery(filter: TagFilter): TagFilterQuery {
  return {
    ...(filter.tags.length > 0 && { tags: filter.tags.join(','), tagMode: filter.mode }),
    ...(filter.exclude.length > 0 && { excludeTags: filter.exclude.join(',') }),
  };
}

/** The filter in words, for a caption or an empty list: “tagged launch or news, not tagged archive”. */
export function describeFilter(filter: TagFilter): string {
  const quoted = (names: readonly string[], word: string) => names.map((name) => `“${name}”`).join(` ${word} `);
  const parts = [
    ...(filter.tags.length > 0 ? [`tagged ${quoted(filter.tags, filter.mode === 'all' ? 'and' : 'or')}`] : []),
    ...(filter.exclude.length > 0 ? [`not tagged ${quoted(filter.exclude, 'or')}`] : []),
  ];
  return parts.join(', ');
}
