import { useState } from 'preact/hooks';
import { ApiError, api } from './api';
import { Field } from './components/field';
import { Modal } from './components/modal';
import { signIn } from './session';

/** Asks for an API token, checks it with one API call, and keeps it (local storage) until Sign out. */
export function SignInDialog(props: { onDone: (signedIn: boolean) => void }) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const token = String(new FormData(event.currentTarget as HTMLFormElement).get('token') ?? '').trim();
    if (token === '') return setError('Enter an API token.');
    setBusy(true);
    try {
      await api.checkToken(token);
      signIn(token);
      props.onDone(true);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not sign in.');
      setBusy(false);
    }
  };
  return (
    <Modal title="Sign in" onClose={() => props.onDone(false)}>
      <form onSubmit={submit} noValidate>
        <Field id="token" label="API token" error={error} hint="Made with: npx brief token create NAME. It stays in this browser until you sign out.">
          {(aria) => <input {...aria} name="token" type="password" autoComplete="off" spellcheck={false} required />}
        </Field>
        <div class="dialog-actions">
          <button type="button" class="secondary" onClick={() => props.onDone(false)}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={busy}>
            Sign in
          </button>
        </div>
      </form>
    </Modal>
  );
}
