// Single sign-on in the app (decision 0031): the "Sign in with SSO" button, shown only when the server
// offers it, and the error the server's callback sends the browser back with (`?sso_error=CODE`).
import { ssoEnabled } from './server-facts';

const MESSAGES: Record<string, string> = {
  unavailable: 'The sign-in provider cannot be reached right now. Try again shortly, or sign in another way.',
  denied: 'Single sign-on was cancelled at the provider.',
  state: 'This single sign-on could not be matched to this browser (it expired or was used already). Try again.',
  failed: 'The sign-in provider’s answer could not be verified. Try again.',
  unverified: 'Your provider did not confirm a verified email address, so Brief cannot tell who you are.',
  unknown: 'Nobody with your email address has been added to Brief yet. Ask an admin to invite you.',
  'no-workspace': 'You are not a member of any workspace yet. Ask an admin to invite you.',
};

/** The single sign-on error this page was opened with, if any, taken out of the address bar. */
export function takeSsoError(): string | undefined {
  const params = new URLSearchParams(location.search);
  const code = params.get('sso_error');
  if (code === null) return undefined;
  params.delete('sso_error');
  const query = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
  return MESSAGES[code] ?? 'Single sign-on failed. Try again.';
}

/** Leaves for the provider; the server brings the browser back to this page, signed in or with an error. */
export function SsoButton() {
  if (!ssoEnabled()) return null;
  return (
    <button type="button" class="secondary sso" onClick={() => location.assign(`/auth/oidc/start?return=${encodeURIComponent(location.pathname)}`)}>
      Sign in with SSO
    </button>
  );
}
