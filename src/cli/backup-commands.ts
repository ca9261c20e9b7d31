// `brief backup FILE` and `brief restore FILE`: a consistent copy of the SQLite database taken while
// the server runs (SQLite's online backup API), and putting one back while it is stopped (decision 0023).
// The file work is storage/sqlite/backup-files.ts.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { backupSqliteFile, databaseInUse, inspectBriefDatabase, isDatabaseFile, knownMigrations, replaceSqliteFile } from '../services.js';
import { UsageError } from './cli-support.js';

/** The SQLite file DATABASE_URL names; PostgreSQL has its own tools, and this command never connects to it. */
function sqliteFile(command: 'backup' | 'restore'): string {
  const { database } = loadConfig();
  if (database.kind === 'postgres') {
    const tool = command === 'backup' ? 'pg_dump' : 'pg_restore (or psql for a plain dump)';
    throw new UsageError(`brief ${command} is for SQLite; DATABASE_URL is PostgreSQL: use ${tool}, see docs/operations.md#backups`);
  }
  if (!isDatabaseFile(database.path)) throw new UsageError(`brief ${command} needs a database file; DATABASE_URL is "${database.path}"`);
  return path.resolve(database.path);
}

const sameFile = (a: string, b: string) => path.resolve(a) === path.resolve(b);

async function backup(target: string): Promise<void> {
  const source = sqliteFile('backup');
  const destination = path.resolve(target);
  if (sameFile(source, destination)) throw new UsageError(`${target} is the database itself: give the backup another name`);
  if (fs.existsSync(destination)) throw new UsageError(`${target} exists: give the backup a new name (or remove the old one)`);
  if (!fs.existsSync(source)) throw new UsageError(`there is no database at ${source} (DATABASE_URL) to back up`);
  const started = Date.now();
  const { links, bytes } = await backupSqliteFile(source, destination);
  console.log(`backed up ${source} to ${destination}: ${links} live links, ${(bytes / 1e6).toFixed(1)} MB, in ${Date.now() - started} ms`);
}

function restore(file: string): void {
  const live = sqliteFile('restore');
  const source = path.resolve(file);
  if (sameFile(source, live)) throw new UsageError(`${file} is the database itself`);
  if (!fs.existsSync(source)) throw new UsageError(`there is no file ${file}`);
  const found = inspectBriefDatabase(source);
  // A newer Brief's database would not start with this version (its migrator refuses unknown migrations).
  const known = new Set(knownMigrations());
  const newer = found.migrations.filter((name) => !known.has(name));
  if (newer.length > 0) {
    throw new UsageError(
      `${file} comes from a newer Brief (migration ${newer.join(', ')} is unknown to this version): restore it with that version; nothing was changed`,
    );
  }
  if (databaseInUse(live)) {
    throw new UsageError(`a server (or another brief command) has ${live} open: stop it first, then run brief restore again`);
  }
  replaceSqliteFile(live, source);
  console.log(`restored ${source} into ${live}: ${found.links} live links, ${found.migrations.length} migrations applied`);
  console.log('start the server: it applies any migration this version adds');
}
export function backupCommands(program: Command): void {
  program
    .command('backup <file>')
    .description('write a consistent copy of the SQLite database to FILE (a new file, 0600) while the server runs')
    .action((file: string) => backup(file));
  program
    .command('restore <file>')
    .description('replace the SQLite database with the backup FILE; the server must be stopped')
    .action((file: string) => restore(file));
}
