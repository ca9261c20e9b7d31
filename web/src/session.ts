// The API token: kept in this browser's local storage until "Sign out", and never put in a URL.
import { useEffect, useState } from 'preact/hooks';

const KEY = 'brief.token';
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage disabled: anonymous use still works
  }
}

export const currentToken = (): string | null => read();

export function signIn(token: string): void {
  localStorage.setItem(KEY, token);
  for (const listener of listeners) listener();
}

export function signOut(): void {
  localStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

/** Whether a token is kept, re-rendering on sign in and out (here, or in another tab). */
export function useSignedIn(): boolean {
  const [signedIn, setSignedIn] = useState(() => read() !== null);
  useEffect(() => {
    const update = () => setSignedIn(read() !== null);
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
  return signedIn;
}
