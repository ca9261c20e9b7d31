import { useState } from 'preact/hooks';
import { ApiError, api } from '../api';
import { AppLink } from '../components/app-link';
import { errorsByField, Field } from '../components/field';
import { paths } from '../router';
import { useSession } from '../session';

const FIELDS = ['currentPassword', 'newPassword'];

/**
 * Settings → Password: a signed-in person's new password, given the current one. Every other session of theirs
 * ends (a browser left signed in elsewhere, a leaked cookie); this one stays.
 */
export function PasswordPage() {
  const { person } = useSession();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  if (!person) {
    return (
      <div class="card">
        <p>Only a person signed in with an email and password has a password to change (an API token has none).</p>
        <AppLink href={paths.settings}>Back to Settings</AppLink>
      </div>
    );
  }
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
      await api.changePassword(String(data.get('currentPassword') ?? ''), newPassword);
      form.reset();
      setErrors({});
      setNotice('Your password is changed. Your other sessions have ended; this one goes on.');
    } catch (e) {
      setErrors(e instanceof ApiError ? errorsByField(e, FIELDS) : { form: 'Could not change the password.' });
    }
    setBusy(false);
  };
  return (
    <div class="card">
      <form onSubmit={submit} noValidate>
        <p>
          Signed in as <strong>{person.user.email}</strong>.
        </p>
        <Field id="currentPassword" label="Current password" error={errors.currentPassword}>
          {(aria) => <input {...aria} name="currentPassword" type="password" autoComplete="current-password" required />}
        </Field>
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
        <button type="submit" class="primary" disabled={busy}>
          Change password
        </button>
      </form>
      <p>
        <AppLink href={paths.settings}>Back to Settings</AppLink>
      </p>
    </div>
  );
}
