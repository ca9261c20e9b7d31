import { TagChips } from './tag-chips';
import { useKnownTags, useTagColors } from './use-tags';

/** A link's tags among the facts of its page (a `<dl>`'s term and its chips, each a link to My links filtered by it); nothing without tags. */
export function LinkTags(props: { tags: readonly string[] }) {
  return props.tags.length === 0 ? null : <ColoredTags tags={props.tags} />;
}

function ColoredTags(props: { tags: readonly string[] }) {
  const colors = useTagColors(useKnownTags());
  return (
    <>
      <dt>Tags</dt>
      <dd>
        <TagChips tags={props.tags} colors={colors} />
      </dd>
    </>
  );
}
