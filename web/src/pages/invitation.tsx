import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type InvitationView } from '../api';
import { Field } from '../components/field';
import { joinWithPasskey, passkeyProblem } from '../passkeys';
import { navigate, paths } from '../router';
import { type Me, setPerson, useSession } from '../session';

/**
 * An invitation's one-time link (`/app/invitation#SECRET`: the secret never reaches a server's log): who it
 * is for, then a password (and a name) to join the workspace with, or a passkey instead; signed in on success.
 * Someone who signs in already gives their own password, or just joins when signed in as the invitation's email.
 */
export function InvitationPage() {
  const token = location.hash.slice(1);
  const { person } = useSession();
  const [invitation, setInvitation] = useState<InvitationView | undefined>();
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
  const signedInAsInvited = invitation !== undefined && person?.user.email.toLowerCase() === invitation.email.toLowerCase();
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    try {
      const password = signedInAsInvited ? undefined : String(form.get('password') ?? '');
      joined(await api.accept(token, password, String(form.get('name') ?? '').trim()));
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
          {signedInAsInvited ? (
            <p>You are signed in as this person already: join with one press.</p>
          ) : invitation.existingUser ? (
            <Field
              id="password"
              label="Password"
              hint="This email signs in to Brief already: give its password to join, or sign in first and open this link again."
            >
              {(aria) => <input {...aria} name="password" type="password" autoComplete="current-password" required />}
            </Field>
          ) : (
            <>
              <Field id="name" label="Name (optional)">
                {(aria) => <input {...aria} name="name" type="text" autoComplete="name" />}
              </Field>
              <Field id="password" label="Password" hint="At least 10 characters.">
                {(aria) => <input {...aria} name="password" type="password" autoComplete="new-password" required />}
              </Field>
            </>
          )}
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" class="primary" disabled={busy}>
            Join
          </button>
          {!signedInAsInvited && !invitation.existingUser && (
            <p>
              <button type="button" class="secondary" disabled={busy} onClick={joinWithKey}>
                Join with a passkey instead
              </button>
            </p>
          )}
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
