// Migration 0014 on a database made by the schema before it: today's accounts are the workspaces
// (same ids), their tokens keep working with every right, and the new tables hold their invariants.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { AccountService } from '../../src/accounts/account-service.js';
import { knownMigrations, migrateToLatest, migrateUpTo } from '../../src/storage/migrate.js';
import { generateToken, hashToken } from '../../src/tokens/token-secrets.js';
import { TokenService } from '../../src/tokens/token-service.js';
import { dialects, openTestDatabase } from '../support/database.js';

const PEOPLE = '0014-people';
const BEFORE = knownMigrations()[knownMigrations().indexOf(PEOPLE) - 1]!;

for (const dialect of dialects) {
  describe(`migration 0014: people (${dialect})`, () => {
    it('keeps every account as a workspace and every token with full rights', async () => {
      const { database, cleanup } = await openTestDatabase(dialect, { migrate: false });
      try {
        await migrateUpTo(database, BEFORE);
        // Rows as the schema before it holds them (the code of today writes columns added since).
        const token = generateToken();
        await sql`insert into accounts (name, created_at) values ('team', 0)`.execute(database.db);
        const account = await database.db.selectFrom('accounts').select('id').where('name', '=', 'team').executeTakeFirstOrThrow();
        await sql`insert into tokens (account_id, token_hash, label, created_at) values (${account.id}, ${hashToken(token)}, null, 0)`.execute(
          database.db,
        );
        const applied = await migrateToLatest(database);
        assert.ok(applied.includes(PEOPLE), applied.join(', '));

        const tokens = new TokenService(database.accounts, new AccountService(database.accounts));
        const caller = await tokens.callerForToken(token);
        assert.equal(caller?.accountId, account.id);
        assert.equal(caller?.role, 'owner');
        assert.deepEqual(await database.people.listUsers(), []);
      } finally {
        await cleanup();
      }
    });

    it('makes an email one user whatever its case, and refuses a role that is not one', async () => {
      const { database, cleanup } = await openTestDatabase(dialect);
      try {
        const account = await new AccountService(database.accounts).create('crew');
        const first = await database.people.createUser({ email: 'Ada@Example.com', displayName: null, passwordHash: null }, account.id, 'admin');
        assert.equal(first?.email, 'Ada@Example.com');
        const again = await database.people.createUser({ email: 'ada@example.COM', displayName: null, passwordHash: null }, account.id, 'viewer');
        assert.equal(again, undefined);
        assert.equal((await database.people.userByEmail('ADA@example.com'))?.id, first?.id);
        const other = await new AccountService(database.accounts).create('crew-2');
        await assert.rejects(
          sql`insert into memberships (user_id, account_id, role, created_at) values (${first!.id}, ${other.id}, 'king', 0)`.execute(database.db),
        );
      } finally {
        await cleanup();
      }
    });
  });
}
