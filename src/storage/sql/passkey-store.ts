import type { Kysely } from 'kysely';
import type { Connection } from '../connection.js';
import type { Challenge, ChallengePurpose, NewPasskey, PasskeyRecord, PasskeyStore } from '../stores/passkeys.js';
import type { PasskeyRow, Tables } from '../tables.js';
import { canSignIn, claimInvitation, TakenEmail } from './memberships.js';
import { emailKey } from './users.js';

const toPasskey = (row: PasskeyRow): PasskeyRecord => ({
  id: row.id,
  userId: row.user_id,
  credentialId: row.credential_id,
  userHandle: row.user_handle,
  publicKey: row.public_key,
  counter: Number(row.counter),
  transports: row.transports ? row.transports.split(' ') : [],
  name: row.name,
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
});

/** Passkeys and their challenges, in the same SQL on both dialects. */
export class SqlPasskeyStore implements PasskeyStore {
  constructor(private readonly connection: Connection) {}

  async addChallenge(challenge: Challenge, now: number): Promise<void> {
    await this.connection.write(async (db) => {
      await db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute();
      await db
        .insertInto('passkey_challenges')
        .values({
          challenge: challenge.challenge,
          purpose: challenge.purpose,
          user_id: challenge.userId,
          invitation_hash: challenge.invitationHash,
          user_handle: challenge.userHandle,
          expires_at: challenge.expiresAt,
        })
        .execute();
    });
  }

  async takeChallenge(challenge: string, purpose: ChallengePurpose, now: number): Promise<Challenge | undefined> {
    // The delete is the claim: of two that present one challenge at once, one removes the row.
    const row = await this.connection.write((db) =>
      db
        .deleteFrom('passkey_challenges')
        .where('challenge', '=', challenge)
        .where('purpose', '=', purpose)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst(),
    );
    return (
      row && {
        challenge: row.challenge,
        purpose: row.purpose,
        userId: row.user_id,
        invitationHash: row.invitation_hash,
        userHandle: row.user_handle,
        expiresAt: Number(row.expires_at),
      }
    );
  }

  async add(passkey: NewPasskey): Promise<PasskeyRecord | undefined> {
    const row = await this.connection.write((db) => insertPasskey(db, passkey));
    return row && toPasskey(row);
  }

  async acceptInvitation(
    tokenHash: string,
    now: number,
    user: { email: string; displayName: string | null },
    passkey: Omit<NewPasskey, 'userId' | 'now'>,
  ): Promise<{ userId: number; accountId: number } | 'used' | 'taken'> {
    return this.connection
      .write(async (db) => {
        const claimed = await claimInvitation(db, tokenHash, now);
        if (!claimed) return 'used';
        const key = emailKey(user.email);
        let found = await db.selectFrom('users').select(['id', 'password_hash']).where('email_key', '=', key).executeTakeFirst();
        if (found) {
          if (await canSignIn(db, found)) throw new TakenEmail();
        } else {
          found = await db
            .insertInto('users')
            .values({ email: user.email, email_key: key, display_name: user.displayName, password_hash: null, created_at: now })
            .onConflict((oc) => oc.column('email_key').doNothing())
            .returning(['id', 'password_hash'])
            .executeTakeFirst();
          if (!found) throw new TakenEmail();
        }
        await db
          .insertInto('memberships')
          .values({ user_id: found.id, account_id: claimed.account_id, role: claimed.role, created_at: now })
          .onConflict((oc) => oc.columns(['user_id', 'account_id']).doUpdateSet({ role: claimed.role }))
          .execute();
        if (!(await insertPasskey(db, { ...passkey, userId: found.id, now }))) throw new TakenEmail();
        return { userId: found.id, accountId: claimed.account_id };
      })
      .catch((error: unknown) => {
        if (error instanceof TakenEmail) return 'taken' as const;
        throw error;
      });
  }

  async byCredentialId(credentialId: string): Promise<PasskeyRecord | undefined> {
    const row = await this.connection.db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
    return row && toPasskey(row);
  }

  async listOf(userId: number): Promise<PasskeyRecord[]> {
    const rows = await this.connection.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
    return rows.map(toPasskey);
  }

  async remove(userId: number, id: number): Promise<boolean> {
    const result = await this.connection.write((db) =>
      db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst(),
    );
    return Number(result.numDeletedRows) > 0;
  }

  async recordUse(id: number, seen: number, counter: number, now: number): Promise<boolean> {
    const result = await this.connection.write((db) =>
      db.updateTable('passkeys').set({ counter, last_used_at: now }).where('id', '=', id).where('counter', '=', seen).executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) > 0;
  }
}

function insertPasskey(db: Kysely<Tables>, passkey: NewPasskey): Promise<PasskeyRow | undefined> {
  return db
    .insertInto('passkeys')
    .values({
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      user_handle: passkey.userHandle,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports.length > 0 ? passkey.transports.join(' ') : null,
      name: passkey.name,
      created_at: passkey.now,
      last_used_at: null,
    })
    .onConflict((oc) => oc.column('credential_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}
