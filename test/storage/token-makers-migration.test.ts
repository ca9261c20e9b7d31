// Migration 0017 (issue 37) on a database made by the schema before it, on every dialect: tokens made
// before makers were recorded have none and keep acting as owner with every scope; invitations made
// before have no maker and can still be accepted; a role outside the four is refused by the database.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { AccountService } from '../../src/accounts/account-service.js';
import { SCOPES } from '../../src/accounts/scopes.js';
import { knownMigrations, migrateToLatest, migrateUpTo } from '../../src/storage/migrate.js';
import { hashToken } from '../../src/tokens/token-secrets.js';
import { TokenService } from '../../src/tokens/token-service.js';
import { dialects, openTestDatabase } from '../support/database.js';

const MIGRATION = '0017-token-makers';
const BEFORE = knownMigrations()[knownMigrations().indexOf(MIGRATION) - 1]!;

for (const dialect of dialects) {
  describe(`migration 0017: token makers (${dialect})`, () => {
    it('keeps every existing token acting as owner with no maker, and every invitation acceptable', async () => {
      const { database, cleanup } = await openTestDatabase(dialect, { migrate: false });
      try {
        await migrateUpTo(database, BEFORE);
        await sql`insert into accounts (name, created_at) values ('old', 1000)`.execute(database.db);
        const account = await database.db.selectFrom('accounts').select('id').where('name', '=', 'old').executeTakeFirstOrThrow();
        await sql`insert into tokens (account_id, token_hash, label, created_at, expires_at, revoked_at, scopes, last_used_at)
          values (${account.id}, ${hashToken('brf_old')}, 'old one', 2000, null, null, null, null)`.execute(database.db);
        await sql`insert into invitations (token_hash, account_id, email, role, created_at, expires_at, used_at)
          values (${hashToken('brf_invite')}, ${account.id}, 'new@example.com', 'admin', 2000, ${Date.now() + 86_400_000}, null)`.execute(
          database.db,
        );
        const applied = await migrateToLatest(database);
        assert.ok(applied.includes(MIGRATION), applied.join(', '));

        const tokens = new TokenService(database.accounts, new AccountService(database.accounts));
        const caller = await tokens.callerForToken('brf_old');
        assert.equal(caller?.role, 'owner');
        assert.equal(caller?.maker, null);
        assert.deepEqual(caller?.scopes, SCOPES);
        const [listed] = await tokens.listTokens('old');
        assert.equal(listed?.createdBy, null);
        assert.equal(listed?.role, 'owner');

        const invitation = await database.people.invitationByHash(hashToken('brf_invite'));
        assert.equal(invitation?.createdBy, null);
        assert.equal(invitation?.revokedAt, null);
        const accepted = await database.people.acceptInvitation(hashToken('brf_invite'), Date.now(), {
          email: 'new@example.com',
          displayName: null,
          passwordHash: null,
        });
        assert.ok(typeof accepted === 'object' && accepted.role === 'admin', JSON.stringify(accepted));

        await assert.rejects(sql`update tokens set role = 'king'`.execute(database.db));
      } finally {
        await cleanup();
      }
    });
  });
}
