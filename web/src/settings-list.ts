import { useEffect, useState } from 'preact/hooks';
import { ApiError } from './api';

/**
 * A list on the Settings page (tokens, passkeys, members, domains): loaded at first and again on `reload`,
 * the error of its load (a page sets its changes' errors there too), and the notice a change leaves for
 * screen readers. `reloads` counts the loads, for a control that must be drawn again with the list.
 */
export function useSettingsList<T>(load: () => Promise<T[]>, failure: string) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let current = true;
    load().then(
      (answer) => current && setItems(answer),
      (e: unknown) => current && setError(e instanceof ApiError ? e.message : failure),
    );
    return () => {
      current = false;
    };
  }, [reloads]);

  const reload = () => setReloads((n) => n + 1);
  /** After a change that worked: say what happened, and load the list again. */
  const changed = (message: string) => {
    setNotice(message);
    reload();
  };
  return { items, error, setError, notice, setNotice, reloads, reload, changed };
}
