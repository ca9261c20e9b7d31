import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// Passkeys (decision 0030): a person's WebAuthn credentials, and the challenges of the ceremonies under
// way. A credential is found by its id (unique: one credential is one person's); its public key and id
// are kept base64url, the same text on both dialects. A challenge is a row until it is used once or
// expires (5 minutes), so that any instance can finish a ceremony another began.
export function passkeys(dialect: Dialect) {
  const id = dialect === 'sqlite' ? sql`integer primary key autoincrement` : sql`serial primary key`;
  const time = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('passkeys')
        .addColumn('id', id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        // The user handle the authenticator keeps (random, base64url): the same for a person's passkeys.
        .addColumn('user_handle', 'text', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', time, (c) => c.notNull())
        .addColumn('transports', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_used_at', time)
        .execute();
      await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();

      await db.schema
        .createTable('passkey_challenges')
        .addColumn('challenge', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        // The person registering; null for a sign-in (who signs in is not known until the credential says).
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        // An invitation accepted with a passkey: the invitation's hash, and the user handle offered.
        .addColumn('invitation_hash', 'text')
        .addColumn('user_handle', 'text')
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('passkey_challenges_expiry').on('passkey_challenges').column('expires_at').execute();
    },
  };
}
