import { useState } from 'preact/hooks';
import type { Scope } from '../../../src/accounts/scopes';
import { ApiError, type ApiToken, api, type NewToken } from '../api';
import { DialogActions } from '../components/dialog-actions';
import { errorsByField, Field } from '../components/field';
import { Modal } from '../components/modal';
import { SettingsList, useSettingsList } from '../components/settings-list';
import { ShownOnce } from '../components/shown-once';
import { formatDate, formatDateTime } from '../format';
import { useSession } from '../session';

type Role = ApiToken['role'];

/** Every scope, with what it lets a token do (a Record, so a scope added on the server fails the typecheck until it is here). */
const SCOPE_LABELS: Record<Scope, string> = {
  'links:read': 'Read links',
  'links:write': 'Make, edit and delete links',
  'analytics:read': 'Read analytics',
  'domains:write': 'Add, verify and remove domains',
  'members:read': 'Read members and their emails (admin and owner tokens)',
  'webhooks:write': 'Add, list, test and remove webhooks (admin and owner)',
};
const ALL_SCOPES = Object.keys(SCOPE_LABELS) as Scope[];

/** Every role, weakest first, as a token acts with it (a Record, so a role added on the server fails the typecheck until it is here). */
const ROLE_LABELS: Record<Role, string> = {
  viewer: 'Viewer: reads links and analytics',
  member: 'Member: also makes, edits and deletes links',
  admin: 'Admin: also tokens, members, domains and webhooks',
  owner: 'Owner: everything',
};
const ROLES = Object.keys(ROLE_LABELS) as Role[];

/** members:read needs the admin role: a token acting as a member or viewer never holds it (the server says the same). */
const mayHold = (role: Role | '', scope: Scope) => scope !== 'members:read' || role === '' || role === 'admin' || role === 'owner';

const scopesText = (scopes: readonly string[]) => (scopes.length === ALL_SCOPES.length ? 'All' : scopes.join(', '));

/** Who made a token: a person's email, or the operator (`brief token create`, or made before makers were recorded). */
const makerText = (maker: ApiToken['createdBy']) => (maker === null ? 'Operator (CLI)' : (maker.email ?? `Person ${maker.id}`));

/** What a token is called: its name, or its id for one made by the CLI without `--label`. */
const tokenName = (token: ApiToken) => token.name ?? `token ${token.id}`;

/** Settings → API tokens: the workspace's tokens, New token (shown once, with Copy) and Revoke. */
export function ApiTokens(props: { headingId: string }) {
  const list = useSettingsList(api.tokens, 'Could not load the tokens.');
  const [creating, setCreating] = useState(false);

  const created = (message?: string) => {
    setCreating(false);
    if (message) {
      list.setError(null);
      list.changed(message);
    }
  };

  return (
    <>
      <div class="toolbar">
        <h2 id={props.headingId} class="grow">
          API tokens
        </h2>
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          New token
        </button>
      </div>
      <p class="muted">
        Tokens let scripts and apps use Brief's API. Each can do only what its scopes allow, with the role it was made with, never more than its maker
        has now; removing a person revokes the tokens they made.
      </p>
      <SettingsList
        list={list}
        empty="No tokens."
        itemKey={(token) => token.id}
        table={{
          caption: 'API tokens, oldest first',
          class: 'tokens',
          columns: [
            { label: 'Name', class: 'break', cell: (token) => token.name ?? <span class="muted">(no name)</span> },
            { label: 'Role', cell: (token) => token.role },
            { label: 'Made by', class: 'break', cell: (token) => makerText(token.createdBy) },
            { label: 'Scopes', cell: (token) => scopesText(token.scopes) },
            { label: 'Created', class: 'date', cell: (token) => formatDate(token.createdAt) },
            { label: 'Last used', class: 'date', cell: (token) => (token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Never') },
            { label: 'Expires', class: 'date', cell: (token) => (token.expiresAt ? formatDate(token.expiresAt) : 'Never') },
          ],
        }}
        removal={{
          action: 'Revoke',
          name: tokenName,
          title: 'Revoke this token?',
          failure: 'Could not revoke the token.',
          warning: (token) => (
            <>
              <strong class="break">{tokenName(token)}</strong> stops working at once, for every script and app that uses it. This cannot be undone.
            </>
          ),
          act: async (token) => {
            await api.revokeToken(token.id);
            return `Revoked “${tokenName(token)}”.`;
          },
          onRemoved: () => list.setError(null),
        }}
      />
      {creating && <NewTokenDialog onDone={created} />}
    </>
  );
}

/** The end of a local calendar day (YYYY-MM-DD) as an ISO timestamp: a token that expires on a day works through it. */
const endOfLocalDay = (day: string): string => {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year!, month! - 1, date! + 1).toISOString();
};

function NewTokenDialog(props: { onDone: (message?: string) => void }) {
  const { person } = useSession();
  // A person offers the roles up to their own; with a token, the server refuses one above it.
  const myRole = person?.workspace.role;
  const roles = myRole ? ROLES.slice(0, ROLES.indexOf(myRole) + 1) : ROLES;
  const [role, setRole] = useState<Role | ''>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<NewToken | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const name = String(form.get('name') ?? '').trim();
    const chosen = form.getAll('scopes').map(String) as Scope[];
    const holdable = ALL_SCOPES.filter((scope) => mayHold(role, scope));
    const scopes = chosen.filter((scope) => mayHold(role, scope));
    const expires = String(form.get('expires') ?? '');
    if (name === '') return setErrors({ name: 'Enter a name: what the token is for.' });
    if (scopes.length === 0) return setErrors({ scopes: 'Choose at least one scope.' });
    setBusy(true);
    try {
      setMade(
        await api.createToken({
          name,
          // Every scope its role may hold: sent as none, so the token keeps full rights as scopes are added.
          ...(scopes.length < holdable.length && { scopes }),
          ...(expires !== '' && { expiresAt: endOfLocalDay(expires) }),
          ...(role !== '' && { role }),
        }),
      );
    } catch (e) {
      setErrors(e instanceof ApiError ? errorsByField(e, ['name', 'scopes', 'expiresAt', 'role']) : { form: 'Could not make the token.' });
      setBusy(false);
    }
  };

  if (made) {
    const done = () => props.onDone(`Created the token “${made.name}”.`);
    return (
      <ShownOnce title="Token created" id="new-token" label={`Token “${made.name}”`} value={made.token} onDone={done}>
        <p>Copy the token now: it is not shown again.</p>
      </ShownOnce>
    );
  }

  const today = new Date();
  const min = new Date(today.getTime() - today.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
  return (
    <Modal title="New token" onClose={() => props.onDone()}>
      <form onSubmit={submit} noValidate>
        <Field id="token-name" label="Name" error={errors.name} hint="What the token is for, such as “deploy script”.">
          {(aria) => <input {...aria} name="name" type="text" maxLength={100} autoComplete="off" required />}
        </Field>
        <Field id="token-role" label="Acts as" error={errors.role} hint="A token never acts above the person who makes it, now or later.">
          {(aria) => (
            <select {...aria} name="role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role | '')}>
              <option value="">{myRole ? `My role (${myRole})` : 'The role of the token signed in'}</option>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset class={errors.scopes ? 'scopes invalid' : 'scopes'} aria-describedby={errors.scopes ? 'token-scopes-error' : undefined}>
          <legend>Scopes</legend>
          {ALL_SCOPES.map((scope) => (
            <div key={scope} class="check">
              <input id={`scope-${scope}`} type="checkbox" name="scopes" value={scope} defaultChecked disabled={!mayHold(role, scope)} />
              <label for={`scope-${scope}`}>
                {SCOPE_LABELS[scope]} <code>{scope}</code>
              </label>
            </div>
          ))}
          {errors.scopes && (
            <p class="error" id="token-scopes-error">
              {errors.scopes}
            </p>
          )}
        </fieldset>
        <Field id="token-expires" label="Expires (optional)" error={errors.expiresAt} hint="The token stops working after this day. Empty: never.">
          {(aria) => <input {...aria} name="expires" type="date" min={min} />}
        </Field>
        {errors.form && (
          <p class="error" role="alert">
            {errors.form}
          </p>
        )}
        {(errors.name || errors.scopes || errors.expiresAt || errors.role) && (
          <p class="visually-hidden" role="alert">
            {errors.name ?? errors.scopes ?? errors.expiresAt ?? errors.role}
          </p>
        )}
        <DialogActions label="Create" busy={busy} onCancel={props.onDone} />
      </form>
    </Modal>
  );
}
