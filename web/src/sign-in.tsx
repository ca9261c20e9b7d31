import { useState } from 'preact/hooks';
import { ApiError, api } from './api';
import { DialogActions } from './components/dialog-actions';
import { Field } from './components/field';
import { Modal } from './components/modal';
import { PasskeySignInButton } from './passkey-sign-in';
import { setPerson, signIn } from './session';
import { SsoButton } from './sso';

/**
 * Signs in with an email and password or a passkey (the server keeps the session in an HttpOnly cookie), or with an API
 * token, checked with one API call and kept (local storage) until Sign out. Errors are announced (role="alert").
 */
export function SignInDialog(props: { onDone: (signedIn: boolean) => void; error?: string | undefined }) {
  const [withToken, setWithToken] = useState(false);
  const [error, setError] = useState<string | undefined>(props.error);
  const [busy, setBusy] = useState(false);
  const fail = (e: unknown) => {
    setError(e instanceof ApiError ? e.message : 'Could not sign in.');
    setBusy(false);
  };
  const submitPassword = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (email === '' || password === '') return setError('Enter your email and password.');
    setBusy(true);
    try {
      setPerson(await api.signIn(email, password));
      props.onDone(true);
    } catch (e) {
      fail(e);
    }
  };
  const submitToken = async (event: Event) => {
    event.preventDefault();
    const token = String(new FormData(event.currentTarget as HTMLFormElement).get('token') ?? '').trim();
    if (token === '') return setError('Enter an API token.');
    setBusy(true);
    try {
      await api.checkToken(token);
      signIn(token);
      props.onDone(true);
    } catch (e) {
      fail(e);
    }
  };
  const switchTo = (token: boolean) => {
    setWithToken(token);
    setError(undefined);
  };
  const actions = <DialogActions label="Sign in" busy={busy} onCancel={() => props.onDone(false)} />;
  return (
    <Modal title="Sign in" onClose={() => props.onDone(false)}>
      {withToken ? (
        <form onSubmit={submitToken} noValidate>
          <Field
            id="token"
            label="API token"
            error={error}
            hint="Made with: npx brief token create NAME. It stays in this browser until you sign out."
          >
            {(aria) => <input {...aria} name="token" type="password" autoComplete="off" spellcheck={false} required />}
          </Field>
          {actions}
          <button type="button" class="link-button" onClick={() => switchTo(false)}>
            Use an email and password instead
          </button>
        </form>
      ) : (
        <form onSubmit={submitPassword} noValidate>
          <Field id="email" label="Email">
            {(aria) => <input {...aria} name="email" type="email" autoComplete="username" spellcheck={false} required />}
          </Field>
          <Field id="password" label="Password">
            {(aria) => <input {...aria} name="password" type="password" autoComplete="current-password" required />}
          </Field>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          {actions}
          <SsoButton />
          <PasskeySignInButton
            onSignedIn={(me) => {
              setPerson(me);
              props.onDone(true);
            }}
            onError={setError}
          />
          <button type="button" class="link-button" onClick={() => switchTo(true)}>
            Use an API token instead
          </button>
        </form>
      )}
    </Modal>
  );
}
