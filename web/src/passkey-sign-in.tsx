import { useState } from 'preact/hooks';
import { passkeyProblem, signInWithPasskey } from './passkeys';
import type { Me } from './session';

/** "Sign in with a passkey": no email asked, the authenticator offers this server's passkeys. */
export function PasskeySignInButton(props: { onSignedIn: (me: Me) => void; onError: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      props.onSignedIn(await signInWithPasskey());
    } catch (e) {
      props.onError(passkeyProblem(e, 'Could not sign in with a passkey.'));
      setBusy(false);
    }
  };
  return (
    <p>
      <button type="button" class="secondary" disabled={busy} onClick={start}>
        Sign in with a passkey
      </button>
    </p>
  );
}
