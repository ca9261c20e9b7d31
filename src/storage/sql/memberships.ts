// Memberships of people in workspaces (decision 0028): one added, a role changed or a member removed without
// ever leaving a workspace with no owner, and an invitation claimed once; on both dialects, each with its
// own way of making writes about one workspace take turns (WorkspaceLocks).
import type { Kysely } from 'kysely';
import type { Connection } from '../connection.js';
import { ROLE_NAMES, type RoleName } from '../stores/people.js';
import type { Tables } from '../tables.js';
import type { WorkspaceLocks } from './workspace-locks.js';

export function addMembership(connection: Connection, userId: number, accountId: number, role: RoleName): Promise<'added' | 'member'> {
  return connection.write(async (db) => {
    const added = await db
      .insertInto('memberships')
      .values({ user_id: userId, account_id: accountId, role, created_at: Date.now() })
      .onConflict((oc) => oc.columns(['user_id', 'account_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    return added ? 'added' : 'member';
  });
}

export function changeMembership(
  connection: Connection,
  locks: WorkspaceLocks,
  accountId: number,
  userId: number,
  role: RoleName | null,
  check: (current: RoleName) => void,
): Promise<'changed' | 'missing' | 'last-owner'> {
  return connection.write(async (db) => {
    // Concurrent changes of the workspace's members take turns, so two owners demoting each other at
    // once cannot both see the other still there.
    await locks.lockWorkspace(db, accountId);
    const current = await db
      .selectFrom('memberships')
      .select('role')
      .where('user_id', '=', userId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!current) return 'missing';
    check(current.role);
    if (current.role === 'owner' && role !== 'owner') {
      const owners = await db
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', accountId)
        .where('role', '=', 'owner')
        .executeTakeFirstOrThrow();
      if (Number(owners.n) <= 1) return 'last-owner';
    }
    if (role === null) {
      await db.deleteFrom('sessions').where('user_id', '=', userId).where('account_id', '=', accountId).execute();
      await db.deleteFrom('memberships').where('user_id', '=', userId).where('account_id', '=', accountId).execute();
      await revokeWhatTheyMade(db, userId, accountId, Date.now());
    } else {
      await db.updateTable('memberships').set({ role }).where('user_id', '=', userId).where('account_id', '=', accountId).execute();
      // Their tokens are capped by the new role at every use; an invitation above it would outrank them.
      const above = ROLE_NAMES.slice(ROLE_NAMES.indexOf(role) + 1);
      if (above.length > 0) await pendingInvitationsBy(db, userId, accountId, Date.now()).where('role', 'in', above).execute();
    }
    return 'changed';
  });
}

/**
 * Revokes, in the caller's write, the live tokens and pending invitations a person made: in one workspace,
 * or (`accountId` undefined) in every workspace, as when the person is removed.
 */
export async function revokeWhatTheyMade(db: Kysely<Tables>, userId: number, accountId: number | undefined, now: number): Promise<void> {
  let tokens = db.updateTable('tokens').set({ revoked_at: now }).where('created_by', '=', userId).where('revoked_at', 'is', null);
  if (accountId !== undefined) tokens = tokens.where('account_id', '=', accountId);
  await tokens.execute();
  await pendingInvitationsBy(db, userId, accountId, now).execute();
}

/** The update that revokes a person's pending (unused, unrevoked) invitations, in a workspace or all; add conditions, then execute. */
function pendingInvitationsBy(db: Kysely<Tables>, userId: number, accountId: number | undefined, now: number) {
  const update = db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('created_by', '=', userId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null);
  return accountId === undefined ? update : update.where('account_id', '=', accountId);
}

/**
 * A person's role in a workspace, read in the caller's write before it records something they make (a
 * token, an invitation). It holds the workspace shared (WorkspaceLocks.shareWorkspace), so a removal or a
 * role lowered (changeMembership's lock) waits for that write, and its revocation sees what it made.
 */
export async function roleHeldFor(locks: WorkspaceLocks, db: Kysely<Tables>, accountId: number, userId: number): Promise<RoleName | undefined> {
  await locks.shareWorkspace(db, accountId);
  const row = await db.selectFrom('memberships').select('role').where('user_id', '=', userId).where('account_id', '=', accountId).executeTakeFirst();
  return row?.role;
}

/**
 * The names of the workspaces whose only owner the user is, in the caller's write: a person removed
 * must not leave one without an owner. It locks every workspace the user belongs to first, as
 * changeMembership does, so two owners removed at once cannot both see the other still there, and no
 * token or invitation of theirs is made in one behind the removal (roleHeldFor).
 */
export async function soleOwnerships(locks: WorkspaceLocks, db: Kysely<Tables>, userId: number): Promise<string[]> {
  const owned = db.selectFrom('memberships').select('account_id').where('user_id', '=', userId).where('role', '=', 'owner');
  await locks.lockWorkspacesOf(db, userId);
  const alone = await db
    .selectFrom('memberships')
    .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
    .select('accounts.name')
    .where('memberships.account_id', 'in', owned)
    .where('memberships.role', '=', 'owner')
    .groupBy(['memberships.account_id', 'accounts.name'])
    .having((eb) => eb.fn.countAll(), '=', 1)
    .orderBy('accounts.name')
    .execute();
  return alone.map((row) => row.name);
}

/**
 * A membership, unless the user has one there already: then their role stays (an invitation never
 * demotes anyone, the last owner included; roles change through PATCH /auth/members/{userId}).
 */
export async function joinOnce(db: Kysely<Tables>, userId: number, accountId: number, role: RoleName, now: number): Promise<void> {
  await db
    .insertInto('memberships')
    .values({ user_id: userId, account_id: accountId, role, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'account_id']).doNothing())
    .execute();
}

/**
 * Claims an invitation that is unused, unrevoked and unexpired, in the caller's write: the update is the claim,
 * so of two acceptances at once one changes the row. What it invites to, or undefined when it was used, revoked
 * (its maker removed or lowered) or has expired.
 */
export function claimInvitation(db: Kysely<Tables>, tokenHash: string, now: number) {
  return db
    .updateTable('invitations')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['account_id', 'role'])
    .executeTakeFirst();
}

/**
 * Thrown inside a transaction to undo it (an invitation's claim with it) when the email is someone's who can
 * sign in already, or was taken meanwhile; the store's method answers it as taken.
 */
export class TakenEmail extends Error {}

/**
 * Whether a user can sign in already, with a password or a passkey (decision 0030): such a person joins
 * that way, never with a credential an invitation's link would add.
 */
export async function canSignIn(db: Kysely<Tables>, user: { id: number; password_hash: string | null }): Promise<boolean> {
  if (user.password_hash !== null) return true;
  return (await db.selectFrom('passkeys').select('id').where('user_id', '=', user.id).executeTakeFirst()) !== undefined;
}
