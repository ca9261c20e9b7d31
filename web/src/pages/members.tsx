import { useState } from 'preact/hooks';
import { ApiError, api, type MadeInvitation, type Member } from '../api';
import { ActionsHeader } from '../components/actions-header';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { DialogActions } from '../components/dialog-actions';
import { errorsByField, Field } from '../components/field';
import { Modal } from '../components/modal';
import { usePresentedToken } from '../components/token-identity';
import { formatDate } from '../format';
import { navigate, paths } from '../router';
import { currentToken, setPerson, signOut, useSession } from '../session';
import { useSettingsList } from '../settings-list';

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
  const {
    items: members,
    error,
    setError,
    notice,
    setNotice,
    reloads,
    reload,
    changed: listChanged,
  } = useSettingsList(api.members, 'Could not load the members.');
  const [dialog, setDialog] = useState<{ kind: 'invite' } | { kind: 'remove'; member: Member } | null>(null);

  /** After a change of the person's own membership: the header's role, or signed out here once removed. */
  const refreshSelf = (member: Member) => {
    if (person && member.email.toLowerCase() === person.user.email.toLowerCase()) {
      api.me().then(setPerson, () => {
        signOut();
        navigate(paths.shorten);
      });
    }
  };

  const close = (message?: string, removed?: Member) => {
    setDialog(null);
    if (message) {
      listChanged(message);
      if (removed) refreshSelf(removed);
    }
  };

  const changeRole = async (member: Member, role: Role) => {
    setError(null);
    setNotice('');
    try {
      const changed = await api.changeRole(member.id, role);
      setNotice(`${changed.email} is now ${changed.role}.`);
      refreshSelf(changed);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not change the role.');
    }
    reload();
  };

  const mayChange = (member: Member) => mayManage && (myRole === 'owner' || member.role !== 'owner');

  return (
    <>
      <div class="toolbar">
        <h2 id={props.headingId} class="grow">
          Members
        </h2>
        {mayManage && (
          <button type="button" class="primary" onClick={() => setDialog({ kind: 'invite' })}>
            Invite
          </button>
        )}
      </div>
      <p class="muted">
        {mayManage
          ? 'The people of this workspace and their roles. An invitation is a one-time link to hand over: Brief sends no mail.'
          : 'The people of this workspace and their roles. An admin or an owner invites people and changes roles.'}
      </p>
      <p class="notice" role="status">
        {notice}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {members && (
        <div class="table-wrap">
          <table class="links members">
            <caption class="visually-hidden">Members, by email</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                {mayManage && <ActionsHeader />}
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.id}>
                  <td data-label="Email" class="break">
                    {member.email}
                  </td>
                  <td data-label="Name" class="break">
                    {member.displayName ?? <span class="muted">—</span>}
                  </td>
                  <td data-label="Role">
                    {mayChange(member) ? (
                      <select
                        class="compact"
                        aria-label={`Role of ${member.email}`}
                        key={`${member.id}-${member.role}-${reloads}`}
                        onChange={(e) => changeRole(member, e.currentTarget.value as Role)}
                      >
                        {ROLES.filter((role) => role !== 'owner' || myRole === 'owner').map((role) => (
                          <option key={role} value={role} selected={role === member.role}>
                            {role}
                          </option>
                        ))}
                      </select>
                    ) : (
                      member.role
                    )}
                  </td>
                  {mayManage && (
                    <td class="actions">
                      {mayChange(member) && (
                        <button
                          type="button"
                          class="danger"
                          aria-label={`Remove ${member.email}`}
                          onClick={() => setDialog({ kind: 'remove', member })}
                        >
                          Remove
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {dialog?.kind === 'invite' && <InviteDialog myRole={myRole} onDone={close} />}
      {dialog?.kind === 'remove' && <RemoveDialog member={dialog.member} onDone={(message) => close(message, dialog.member)} />}
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
      <Modal title="Invitation made" onClose={done}>
        <p>
          Hand this link to <strong class="break">{made.email}</strong>: it lets them join as {made.role}, once, until {formatDate(made.expiresAt)}.
          It is not shown again.
        </p>
        <div class="field">
          <label for="invitation-link">Invitation link</label>
          <input id="invitation-link" type="text" readOnly value={made.link} spellcheck={false} onFocus={(e) => e.currentTarget.select()} />
        </div>
        <div class="dialog-actions">
          <CopyButton text={made.link} class="primary" />
          <button type="button" class="secondary" onClick={done}>
            Done
          </button>
        </div>
      </Modal>
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

function RemoveDialog(props: { member: Member; onDone: (message?: string) => void }) {
  const remove = async () => {
    await api.removeMember(props.member.id);
    return `Removed ${props.member.email}.`;
  };
  return (
    <ConfirmDialog title="Remove this member?" action="Remove" failure="Could not remove the member." act={remove} onDone={props.onDone}>
      <strong class="break">{props.member.email}</strong> leaves this workspace and is signed out of it at once. Their links stay the workspace's.
    </ConfirmDialog>
  );
}
