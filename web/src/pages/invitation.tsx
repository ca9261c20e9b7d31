import { useEffect, useState } from 'preact/hooks';
import { ApiError, api } from '../api';
import { Field } from '../components/field';
import { joinWithPasskey, passkeyProblem } from '../passkeys';
import { navigate, paths } from '../router';
import { type Me, setPerson } from '../session';

/**
 * An invitation's one-time link (`/app/invitation#SECRET`: the secret never reaches a server's log): who it
 * is for, then a password (and a name) to join the workspace with, or a passkey instead; signed in on success.
 */
export function InvitationPage() {
  const token = location.hash.slice(1);
  const [invitation, setInvitation] = useState<{ email: string; workspace: string; role: string } | undefined>();
  const [error, setError] = useState<string | undefined>(
    token === '' ? 'This link has no invitation in it: check that the whole link was copied.' : undefined,
  );
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (token === '') return;
    api.invitation(token).then(setInvitation, (e) => setError(e instanceof ApiError ? e.message : 'The invitation could not be read.'));
  }, [token]);
  const joined = (me: Me) => {
    setPerson(me);
    history.replaceState(null, '', location.pathname);
    navigate(paths.shorten);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    try {
      joined(await api.accept(token, String(form.get('password') ?? ''), String(form.get('name') ?? '').trim()));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not join.');
      setBusy(false);
    }
  };
  /** Join with a passkey instead of a password (the name field is read from the same form). */
  const joinWithKey = async (event: Event) => {
    const form = new FormData((event.currentTarget as HTMLButtonElement).form!);
    setBusy(true);
    try {
      joined(await joinWithPasskey(token, String(form.get('name') ?? '').trim()));
    } catch (e) {
      setError(passkeyProblem(e, 'Could not join with a passkey.'));
      setBusy(false);
    }
  };
  return (
    <div class="card">
      {invitation && (
        <form onSubmit={submit} noValidate>
          <p>
            Join <strong>{invitation.workspace}</strong> as {invitation.role}, signing in as <strong>{invitation.email}</strong>.
          </p>
          <Field id="name" label="Name (optional)">
            {(aria) => <input {...aria} name="name" type="text" autoComplete="name" />}
          </Field>
          <Field id="password" label="Password" hint="At least 10 characters.">
            {(aria) => <input {...aria} name="password" type="password" autoComplete="new-password" required />}
          </Field>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" class="primary" disabled={busy}>
            Join
          </button>
          <p>
            <button type="button" class="secondary" disabled={busy} onClick={joinWithKey}>
              Join with a passkey instead
            </button>
          </p>
        </form>
      )}
      {!invitation && error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!invitation && !error && <p>Reading the invitation…</p>}
    </div>
  );
}
