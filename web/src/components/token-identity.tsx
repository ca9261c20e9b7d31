import { useEffect, useState } from 'preact/hooks';
import { api, type PresentedToken } from '../api';

/** What the server says of the token the web app signs in with (its name, workspace and role), asked once per token; null until it answers. */
export function usePresentedToken(token: string | null): PresentedToken | null {
  const [presented, setPresented] = useState<PresentedToken | null>(null);
  useEffect(() => {
    let current = true;
    setPresented(null);
    if (token === null) return;
    api.presentedToken().then(
      (answer) => current && setPresented(answer),
      () => {}, // a revoked or expired token: the pages that call the API say so
    );
    return () => {
      current = false;
    };
  }, [token]);
  return presented;
}

/**
 * The header's word on who is signed in when it is an API token (a person's session has the workspace
 * switcher instead): the token's name, its workspace and the role it acts with.
 */
export function TokenIdentity(props: { token: string }) {
  const presented = usePresentedToken(props.token);
  if (!presented) return null;
  return (
    <div class="who">
      <p>
        Signed in with the token <strong>{presented.token.name ?? 'without a name'}</strong> in <strong>{presented.workspace.name}</strong> as{' '}
        {presented.token.role}
      </p>
    </div>
  );
}
