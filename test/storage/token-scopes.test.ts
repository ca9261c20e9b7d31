// Migration 0015 (decision 0029) on a database made by the schema before it, on every dialect: the
// tokens that exist keep every scope and keep working; new columns hold scopes and the last use.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { AccountService } from '../../src/accounts/account-service.js';
import { SCOPES } from '../../src/accounts/scopes.js';
import { knownMigrations, migrateToLatest, migrateUpTo } from '../../src/storage/migrate.js';
import { hashToken } from '../../src/tokens/token-secrets.js';
import { TokenService } from '../../src/tokens/token-service.js';
import { dialects, openTestDatabase } from '../support/database.js';

const MIGRATION = '0015-token-scopes';
/** The schema before this migration, whatever came before it in the code's list. */
const BEFORE = knownMigrations()[knownMigrations().indexOf(MIGRATION) - 1]!;

for (const dialect of dialects) {
  describe(`migration 0015: token scopes (${dialect})`, () => {
    it('gives every existing token every scope, and it keeps working', async () => {
      const { database, cleanup } = await openTestDatabase(dialect, { migrate: false });
      try {
        await migrateUpTo(database, BEFORE);
        await sql`insert into accounts (name, created_at) values ('old', 1000)`.execute(database.db);
        const owner = await database.db.selectFrom('accounts').select('id').where('name', '=', 'old').executeTakeFirstOrThrow();
        await sql`insert into tokens (account_id, token_hash, label, created_at, expires_at, revoked_at)
          values (${owner.id}, ${hashToken('brf_old')}, 'old one', 2000, null, null)`.execute(database.db);
        const applied = await migrateToLatest(database);
        assert.ok(applied.includes(MIGRATION), applied.join(', '));

        const tokens = new TokenService(database.accounts, new AccountService(database.accounts));
        const caller = await tokens.callerForToken('brf_old');
        assert.deepEqual(caller?.scopes, SCOPES);
        const [listed] = await tokens.listTokens('old');
        assert.deepEqual(listed?.scopes, SCOPES);
        assert.equal(listed?.name, 'old one');
        assert.equal(listed?.createdAt, 2000);
        const row = await database.db.selectFrom('tokens').select(['scopes', 'last_used_at']).executeTakeFirstOrThrow();
        assert.equal(row.scopes, null, 'stored as "every scope", so it keeps full rights');
      } finally {
        await cleanup();
      }
    });

    it('stores the scopes asked for, in order and once, and reads them back', async () => {
      const { database, cleanup } = await openTestDatabase(dialect);
      try {
        const accounts = new AccountService(database.accounts);
        const tokens = new TokenService(database.accounts, accounts);
        await accounts.create('scoped');
        const { token, record } = await tokens.createToken('scoped', { scopes: ['domains:write', 'links:read', 'links:read'] });
        assert.deepEqual(record.scopes, ['links:read', 'domains:write']);
        assert.deepEqual((await tokens.callerForToken(token))?.scopes, ['links:read', 'domains:write']);
        await assert.rejects(tokens.createToken('scoped', { scopes: ['links:read', 'links:delete'] }), /Unknown scope "links:delete"/);
        assert.equal((await tokens.listTokens('scoped')).length, 1, 'nothing made for an unknown scope');
      } finally {
        await cleanup();
      }
    });
  });
}
