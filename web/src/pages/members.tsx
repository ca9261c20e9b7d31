import { useState } from 'preact/hooks';
import { ApiError, api, type MadeInvitation, type Member } from '../api';
import { DialogActions } from '../components/dialog-actions';
import { errorsByField, Field } from '../components/field';
import { Modal } from '../components/modal';
import { SettingsList, useSettingsList } from '../components/settings-list';
import { ShownOnce } from '../components/shown-once';
import { usePresentedToken } from '../components/token-identity';
import { formatDate } from '../format';
import { navigate, paths } from '../router';
import { currentToken, setPerson, signOut, useSession } from '../session';

type Role = Member['role'];

/** Every role, strongest first, with what it may do (a Record, so a role added on the server fails the typecheck until it is here). */
const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner: everything, the workspace itself too',
  admin: 'Admin: also tokens, members and domains',
  member: 'Member: makes, edits and deletes links',
  viewer: 'Viewer: reads links and analytics',
};
const ROLES = Object.keys(ROLE_LABELS) as Role[];

/** Whether a role may manage members (admin and owner); only an owner touches the owner role (the server says the same). */
const managesMembers = (role: Role) => role === 'owner' || role === 'admin';

/** Settings → Members: the workspace's people and roles; an admin invites, changes roles and removes. */
export function Members(props: { headingId: string }) {
  const { person } = useSession();
  // A token acts with its own role (at most its maker's): what the server says of it; the least until it has.
  const presented = usePresentedToken(person ? null : currentToken());
  const myRole: Role = person?.workspace.role ?? presented?.token.role ?? 'viewer';
  const mayManage = managesMembers(myRole);
  const list = useSettingsList(api.members, 'Could not load the members.');
  const [inviting, setInviting] = useState(false);

  /** After a change of the person's own membership: the header's role, or signed out here once removed. */
  const refreshSelf = (member: Member) => {
    if (person && member.email.toLowerCase() === person.user.email.toLowerCase()) {
      api.me().then(setPerson, () => {
        signOut();
        navigate(paths.shorten);
      });
    }
  };

  const invited = (message?: string) => {
    setInviting(false);
    if (message) list.changed(message);
  };

  const changeRole = async (member: Member, role: Role) => {
    list.setError(null);
    list.setNotice('');
    try {
      const changed = await api.changeRole(member.id, role);
      list.setNotice(`${changed.email} is now ${changed.role}.`);
      refreshSelf(changed);
    } catch (e) {
      list.setError(e instanceof ApiError ? e.message : 'Could not change the role.');
    }
    list.reload();
  };

  const mayChange = (member: Member) => mayManage && (myRole === 'owner' || member.role !== 'owner');

  /** A member's role, to change: drawn anew with each load of the list, so a refused change shows the role kept. */
  const roleSelect = (member: Member) => (
    <select
      class="compact"
      aria-label={`Role of ${member.email}`}
      key={`${member.id}-${member.role}-${list.reloads}`}
      onChange={(e) => changeRole(member, e.currentTarget.value as Role)}
    >
      {ROLES.filter((role) => role !== 'owner' || myRole === 'owner').map((role) => (
        <option key={role} value={role} selected={role === member.role}>
          {role}
        </option>
      ))}
    </select>
  );

  return (
    <>
      <div class="toolbar">
        <h2 id={props.headingId} class="grow">
          Members
        </h2>
        {mayManage && (
          <button type="button" class="primary" onClick={() => setInviting(true)}>
            Invite
          </button>
        )}
      </div>
      <p class="muted">
        {mayManage
          ? 'The people of this workspace and their roles. An invitation is a one-time link to hand over: Brief sends no mail.'
          : 'The people of this workspace and their roles. An admin or an owner invites people and changes roles.'}
      </p>
      <SettingsList
        list={list}
        itemKey={(member) => member.id}
        table={{
          caption: 'Members, by email',
          class: 'members',
          columns: [
            { label: 'Email', class: 'break', cell: (member) => member.email },
            { label: 'Name', class: 'break', cell: (member) => member.displayName ?? <span class="muted">—</span> },
            { label: 'Role', cell: (member) => (mayChange(member) ? roleSelect(member) : member.role) },
          ],
        }}
        removal={
          mayManage
            ? {
                action: 'Remove',
                name: (member) => member.email,
                allowed: mayChange,
                title: 'Remove this member?',
                failure: 'Could not remove the member.',
                warning: (member) => (
                  <>
                    <strong class="break">{member.email}</strong> leaves this workspace and is signed out of it at once. Their links stay the
                    workspace's.
                  </>
                ),
                act: async (member) => {
                  await api.removeMember(member.id);
                  return `Removed ${member.email}.`;
                },
                onRemoved: refreshSelf,
              }
            : undefined
        }
      />
      {inviting && <InviteDialog myRole={myRole} onDone={invited} />}
    </>
  );
}

function InviteDialog(props: { myRole: Role; onDone: (message?: string) => void }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<MadeInvitation | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const email = String(form.get('email') ?? '').trim();
    const role = String(form.get('role') ?? 'member');
    if (email === '') return setErrors({ email: 'Enter the email of the person to invite.' });
    setBusy(true);
    try {
      setMade(await api.invite(email, role));
    } catch (e) {
      setErrors(e instanceof ApiError ? errorsByField(e, ['email', 'role']) : { form: 'Could not make the invitation.' });
      setBusy(false);
    }
  };

  if (made) {
    const done = () => props.onDone(`Invited ${made.email} as ${made.role}.`);
    return (
      <ShownOnce title="Invitation made" id="invitation-link" label="Invitation link" value={made.link} onDone={done}>
        <p>
          Hand this link to <strong class="break">{made.email}</strong>: it lets them join as {made.role}, once, until {formatDate(made.expiresAt)}.
          It is not shown again.
        </p>
      </ShownOnce>
    );
  }

  return (
    <Modal title="Invite someone" onClose={() => props.onDone()}>
      <form onSubmit={submit} noValidate>
        <Field id="invite-email" label="Email" error={errors.email}>
          {(aria) => <input {...aria} name="email" type="email" autoComplete="off" maxLength={254} required />}
        </Field>
        <Field id="invite-role" label="Role" error={errors.role}>
          {(aria) => (
            <select {...aria} name="role">
              {ROLES.filter((role) => role !== 'owner' || props.myRole === 'owner').map((role) => (
                <option key={role} value={role} selected={role === 'member'}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {errors.form && (
          <p class="error" role="alert">
            {errors.form}
          </p>
        )}
        {(errors.email || errors.role) && (
          <p class="visually-hidden" role="alert">
            {errors.email ?? errors.role}
          </p>
        )}
        <DialogActions label="Invite" busy={busy} onCancel={props.onDone} />
      </form>
    </Modal>
  );
}
