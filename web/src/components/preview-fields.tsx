import { useState } from 'preact/hooks';
import type { Link, LinkEdit } from '../api';
import { Field } from './field';
import { PreviewCard } from './preview-card';

/** The API's fields of a card, whose errors the edit form shows at these inputs. */
export const PREVIEW_FIELDS = ['preview', 'preview.title', 'preview.description', 'preview.image'] as const;

/**
 * What a PATCH sends for the card fields of a form: undefined when they are as the link has them, null when all three
 * were emptied, else the card whole (an empty title is sent as it is, so the server's "must be defined" shows at it).
 */
export function previewEdit(form: FormData, current: Link['preview']): LinkEdit['preview'] {
  const value = (name: string) => String(form.get(name) ?? '').trim();
  const [title, description, image] = [value('previewTitle'), value('previewDescription'), value('previewImage')];
  if (title === '' && description === '' && image === '') return current === null ? undefined : null;
  const same = current !== null && title === current.title && description === (current.description ?? '') && image === (current.image ?? '');
  return same ? undefined : { title, description: description || null, image: image || null };
}

/** The card's fields in the edit form, with the card as chat apps will show it, kept up to date as they are typed. */
export function PreviewFields(props: { link: Link; errors: Record<string, string | undefined> }) {
  const { link, errors } = props;
  const [title, setTitle] = useState(link.preview?.title ?? '');
  const [description, setDescription] = useState(link.preview?.description ?? '');
  const [image, setImage] = useState(link.preview?.image ?? '');
  const text = (set: (value: string) => void) => (event: Event) => set((event.currentTarget as HTMLInputElement).value);
  return (
    <fieldset class="preview-fields">
      <legend>Card in chats</legend>
      <p class="hint">What chat and social apps show when the short link is pasted. Empty: they show the destination's own.</p>
      <Field id="edit-preview-title" label="Card title" error={errors['preview.title'] ?? errors.preview}>
        {(aria) => <input {...aria} name="previewTitle" value={title} onInput={text(setTitle)} autoComplete="off" />}
      </Field>
      <Field id="edit-preview-description" label="Card description" error={errors['preview.description']}>
        {(aria) => <input {...aria} name="previewDescription" value={description} onInput={text(setDescription)} autoComplete="off" />}
      </Field>
      <Field id="edit-preview-image" label="Card image" error={errors['preview.image']} hint="An https address of the image; Brief never fetches it.">
        {(aria) => <input {...aria} name="previewImage" type="url" value={image} onInput={text(setImage)} autoComplete="off" />}
      </Field>
      {title.trim() === '' ? (
        <p class="muted">Give the card a title to see it here.</p>
      ) : (
        <PreviewCard
          preview={{ title: title.trim(), description: description.trim() || null, image: image.trim() || null }}
          domain={link.domainName}
        />
      )}
    </fieldset>
  );
}
