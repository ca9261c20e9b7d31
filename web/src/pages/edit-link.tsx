import { useState } from 'preact/hooks';
import { ApiError, api, type Link, type LinkEdit } from '../api';
import { DialogActions } from '../components/dialog-actions';
import { errorsByField, Field } from '../components/field';
import { Modal } from '../components/modal';
import { fromLocalInput, toLocalInput } from '../format';

const FIELDS = ['url', 'comment', 'password', 'expiredAt'] as const;

/** Edit a link's destination, comment, password, expiry and query forwarding: only what changed is sent (PATCH). */
export function EditLink(props: { link: Link; onDone: (message?: string) => void }) {
  const { link } = props;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const value = (name: string) => String(form.get(name) ?? '').trim();
    const edit: LinkEdit = {};
    if (value('url') !== link.originalUrl) edit.url = value('url');
    if (value('comment') !== link.comment) edit.comment = value('comment') === '' ? null : value('comment');
    if (form.get('removePassword') === 'on') edit.password = null;
    else if (value('password') !== '') edit.password = value('password');
    const expiry = value('expiredAt');
    if (expiry !== toLocalInput(link.expiresAt)) edit.expiredAt = expiry === '' ? null : fromLocalInput(expiry);
    const forwardQuery = form.get('forwardQuery') === 'on';
    if (forwardQuery !== link.forwardQuery) edit.forwardQuery = forwardQuery;
    if (Object.keys(edit).length === 0) return props.onDone();
    setBusy(true);
    setErrors({});
    try {
      await api.edit(link.domainName, link.slug, edit);
      props.onDone(`Saved ${link.shortUrl}.`);
    } catch (error) {
      setErrors(error instanceof ApiError ? errorsByField(error, FIELDS) : { form: 'Could not save the link.' });
      setBusy(false);
    }
  };

  return (
    <Modal title="Edit link" onClose={() => props.onDone()}>
      <p class="muted break">{link.shortUrl}</p>
      <form onSubmit={submit} noValidate>
        <Field id="edit-url" label="Destination" error={errors.url}>
          {(aria) => <input {...aria} name="url" type="url" defaultValue={link.originalUrl} required />}
        </Field>
        <Field id="edit-comment" label="Comment" error={errors.comment}>
          {(aria) => <input {...aria} name="comment" defaultValue={link.comment} autoComplete="off" />}
        </Field>
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
        <div class="check">
          <input id="edit-forward-query" name="forwardQuery" type="checkbox" defaultChecked={link.forwardQuery} />
          <label for="edit-forward-query">Pass a visitor's query string (?utm_source=…) on to the destination</label>
        </div>
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
