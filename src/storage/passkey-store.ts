import type { Connection } from './connection.js';
import type { ChallengePurpose, NewPasskey, PasskeyRecord, PasskeyStore } from './stores/passkeys.js';
import type { PasskeyRow } from './tables.js';

const toPasskey = (row: PasskeyRow): PasskeyRecord => ({
  id: row.id,
  userId: row.user_id,
  credentialId: row.credential_id,
  publicKey: row.public_key,
  counter: Number(row.counter),
  transports: row.transports ? row.transports.split(' ') : [],
  name: row.name,
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
});

export class SqlPasskeyStore implements PasskeyStore {
  constructor(private readonly connection: Connection) {}

  async addChallenge(challenge: {
    challenge: string;
    purpose: ChallengePurpose;
    userId: number | null;
    expiresAt: number;
    now: number;
  }): Promise<void> {
    await this.connection.write(async (db) => {
      await db.deleteFrom('passkey_challenges').where('expires_at', '<=', challenge.now).execute();
      await db
        .insertInto('passkey_challenges')
        .values({ challenge: challenge.challenge, purpose: challenge.purpose, user_id: challenge.userId, expires_at: challenge.expiresAt })
        .execute();
    });
  }

  async takeChallenge(challenge: string, purpose: ChallengePurpose, now: number): Promise<{ userId: number | null } | undefined> {
    // The delete is the claim: of two that present one challenge at once, one removes the row.
    const row = await this.connection.write((db) =>
      db
        .deleteFrom('passkey_challenges')
        .where('challenge', '=', challenge)
        .where('purpose', '=', purpose)
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst(),
    );
    return row && { userId: row.user_id };
  }

  async add(passkey: NewPasskey): Promise<PasskeyRecord | undefined> {
    const row = await this.connection.write((db) =>
      db
        .insertInto('passkeys')
        .values({
          user_id: passkey.userId,
          credential_id: passkey.credentialId,
          public_key: passkey.publicKey,
          counter: passkey.counter,
          transports: passkey.transports.length > 0 ? passkey.transports.join(' ') : null,
          name: passkey.name,
          created_at: passkey.now,
          last_used_at: null,
        })
        .onConflict((oc) => oc.column('credential_id').doNothing())
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toPasskey(row);
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
