// Migrated template databases, made once for a test run (scripts/run-tests.ts) and copied for each suite by
// test/support/database.ts: a SQLite file copied, a PostgreSQL database made with CREATE DATABASE … TEMPLATE.
// Migrating costs each suite more than its copy does (every migration, on every dialect, a suite).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { adminQuery, createTestDatabase, TEST_DATABASE_URL } from '../scale-support/test-services.js';

/** The variables that hand the templates to the suites. */
export const SQLITE_TEMPLATE_VAR = 'TEST_SQLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_VAR = 'TEST_POSTGRES_TEMPLATE';

export interface Templates {
  /** TEST_SQLITE_TEMPLATE (a file) and, with TEST_DATABASE_URL, TEST_POSTGRES_TEMPLATE (a database's name). */
  readonly env: Record<string, string>;
  drop(): Promise<void>;
}

export async function prepareTemplates(): Promise<Templates> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-template-'));
  const file = path.join(dir, 'template.db');
  const sqlite = openDatabase({ kind: 'sqlite', path: file });
  await migrateToLatest(sqlite);
  // Closing checkpoints the WAL into the file, so the file alone is the whole database.
  await sqlite.close();
  const env: Record<string, string> = { [SQLITE_TEMPLATE_VAR]: file };
  let dropPostgres = async () => {};
  if (TEST_DATABASE_URL) {
    const template = await createTestDatabase(TEST_DATABASE_URL);
    const postgres = openDatabase({ kind: 'postgres', url: template.url });
    try {
      await migrateToLatest(postgres);
    } finally {
      await postgres.close();
    }
    // Marked as a template: no one connects to it by mistake while suites copy it.
    await adminQuery(TEST_DATABASE_URL, `alter database ${template.name} with allow_connections false`);
    env[POSTGRES_TEMPLATE_VAR] = template.name;
    dropPostgres = template.drop;
  }
  return {
    env,
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
      await dropPostgres();
    },
  };
}
