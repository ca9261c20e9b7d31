// A fresh, migrated database for one test suite: SQLite always, PostgreSQL too when
// TEST_DATABASE_URL points at a server (a throw-away database is created and dropped).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { newLink } from '../../harness/links.js';
import { type Database, type Dialect, openDatabase } from '../../src/storage/database.js';
import { migrateToLatest, migrateUpTo } from '../../src/storage/migrate.js';
import { createTestDatabase } from '../scale-support/test-services.js';
import { POSTGRES_TEMPLATE_VAR, SQLITE_TEMPLATE_VAR } from './templates.js';

export { newLink };

const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;
/** Migrated databases to copy, when the run made them (scripts/run-tests.ts); a file run alone migrates its own. */
const sqliteTemplate = process.env[SQLITE_TEMPLATE_VAR] || undefined;
const postgresTemplate = process.env[POSTGRES_TEMPLATE_VAR] || undefined;

/** The dialects storage and HTTP tests run against. */
export const dialects: Dialect[] = ['sqlite', ...(postgresUrl ? (['postgres'] as const) : [])];

export interface TestDatabase {
  database: Database;
  /** A DATABASE_URL that reaches the same database (for a second app or a process). */
  url: string;
  cleanup(): Promise<void>;
}

/** With `migrate: false`, an empty database not migrated at all (for tests of a migration). */
export async function openTestDatabase(dialect: Dialect, { migrate = true } = {}): Promise<TestDatabase> {
  return dialect === 'postgres' ? openPostgres(migrate) : openSqlite(migrate);
}

/** The account and the link a migration's test made before the migration (databaseBefore). */
export interface OldLink {
  readonly accountId: number;
  readonly linkId: number;
  /** Its key (and code) on short.test. */
  readonly key: string;
}

/**
 * For a migration's test: an empty database brought up to migration `before` (its name), holding one account and one
 * public link to https://example.com/old made then, as a server of that version wrote them. The test migrates on.
 */
export async function databaseBefore(dialect: Dialect, before: string, key = 'oldcode'): Promise<TestDatabase & { old: OldLink }> {
  const opened = await openTestDatabase(dialect, { migrate: false });
  const db = opened.database.db;
  try {
    await migrateUpTo(opened.database, before);
    await sql`insert into accounts (name, created_at) values (${`before-${key}`}, 1000)`.execute(db);
    const account = await db.selectFrom('accounts').select('id').where('name', '=', `before-${key}`).executeTakeFirstOrThrow();
    await sql`insert into links (code, domain, key, slug, url, url_hash, title, account_id, status, created_at)
      values (${key}, 'short.test', ${key}, null, 'https://example.com/old', ${Buffer.alloc(32)}, null, ${account.id}, 'public', 1)`.execute(db);
    const link = await db.selectFrom('links').select('id').where('key', '=', key).executeTakeFirstOrThrow();
    return { ...opened, old: { accountId: Number(account.id), linkId: Number(link.id), key } };
  } catch (error) {
    await opened.cleanup();
    throw error;
  }
}

async function openSqlite(migrate: boolean): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-test-'));
  const file = path.join(dir, 'brief.db');
  if (migrate && sqliteTemplate) fs.copyFileSync(sqliteTemplate, file);
  const database = openDatabase({ kind: 'sqlite', path: file });
  if (migrate && !sqliteTemplate) await migrateToLatest(database);
  return {
    database,
    url: `sqlite:${file}`,
    async cleanup() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(migrate: boolean): Promise<TestDatabase> {
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  const template = migrate ? postgresTemplate : undefined;
  const scratch = await createTestDatabase(postgresUrl, template);
  // Suites run side by side on a busy machine: a wait for one of the pool's connections is not what they test.
  const database = openDatabase({ kind: 'postgres', url: scratch.url }, { poolMax: 10, connectTimeoutMs: 30_000 });
  try {
    if (migrate && !template) await migrateToLatest(database);
  } catch (error) {
    await database.close();
    await scratch.drop();
    throw error;
  }
  return {
    database,
    url: scratch.url,
    async cleanup() {
      await database.close();
      await scratch.drop();
    },
  };
}

/** The click count stored for a link (0 before its first flush). */
export async function storedClicks(database: Database, code: string): Promise<number> {
  const row = await database.db
    .selectFrom('links')
    .leftJoin('link_clicks', 'link_clicks.link_id', 'links.id')
    .select('link_clicks.clicks')
    .where('links.code', '=', code)
    .executeTakeFirstOrThrow();
  return Number(row.clicks ?? 0);
}

/** A plain link made straight through the store, to `https://example.com/{name}`: its id. */
export async function createStoreLink(database: Database, accountId: number, name: string): Promise<number> {
  const url = `https://example.com/${name}`;
  const outcome = await database.links.create(newLink(url, { accountId }));
  if (!('created' in outcome)) throw new Error(`the link to ${url} was not made`);
  return outcome.created.id;
}
