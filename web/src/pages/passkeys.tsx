import { useState } from 'preact/hooks';
import { api, type Passkey } from '../api';
import { ActionsHeader } from '../components/actions-header';
import { ConfirmDialog } from '../components/confirm-dialog';
import { Field } from '../components/field';
import { formatDate, formatDateTime } from '../format';
import { addPasskey, passkeyProblem } from '../passkeys';
import { useSettingsList } from '../settings-list';

/** Settings → Passkeys: the signed-in person's own passkeys (list, Add a passkey, Remove). */
export function Passkeys(props: { headingId: string }) {
  const { items: passkeys, error, setError, notice, setNotice, changed } = useSettingsList(api.passkeys, 'Could not load your passkeys.');
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);

  const done = (message?: string) => {
    setRemoving(null);
    if (message) changed(message);
  };

  const add = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim();
    setBusy(true);
    setError(null);
    setNotice('');
    try {
      const added = await addPasskey(name);
      form.reset();
      done(`Added the passkey “${added.name}”.`);
    } catch (e) {
      setError(passkeyProblem(e, 'Could not add the passkey.'));
    }
    setBusy(false);
  };

  return (
    <>
      <h2 id={props.headingId}>Passkeys</h2>
      <p class="muted">Sign in with your fingerprint, face, screen lock or security key instead of your password.</p>
      <p class="notice" role="status">
        {notice}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {passkeys && passkeys.length === 0 && <p class="muted">No passkeys yet.</p>}
      {passkeys && passkeys.length > 0 && (
        <div class="table-wrap">
          <table class="links tokens">
            <caption class="visually-hidden">Your passkeys, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Added</th>
                <th scope="col">Last used</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {passkeys.map((passkey) => (
                <tr key={passkey.id}>
                  <td data-label="Name" class="break">
                    {passkey.name}
                  </td>
                  <td data-label="Added" class="date">
                    {formatDate(passkey.createdAt)}
                  </td>
                  <td data-label="Last used" class="date">
                    {passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : 'Never'}
                  </td>
                  <td class="actions">
                    <button type="button" class="danger" aria-label={`Remove ${passkey.name}`} onClick={() => setRemoving(passkey)}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form class="passkey-add" onSubmit={add} noValidate>
        <Field id="passkey-name" label="Name (optional)" hint="Which device or key it is, such as “work laptop”.">
          {(aria) => <input {...aria} name="name" type="text" maxLength={100} autoComplete="off" />}
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          Add a passkey
        </button>
      </form>
      {removing && (
        <ConfirmDialog
          title="Remove this passkey?"
          action="Remove"
          failure="Could not remove the passkey."
          act={async () => {
            await api.removePasskey(removing.id);
            return `Removed “${removing.name}”.`;
          }}
          onDone={done}
        >
          <strong class="break">{removing.name}</strong> no longer signs you in. You can add it again later.
        </ConfirmDialog>
      )}
    </>
  );
}
