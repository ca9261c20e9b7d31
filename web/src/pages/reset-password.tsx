import { useState } from 'preact/hooks';
import { api } from '../api';
import { NewPasswordForm } from '../components/new-password-form';

/**
 * A password reset's one-time link (`/app/reset-password#SECRET`, from `brief user reset`; the secret never
 * reaches a server's log): a new password, set once, within the hour. Every session of the person ends; they
 * sign in again with the new password.
 */
export function ResetPasswordPage(props: { onSignIn: () => void }) {
  const token = location.hash.slice(1);
  const [done, setDone] = useState(false);
  const save = async (newPassword: string) => {
    await api.resetPassword(token, newPassword);
    // The secret is spent: it leaves the address bar (and the history) too.
    history.replaceState(null, '', location.pathname);
    setDone(true);
    return undefined;
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
      <NewPasswordForm
        save={save}
        submitLabel="Set password"
        failure="Could not set the password."
        {...(token === '' ? { blocked: 'This link has no reset in it: check that the whole link was copied.' } : {})}
      />
    </div>
  );
}
