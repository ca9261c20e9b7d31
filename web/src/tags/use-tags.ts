import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type Tag } from '../api';
import { replaceSearch, useSearch } from '../router';
import { filterOfSearch, searchWithFilter, type TagFilter } from './tag-filter';

/**
 * The workspace's tags (GET /v3/tags), loaded for the page and again when `reloads` changes (after an edit may have
 * made one): [] until they come, and when they cannot be read.
 */
export function useKnownTags(reloads = 0): readonly Tag[] {
  const [tags, setTags] = useState<readonly Tag[]>([]);
  useEffect(() => {
    let current = true;
    api.tags().then(
      (answer) => current && setTags(answer),
      () => current && setTags([]),
    );
    return () => {
      current = false;
    };
  }, [reloads]);
  return tags;
}

/** Each tag's colour by its name in lower case (links carry names only; colours are the workspace's). */
export function useTagColors(tags: readonly Tag[]): ReadonlyMap<string, string | null> {
  return useMemo(() => new Map(tags.map((tag) => [tag.name.toLowerCase(), tag.color])), [tags]);
}

/** A page's tag filter, kept in its URL query (`?tags=a,b&tagMode=all&excludeTags=c`) and changed there. */
export function useTagFilter(): [TagFilter, (filter: TagFilter) => void] {
  const search = useSearch();
  const filter = useMemo(() => filterOfSearch(search), [search]);
  return [filter, (next) => replaceSearch(searchWithFilter(location.search, next))];
}
