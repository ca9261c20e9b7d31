// Who uses the app: a person signed in with a password (the server's HttpOnly session cookie, which no
// script reads: the app only knows who it is from GET /auth/me), or an API token kept in this browser's
// local storage until "Sign out" and never put in a URL. A signed-in person's browser keeps no token.
import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../../src/people/schemas';

export type { Me };

const KEY = 'brief.token';
const listeners = new Set<() => void>();
let person: Me | null = null;

function read(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage disabled: anonymous use still works
  }
}

const notify = () => {
  for (const listener of listeners) listener();
};

export const currentToken = (): string | null => read();
export const currentPerson = (): Me | null => person;

export function signIn(token: string): void {
  localStorage.setItem(KEY, token);
  notify();
}

/** A person signed in (or found signed in at load): no token is kept beside the cookie. */
export function setPerson(me: Me | null): void {
  person = me;
  if (me) {
    try {
      localStorage.removeItem(KEY);
    } catch {
      // storage disabled: nothing kept anyway
    }
  }
  notify();
}

export function signOut(): void {
  localStorage.removeItem(KEY);
  person = null;
  notify();
}

/** Whether a token is kept or a person is signed in, re-rendering on sign in and out (here, or in another tab). */
export function useSignedIn(): boolean {
  return useSession().signedIn;
}

export function useSession(): { signedIn: boolean; person: Me | null } {
  const state = () => ({ signedIn: person !== null || read() !== null, person });
  const [session, setSession] = useState(state);
  useEffect(() => {
    const update = () => setSession(state());
    listeners.add(update);
    const onStorage = (event: StorageEvent) => {
      if (event.key === KEY || event.key === null) update();
    };
    addEventListener('storage', onStorage);
    return () => {
      listeners.delete(update);
      removeEventListener('storage', onStorage);
    };
  }, []);
  return session;
}
