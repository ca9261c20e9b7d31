// Passkey ceremonies (decision 0030): the server's options, the browser's WebAuthn prompt
// (@simplewebauthn/browser), the answer back to the server. What fails is said in words for a person.
import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import { ApiError, api, type Passkey } from './api';
import type { Me } from './session';

const UNSUPPORTED = 'This browser cannot use passkeys here: it needs a recent browser, and the server on https (or localhost).';

/** Signs in with a passkey the authenticator offers (no email asked); who is signed in. */
export async function signInWithPasskey(): Promise<Me> {
  if (!browserSupportsWebAuthn()) throw new Error(UNSUPPORTED);
  const optionsJSON = await api.passkeySignInOptions();
  return api.passkeySignIn(await startAuthentication({ optionsJSON }));
}

/** Makes a passkey on this device (or a security key) for the signed-in person and keeps it under `name`. */
export async function addPasskey(name: string): Promise<Passkey> {
  if (!browserSupportsWebAuthn()) throw new Error(UNSUPPORTED);
  const optionsJSON = await api.passkeyOptions();
  return api.addPasskey(await startRegistration({ optionsJSON }), name);
}

/** Accepts an invitation with a new passkey instead of a password; who is then signed in. */
export async function joinWithPasskey(token: string, displayName: string): Promise<Me> {
  if (!browserSupportsWebAuthn()) throw new Error(UNSUPPORTED);
  const optionsJSON = await api.invitationPasskeyOptions(token);
  return api.acceptWithPasskey(token, await startRegistration({ optionsJSON }), displayName);
}

/** What to tell the person when a ceremony failed: the server's words, or the browser's reason. */
export function passkeyProblem(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof WebAuthnError) {
    if (error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'This device has a passkey for you already.';
    if (error.code === 'ERROR_INVALID_DOMAIN' || error.code === 'ERROR_INVALID_RP_ID') return UNSUPPORTED;
  }
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
    return 'The passkey prompt was closed or timed out. Try again.';
  }
  return error instanceof Error && error.message === UNSUPPORTED ? UNSUPPORTED : fallback;
}
