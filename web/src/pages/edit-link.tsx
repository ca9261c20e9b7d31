import { useRef, useState } from 'preact/hooks';
import { ApiError, api, type Link, type LinkEdit } from '../api';
import { DialogActions } from '../components/dialog-actions';
import { errorsByField, Field } from '../components/field';
import { Modal } from '../components/modal';
import { PREVIEW_FIELDS, PreviewFields, previewEdit } from '../components/preview-fields';
import { fromLocalInput, toLocalInput } from '../format';
import { FormTags } from '../tags/form-tags';
import { sameNames, tagsOfForm } from '../tags/tag-names';
import { UtmFields } from '../utm/utm-fields';

const FIELDS = ['url', 'comment', 'password', 'expiredAt', 'maxVisits', ...PREVIEW_FIELDS] as const;

/**
 * The visit limit a PATCH sends for the field's text: null for none (empty), the number typed (the server refuses 0,
 * fractions and numbers too large, with its message shown at the field), or undefined for text that is no number.
 */
function visitLimit(text: string): number | null | undefined {
  if (text === '') return null;
  const limit = Number(text);
  return Number.isFinite(limit) ? limit : undefined;
}

/** Edit a link's destination, comment, password, expiry, visit limit, query forwarding and card: only what changed is sent (PATCH). */
export function EditLink(props: { link: Link; onDone: (message?: string) => void }) {
  const { link } = props;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const urlInput = useRef<HTMLInputElement>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const value = (name: string) => String(form.get(name) ?? '').trim();
    const edit: LinkEdit = {};
    if (value('url') !== link.originalUrl) edit.url = value('url');
    if (value('comment') !== link.comment) edit.comment = value('comment') === '' ? null : value('comment');
    const tags = tagsOfForm(form, 'tags');
    if (tags.problem !== undefined) return setErrors({ tags: tags.problem });
    if (!sameNames(tags.tags, link.tags)) edit.tags = tags.tags;
    if (form.get('removePassword') === 'on') edit.password = null;
    else if (value('password') !== '') edit.password = value('password');
    const expiry = value('expiredAt');
    if (expiry !== toLocalInput(link.expiresAt)) edit.expiredAt = expiry === '' ? null : fromLocalInput(expiry);
    const forwardQuery = form.get('forwardQuery') === 'on';
    if (forwardQuery !== link.forwardQuery) edit.forwardQuery = forwardQuery;
    const limit = visitLimit(value('maxVisits'));
    if (limit === undefined) return setErrors({ maxVisits: 'The visit limit must be a whole number, such as 100, or empty for none' });
    if (limit !== link.maxVisits) edit.maxVisits = limit;
    const preview = previewEdit(form, link.preview);
    if (preview !== undefined) edit.preview = preview;
    if (Object.keys(edit).length === 0) return props.onDone();
    setBusy(true);
    setErrors({});
    try {
      await api.edit(link.domainName, link.slug, edit);
      props.onDone(`Saved ${link.shortUrl}.`);
    } catch (error) {
      setErrors(error instanceof ApiError ? errorsByField(error, [...FIELDS, 'tags']) : { form: 'Could not save the link.' });
      setBusy(false);
    }
  };

  return (
    <Modal title="Edit link" onClose={() => props.onDone()}>
      <p class="muted break">{link.shortUrl}</p>
      <form onSubmit={submit} noValidate>
        <Field id="edit-url" label="Destination" error={errors.url}>
          {(aria) => <input {...aria} ref={urlInput} name="url" type="url" defaultValue={link.originalUrl} required />}
        </Field>
        <UtmFields id="edit" urlInput={urlInput} />
        <Field id="edit-comment" label="Comment" error={errors.comment}>
          {(aria) => <input {...aria} name="comment" defaultValue={link.comment} autoComplete="off" />}
        </Field>
        <FormTags id="edit-tags" name="tags" initial={link.tags} error={errors.tags} />
        <Field
          id="edit-password"
          label={link.hasPassword ? 'New password' : 'Password'}
          error={errors.password}
          hint={link.hasPassword ? 'Leave empty to keep the current password.' : 'Visitors must enter it; at least 6 characters.'}
        >
          {(aria) => <input {...aria} name="password" type="password" autoComplete="new-password" />}
        </Field>
        {link.hasPassword && (
          <div class="check">
            <input id="edit-remove-password" name="removePassword" type="checkbox" />
            <label for="edit-remove-password">Remove the password</label>
          </div>
        )}
        <Field id="edit-expiry" label="Expires" error={errors.expiredAt} hint="Your local time; empty for never.">
          {(aria) => <input {...aria} name="expiredAt" type="datetime-local" defaultValue={toLocalInput(link.expiresAt)} />}
        </Field>
        <Field
          id="edit-max-visits"
          label="Visit limit"
          error={errors.maxVisits}
          hint="After this many visits by people (bots are not counted) the link stops redirecting; empty for no limit."
        >
          {(aria) => (
            <input
              {...aria}
              name="maxVisits"
              inputMode="numeric"
              autoComplete="off"
              defaultValue={link.maxVisits === null ? '' : String(link.maxVisits)}
            />
          )}
        </Field>
        <div class="check">
          <input id="edit-forward-query" name="forwardQuery" type="checkbox" defaultChecked={link.forwardQuery} />
          <label for="edit-forward-query">Pass a visitor's query string (?utm_source=…) on to the destination</label>
        </div>
        <PreviewFields link={link} errors={errors} />
        {errors.form && (
          <p class="error" role="alert">
            {errors.form}
          </p>
        )}
        <DialogActions label="Save" busy={busy} onCancel={props.onDone} />
      </form>
    </Modal>
  );
}
