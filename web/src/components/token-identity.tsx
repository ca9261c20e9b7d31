import { useEffect, useState } from 'preact/hooks';
import { api, type PresentedToken } from '../api';

/**
 * The header's word on who is signed in when it is an API token (a person's session has the workspace
 * switcher instead): the token's name, its workspace and the role it acts with, asked of the server once per token.
 */
export function TokenIdentity(props: { token: string }) {
  const [presented, setPresented] = useState<PresentedToken | null>(null);
  useEffect(() => {
    let current = true;
    setPresented(null);
    api.presentedToken().then(
      (answer) => current && setPresented(answer),
      () => {}, // a revoked or expired token: the pages that call the API say so
    );
    return () => {
      current = false;
    };
  }, [props.token]);
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
