import { api } from '../api';
import { AppLink } from '../components/app-link';
import { Field } from '../components/field';
import { NewPasswordForm } from '../components/new-password-form';
import { paths } from '../router';
import { useSession } from '../session';

/**
 * Settings → Password: a signed-in person's new password, given the current one. Every other session of theirs
 * ends (a browser left signed in elsewhere, a leaked cookie); this one stays.
 */
export function PasswordPage() {
  const { person } = useSession();
  if (!person) {
    return (
      <div class="card">
        <p>Only a person signed in with an email and password has a password to change (an API token has none).</p>
        <AppLink href={paths.settings}>Back to Settings</AppLink>
      </div>
    );
  }
  const save = async (newPassword: string, data: FormData) => {
    await api.changePassword(String(data.get('currentPassword') ?? ''), newPassword);
    return 'Your password is changed. Your other sessions have ended; this one goes on.';
  };
  return (
    <div class="card">
      <NewPasswordForm save={save} submitLabel="Change password" failure="Could not change the password." fields={['currentPassword']}>
        {(errors) => (
          <>
            <p>
              Signed in as <strong>{person.user.email}</strong>.
            </p>
            <Field id="currentPassword" label="Current password" error={errors.currentPassword}>
              {(aria) => <input {...aria} name="currentPassword" type="password" autoComplete="current-password" required />}
            </Field>
          </>
        )}
      </NewPasswordForm>
      <p>
        <AppLink href={paths.settings}>Back to Settings</AppLink>
      </p>
    </div>
  );
}
