import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { errorsByField, Field } from './field';

/**
 * A form that sets a new password, typed twice: two that differ are refused here, before any request. `save`
 * sends it (with the rest of the form's data); what it returns is announced, and the form is emptied. The
 * API's errors go to `fields` (newPassword always) or, naming none of them, to the form.
 */
export function NewPasswordForm(props: {
  save: (newPassword: string, data: FormData) => Promise<string | undefined>;
  submitLabel: string;
  /** Said when the request fails without an answer from the API. */
  failure: string;
  /** The API's fields of the form shown above the new password (`children`, given the errors by field). */
  fields?: string[];
  children?: (errors: Record<string, string>) => ComponentChildren;
  /** An error shown from the start, which also disables the form. */
  blocked?: string;
}) {
  const fields = ['newPassword', ...(props.fields ?? [])];
  const [errors, setErrors] = useState<Record<string, string>>(props.blocked ? { form: props.blocked } : {});
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const newPassword = String(data.get('newPassword') ?? '');
    setNotice('');
    if (newPassword !== String(data.get('repeatPassword') ?? '')) {
      setErrors({ repeatPassword: 'The two new passwords are not the same.' });
      return;
    }
    setBusy(true);
    try {
      const said = await props.save(newPassword, data);
      form.reset();
      setErrors({});
      setNotice(said ?? '');
    } catch (e) {
      setErrors(e instanceof ApiError ? errorsByField(e, fields) : { form: props.failure });
    }
    setBusy(false);
  };
  return (
    <form onSubmit={submit} noValidate>
      {props.children?.(errors)}
      <Field id="newPassword" label="New password" hint="At least 10 characters." error={errors.newPassword}>
        {(aria) => <input {...aria} name="newPassword" type="password" autoComplete="new-password" required />}
      </Field>
      <Field id="repeatPassword" label="New password, again" error={errors.repeatPassword}>
        {(aria) => <input {...aria} name="repeatPassword" type="password" autoComplete="new-password" required />}
      </Field>
      {errors.form && (
        <p class="error" role="alert">
          {errors.form}
        </p>
      )}
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || props.blocked !== undefined}>
        {props.submitLabel}
      </button>
    </form>
  );
}
