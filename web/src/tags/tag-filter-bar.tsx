import type { Tag } from '../api';
import { Field } from '../components/field';
import { TagEditor } from './tag-editor';
import { isFiltering, NO_FILTER, type TagFilter } from './tag-filter';
import './tags.css';

/**
 * A page's filter by tags (My links, Overview): tags to match (any or all of them) and tags to leave out, picked
 * among the workspace's. Nothing is drawn for a workspace without tags and no filter (from a shared address) to show.
 */
export function TagFilterBar(props: { id: string; known: readonly Tag[]; filter: TagFilter; onChange: (filter: TagFilter) => void }) {
  const { filter, onChange } = props;
  if (props.known.length === 0 && !isFiltering(filter)) return null;
  return (
    <fieldset class="tag-filter">
      <legend>Filter by tags</legend>
      <div class="row">
        <TagEditor
          id={`${props.id}-tags`}
          label="With tags"
          hint="Links with these tags."
          known={props.known}
          onlyKnown
          tags={filter.tags}
          onChange={(tags) => onChange({ ...filter, tags })}
        />
        <Field id={`${props.id}-mode`} label="Match">
          {(aria) => (
            <select
              {...aria}
              value={filter.mode}
              onChange={(event) => onChange({ ...filter, mode: (event.currentTarget as HTMLSelectElement).value === 'all' ? 'all' : 'any' })}
            >
              <option value="any">Any of them</option>
              <option value="all">All of them</option>
            </select>
          )}
        </Field>
        <TagEditor
          id={`${props.id}-exclude`}
          label="Without tags"
          hint="Leaves out links with any of these."
          known={props.known}
          onlyKnown
          tags={filter.exclude}
          onChange={(exclude) => onChange({ ...filter, exclude })}
        />
      </div>
      {isFiltering(filter) && (
        <button type="button" class="secondary" onClick={() => onChange(NO_FILTER)}>
          Clear the tag filter
        </button>
      )}
    </fieldset>
  );
}
