import { type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Database } from './database.js';
import { initial } from './migrations/0001-initial.js';
import { clickWriters } from './migrations/0002-click-writers.js';
import { v3Links } from './migrations/0003-v3-links.js';
import { clickEvents } from './migrations/0004-click-events.js';
import { clickRollups } from './migrations/0005-click-rollups.js';
import { blocklist } from './migrations/0006-blocklist.js';
import { linkRollupMark } from './migrations/0007-link-rollup-mark.js';
import { domainVerification } from './migrations/0009-domain-verification.js';
import { linkForwardQuery } from './migrations/0010-link-forward-query.js';
import { linkImports } from './migrations/0011-link-imports.js';
import { permutationCodes } from './migrations/0012-permutation-codes.js';
import { people } from './migrations/0014-people.js';
import { tokenScopes } from './migrations/0015-token-scopes.js';
import { passkeys } from './migrations/0016-passkeys.js';
import { tokenMakers } from './migrations/0017-token-makers.js';
import { invitationAttempts } from './migrations/0018-invitation-attempts.js';
import { passwordResets } from './migrations/0019-password-resets.js';
import { serverSettings } from './migrations/0020-server-settings.js';
import { linkRules } from './migrations/0021-link-rules.js';
import { linkVisitLimits } from './migrations/0022-link-visit-limits.js';
import { clickEventRules } from './migrations/0023-click-event-rules.js';
import { linkTags } from './migrations/0024-link-tags.js';
import { linkPreviews } from './migrations/0025-link-previews.js';
import { domainWellKnown } from './migrations/0026-domain-well-known.js';
import { webhookEndpoints } from './migrations/0027-webhook-endpoints.js';
import { webhookDeliveries } from './migrations/0028-webhook-deliveries.js';

/** Migrations are code, listed here in order; Kysely's migrator records which ran. */
function migrationsFor(database: Database): Record<string, Migration> {
  return {
    '0001-initial': initial(database.dialect),
    '0002-click-writers': clickWriters(database.dialect),
    '0003-v3-links': v3Links(database.dialect),
    '0004-click-events': clickEvents(database.dialect),
    '0005-click-rollups': clickRollups(database.dialect),
    '0006-blocklist': blocklist(database.dialect),
    '0007-link-rollup-mark': linkRollupMark(database.dialect),
    '0009-domain-verification': domainVerification(database.dialect),
    '0010-link-forward-query': linkForwardQuery(database.dialect),
    '0011-link-imports': linkImports(database.dialect),
    '0012-permutation-codes': permutationCodes(database.dialect),
    '0014-people': people(database.dialect),
    '0015-token-scopes': tokenScopes(database.dialect),
    '0016-passkeys': passkeys(database.dialect),
    '0017-token-makers': tokenMakers(database.dialect),
    '0018-invitation-attempts': invitationAttempts(database.dialect),
    '0019-password-resets': passwordResets(database.dialect),
    '0020-server-settings': serverSettings(database.dialect),
    '0021-link-rules': linkRules(database.dialect),
    '0022-link-visit-limits': linkVisitLimits(database.dialect),
    '0023-click-event-rules': clickEventRules(database.dialect),
    '0024-link-tags': linkTags(database.dialect),
    '0025-link-previews': linkPreviews(database.dialect),
    '0026-domain-well-known': domainWellKnown(database.dialect),
    '0027-webhook-endpoints': webhookEndpoints(database.dialect),
    '0028-webhook-deliveries': webhookDeliveries(database.dialect),
  };
}

/** The names of the migrations this version knows (the same on both dialects): `brief restore` compares a backup's with them. */
export function knownMigrations(): string[] {
  return Object.keys(migrationsFor({ dialect: 'sqlite' } as Database));
}

/**
 * Brings the schema up to date. Kysely's migrator takes a lock (an advisory lock on
 * PostgreSQL), so instances that start together do not migrate twice.
 */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(database) };
  const migrator = new Migrator({ db: database.db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Brings the schema up to `name` and no further: the tests make a database of an older schema with it. */
export async function migrateUpTo(database: Database, name: string): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(database) };
  const { error } = await new Migrator({ db: database.db, provider }).migrateTo(name);
  if (error) throw error;
}

/**
 * The migrations this code knows that the database has not recorded (GET /readyz asks, so it is
 * one small read: the migrator's own table, never created or locked here). Throws when the database
 * does not answer.
 */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(database.db);
  const applied = new Set(rows.map((row) => row.name));
  return Object.keys(migrationsFor(database)).filter((name) => !applied.has(name));
}
