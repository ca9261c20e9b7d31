import { useState } from 'preact/hooks';
import { api } from '../api';
import { Field } from '../components/field';
import { SettingsList, useSettingsList } from '../components/settings-list';
import { formatDate, formatDateTime } from '../format';
import { addPasskey, passkeyProblem } from '../passkeys';

/** Settings → Passkeys: the signed-in person's own passkeys (list, Add a passkey, Remove). */
export function Passkeys(props: { headingId: string }) {
  const list = useSettingsList(api.passkeys, 'Could not load your passkeys.');
  const [busy, setBusy] = useState(false);

  const add = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim();
    setBusy(true);
    list.setError(null);
    list.setNotice('');
    try {
      const added = await addPasskey(name);
      form.reset();
      list.changed(`Added the passkey “${added.name}”.`);
    } catch (e) {
      list.setError(passkeyProblem(e, 'Could not add the passkey.'));
    }
    setBusy(false);
  };

  return (
    <>
      <h2 id={props.headingId}>Passkeys</h2>
      <p class="muted">Sign in with your fingerprint, face, screen lock or security key instead of your password.</p>
      <SettingsList
        list={list}
        empty="No passkeys yet."
        itemKey={(passkey) => passkey.id}
        table={{
          caption: 'Your passkeys, oldest first',
          class: 'tokens',
          columns: [
            { label: 'Name', class: 'break', cell: (passkey) => passkey.name },
            { label: 'Added', class: 'date', cell: (passkey) => formatDate(passkey.createdAt) },
            { label: 'Last used', class: 'date', cell: (passkey) => (passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : 'Never') },
          ],
        }}
        removal={{
          action: 'Remove',
          name: (passkey) => passkey.name,
          title: 'Remove this passkey?',
          failure: 'Could not remove the passkey.',
          warning: (passkey) => (
            <>
              <strong class="break">{passkey.name}</strong> no longer signs you in. You can add it again later.
            </>
          ),
          act: async (passkey) => {
            await api.removePasskey(passkey.id);
            return `Removed “${passkey.name}”.`;
          },
        }}
      />
      <form class="passkey-add" onSubmit={add} noValidate>
        <Field id="passkey-name" label="Name (optional)" hint="Which device or key it is, such as “work laptop”.">
          {(aria) => <input {...aria} name="name" type="text" maxLength={100} autoComplete="off" />}
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          Add a passkey
        </button>
      </form>
    </>
  );
}
