import { useState } from 'preact/hooks';
import { ApiError, api, type Tag } from '../api';
import { AppLink } from '../components/app-link';
import { DialogActions } from '../components/dialog-actions';
import { Field } from '../components/field';
import { Modal } from '../components/modal';
import { SettingsList, useSettingsList } from '../components/settings-list';
import { linksTagged, TagLabel } from './tag-chips';
import './tags.css';

/** Settings → Tags: the workspace's tags with their live links; each renamed, recoloured or deleted (links keep their other tags). */
export function TagsSettings(props: { headingId: string }) {
  const list = useSettingsList(api.tags, 'Could not load the tags.');
  const [renaming, setRenaming] = useState<Tag | null>(null);

  const recolor = async (tag: Tag, color: string | null) => {
    list.setError(null);
    try {
      await api.editTag(tag.name, { color });
      list.changed(color === null ? `Removed the colour of “${tag.name}”.` : `Changed the colour of “${tag.name}”.`);
    } catch (e) {
      list.setError(e instanceof ApiError ? e.message : 'Could not change the colour.');
    }
  };

  return (
    <>
      <h2 id={props.headingId}>Tags</h2>
      <p class="muted">A tag comes with the first link that carries it. Renaming one renames it on every link; deleting it takes it off them.</p>
      <SettingsList
        list={list}
        empty="No tags yet: add some to a link when you make or edit it."
        itemKey={(tag) => tag.name}
        table={{
          caption: "The workspace's tags, by name",
          class: 'tags',
          columns: [
            {
              label: 'Tag',
              class: 'break',
              cell: (tag) => (
                <AppLink href={linksTagged(tag.name)} class="tag-chip">
                  <TagLabel name={tag.name} color={tag.color} />
                </AppLink>
              ),
            },
            { label: 'Links', class: 'num', cell: (tag) => tag.links },
            {
              label: 'Colour',
              cell: (tag) => (
                <span class="tag-color">
                  <input
                    type="color"
                    aria-label={`Colour of ${tag.name}`}
                    // The key draws the input again with the list, so a refused change does not stay shown.
                    key={`${tag.color}-${list.reloads}`}
                    defaultValue={tag.color ?? '#808080'}
                    onChange={(event) => recolor(tag, (event.currentTarget as HTMLInputElement).value)}
                  />
                  {tag.color ? (
                    <button type="button" class="secondary" aria-label={`Remove colour of ${tag.name}`} onClick={() => recolor(tag, null)}>
                      Remove colour
                    </button>
                  ) : (
                    <span class="muted">None</span>
                  )}
                </span>
              ),
            },
            {
              label: 'Name',
              cell: (tag) => (
                <button type="button" class="secondary" aria-label={`Rename ${tag.name}`} onClick={() => setRenaming(tag)}>
                  Rename
                </button>
              ),
            },
          ],
        }}
        removal={{
          action: 'Delete',
          name: (tag) => `tag ${tag.name}`,
          title: 'Delete this tag?',
          failure: 'Could not delete the tag.',
          warning: (tag) => (
            <>
              <strong class="break">{tag.name}</strong> comes off {tag.links === 1 ? 'the link' : `the ${tag.links} links`} that carry it; they keep
              their other tags and keep working.
            </>
          ),
          act: async (tag) => {
            await api.removeTag(tag.name);
            return `Deleted the tag “${tag.name}”.`;
          },
        }}
      />
      {renaming && (
        <RenameTag
          tag={renaming}
          onDone={(message) => {
            setRenaming(null);
            if (message) list.changed(message);
          }}
        />
      )}
    </>
  );
}

/** A tag's new name; the server's refusal (another tag has it: 409, or a name it refuses: 422) shown at the field. */
function RenameTag(props: { tag: Tag; onDone: (message?: string) => void }) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('name') ?? '').trim();
    if (name === props.tag.name) return props.onDone();
    setBusy(true);
    try {
      const renamed = await api.editTag(props.tag.name, { name });
      props.onDone(`Renamed “${props.tag.name}” to “${renamed.name}”.`);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not rename the tag.');
      setBusy(false);
      document.getElementById('rename-tag-name')?.focus();
    }
  };
  return (
    <Modal title="Rename tag" onClose={() => props.onDone()}>
      <form onSubmit={submit} noValidate>
        <Field id="rename-tag-name" label="New name" error={error} hint="Every link with the tag shows the new name.">
          {(aria) => <input {...aria} name="name" defaultValue={props.tag.name} autoComplete="off" />}
        </Field>
        <DialogActions label="Rename" busy={busy} onCancel={props.onDone} />
      </form>
    </Modal>
  );
}
