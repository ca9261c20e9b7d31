import { AppLink } from '../components/app-link';
import { paths } from '../router';
import { searchWithFilter } from './tag-filter';
import './tags.css';

/** My links filtered by one tag (a chip's link). */
export const linksTagged = (name: string) => `${paths.links}${searchWithFilter('', { tags: [name], mode: 'any', exclude: [] })}`;

/**
 * One tag as a chip: its name, after a dot of its colour when it has one. The dot only decorates (the name says
 * everything), so the text keeps the page's own colours and their contrast whatever the colour chosen.
 */
export function TagLabel(props: { name: string; color: string | null | undefined }) {
  return (
    <>
      {props.color && <span class="tag-dot" aria-hidden="true" style={{ background: props.color }} />}
      <span class="tag-name">{props.name}</span>
    </>
  );
}

/**
 * A link's tags as chips. With `onPick` each is a button that filters by it (My links); otherwise each is a link to
 * My links filtered by it (a link's page).
 */
export function TagChips(props: { tags: readonly string[]; colors: ReadonlyMap<string, string | null>; onPick?: (name: string) => void }) {
  if (props.tags.length === 0) return null;
  return (
    <ul class="tag-chips" aria-label="Tags">
      {props.tags.map((name) => {
        const label = <TagLabel name={name} color={props.colors.get(name.toLowerCase())} />;
        return (
          <li key={name}>
            {props.onPick ? (
              <button type="button" class="tag-chip" aria-label={`Filter by tag ${name}`} onClick={() => props.onPick!(name)}>
                {label}
              </button>
            ) : (
              <AppLink href={linksTagged(name)} class="tag-chip" title={`My links tagged ${name}`}>
                {label}
              </AppLink>
            )}
          </li>
        );
      })}
    </ul>
  );
}
