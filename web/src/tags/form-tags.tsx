import { useState } from 'preact/hooks';
import { TagEditor } from './tag-editor';
import { useKnownTags } from './use-tags';

/**
 * A form's "Tags" (shorten, edit): a TagEditor starting from `initial`, suggesting the workspace's tags. The form
 * reads what it holds on submit with tagsOfForm(form, name), so the page keeps its uncontrolled fields.
 */
export function FormTags(props: { id: string; name: string; initial: readonly string[]; error?: string | undefined }) {
  const [tags, setTags] = useState<readonly string[]>(props.initial);
  const known = useKnownTags();
  return <TagEditor id={props.id} name={props.name} label="Tags (optional)" error={props.error} tags={tags} onChange={setTags} known={known} />;
}
