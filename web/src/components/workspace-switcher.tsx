import { useState } from 'preact/hooks';
import { ApiError, api } from '../api';
import { type Me, setPerson } from '../session';

/**
 * The header's word on who is signed in, in which workspace and with which role; with a workspace
 * switcher (a select and its Switch button: choosing alone changes nothing) when the person has several.
 */
export function WorkspaceSwitcher(props: { person: Me }) {
  const { person } = props;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const chosen = String(new FormData(event.currentTarget as HTMLFormElement).get('workspace') ?? '');
    if (chosen === person.workspace.id) return;
    setBusy(true);
    setError(null);
    try {
      setPerson(await api.switchWorkspace(chosen));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not switch the workspace.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="who">
      <p>
        Signed in as <strong>{person.user.displayName ?? person.user.email}</strong> in <strong>{person.workspace.name}</strong> (
        {person.workspace.role})
      </p>
      {person.workspaces.length > 1 && (
        <form class="switcher" onSubmit={submit}>
          <label for="workspace-switcher" class="visually-hidden">
            Workspace
          </label>
          <select id="workspace-switcher" class="compact" name="workspace" key={person.workspace.id}>
            {person.workspaces.map((w) => (
              <option key={w.id} value={w.id} selected={w.id === person.workspace.id}>
                {w.name} ({w.role})
              </option>
            ))}
          </select>
          <button type="submit" class="secondary" disabled={busy}>
            Switch
          </button>
        </form>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
