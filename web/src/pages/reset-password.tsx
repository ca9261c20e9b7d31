import { useState } from 'preact/hooks';
import { ApiError, api } from '../api';
import { errorsByField, Field } from '../components/field';

/**
 * A password reset's one-time link (`/app/reset-password#SECRET`, from `brief user reset`; the secret never
 * reaches a server's log): a new password, set once, within the hour. Every session of the person ends; they
 * sign in again with the new password.
 */
export function ResetPasswordPage(props: { onSignIn: () => void }) {
  const token = location.hash.slice(1);
  const [errors, setErrors] = useState<Record<string, string>>(
    token === '' ? { form: 'This link has no reset in it: check that the whole link was copied.' } : {},
  );
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const newPassword = String(data.get('newPassword') ?? '');
    if (newPassword !== String(data.get('repeatPassword') ?? '')) {
      setErrors({ repeatPassword: 'The two new passwords are not the same.' });
      return;
    }
    setBusy(true);
    try {
      await api.resetPassword(token, newPassword);
      // The secret is spent: it leaves the address bar (and the history) too.
      history.replaceState(null, '', location.pathname);
      setDone(true);
    } catch (e) {
      setErrors(e instanceof ApiError ? errorsByField(e, ['newPassword']) : { form: 'Could not set the password.' });
    }
    setBusy(false);
  };
  if (done) {
    return (
      <div class="card">
        <p class="notice" role="status">
          Your new password is set, and every session you had has ended.
        </p>
        <button type="button" class="primary" onClick={props.onSignIn}>
          Sign in
        </button>
      </div>
    );
  }
  return (
    <div class="card">
      <form onSubmit={submit} noValidate>
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
        <button type="submit" class="primary" disabled={busy || token === ''}>
          Set password
        </button>
      </form>
    </div>
  );
}
