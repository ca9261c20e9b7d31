// The SQLite files behind `brief backup` and `brief restore` (decision 0023): a consistent copy made with
// SQLite's online backup API, the checks a restore makes, and the swap of the database file.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/** What a backup or a restore refuses, in words for the command line (nothing was changed). */
export class DatabaseFileError extends Error {}

const PRIVATE_FOLDER = 0o700;
const PRIVATE_FILE = 0o600;
/** The files SQLite keeps beside a database: a restore removes them, they belong to the database it replaces. */
const COMPANIONS = ['-wal', '-shm', '-journal'];
/** Every page in one backup step: one read transaction, so one snapshot, which writers never wait for (WAL). */
const ALL_PAGES = 0x7fffffff;
/** How long `restore` waits for the database's lock before it concludes that a server holds it. */
const LOCK_WAIT_MS = 250;
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes a rename in `folder` durable (a no-op where folders cannot be opened). */
function syncFolder(folder: string): void {
  let fd: number;
  try {
    fd = fs.openSync(folder, 'r');
  } catch {
    return;
  }
  try {
    fs.fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the rename is then as durable as they make it.
  } finally {
    fs.closeSync(fd);
  }
}

function countLinks(db: SQLite.Database): number {
  return (db.prepare('select count(*) as n from links where deleted_at is null').get() as { n: number }).n;
}

/** What `restore` checks before it touches anything: FILE is a whole SQLite database made by Brief. */
export function inspectBriefDatabase(file: string): { links: number; migrations: string[] } {
  let header: Buffer;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      header = Buffer.alloc(SQLITE_HEADER.length);
      fs.readSync(fd, header, 0, header.length, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    throw new DatabaseFileError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (!header.equals(SQLITE_HEADER)) throw new DatabaseFileError(`${file} is not a SQLite database (nothing was changed)`);
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new DatabaseFileError(`${file} is damaged (SQLite's check says: ${String(check)}); nothing was changed`);
    const tables = new Set((db.prepare("select name from sqlite_master where type = 'table'").all() as Array<{ name: string }>).map((r) => r.name));
    if (!tables.has('kysely_migration') || !tables.has('links')) {
      throw new DatabaseFileError(`${file} is a SQLite database but not a Brief database (no migration table or links table); nothing was changed`);
    }
    const migrations = (db.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map((r) => r.name);
    return { links: countLinks(db), migrations };
  } catch (error) {
    if (error instanceof DatabaseFileError) throw error;
    // SQLITE_CORRUPT, SQLITE_NOTADB: a truncated copy, or a file that only starts like a database.
    throw new DatabaseFileError(`${file} is damaged or truncated (${(error as Error).message}); nothing was changed`);
  } finally {
    db?.close();
  }
}

/**
 * Whether another process has the database open. Every connection to a database in WAL mode holds a
 * shared lock on the file for as long as it is open (SQLite relies on it to know which connection is the
 * last); a connection in exclusive locking mode must take an exclusive lock to read, so it is refused
 * while any other connection, idle or not, exists. The locks are the operating system's (POSIX advisory
 * locks): they say nothing of a server on another machine sharing the file over a network file system.
 */
export function databaseInUse(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const db = new SQLite(file, { timeout: LOCK_WAIT_MS, fileMustExist: true });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.prepare('select count(*) from sqlite_master').get();
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
    // A damaged database cannot be asked: whether a server has it open stays unknown, so nothing is done.
    throw new DatabaseFileError(
      `the database ${file} cannot be checked (${(error as Error).message}), so whether a server has it open is unknown: ` +
        'stop the server, move the file away, then run brief restore again',
    );
  } finally {
    db.close();
  }
}

/**
 * Copies the database `source` into the new file `destination` (0600), as one snapshot, while other
 * processes read and write it. Answers the copy's live links and size.
 */
export async function backupSqliteFile(source: string, destination: string): Promise<{ links: number; bytes: number }> {
  fs.mkdirSync(path.dirname(destination), { recursive: true, mode: PRIVATE_FOLDER });
  // Written beside the destination and renamed into place: a backup that fails leaves no file that looks whole.
  const partial = `${destination}.partial`;
  fs.rmSync(partial, { force: true });
  // Created private before SQLite writes a page into it: it holds everything the database holds.
  fs.closeSync(fs.openSync(partial, 'wx', PRIVATE_FILE));
  try {
    const db = new SQLite(source, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      await db.backup(partial, { progress: () => ALL_PAGES });
    } finally {
      db.close();
    }
    // The copy carries the live database's WAL mode in its header; a backup is one file on its own.
    const copy = new SQLite(partial, { fileMustExist: true });
    let links: number;
    try {
      copy.pragma('journal_mode = DELETE');
      links = countLinks(copy);
    } finally {
      copy.close();
    }
    for (const suffix of COMPANIONS) fs.rmSync(partial + suffix, { force: true });
    fs.chmodSync(partial, PRIVATE_FILE);
    syncFile(partial);
    fs.renameSync(partial, destination);
    syncFolder(path.dirname(destination));
    return { links, bytes: fs.statSync(destination).size };
  } catch (error) {
    for (const suffix of ['', ...COMPANIONS]) fs.rmSync(partial + suffix, { force: true });
    throw new DatabaseFileError(`backup failed, nothing was written to ${destination}: ${(error as Error).message}`);
  }
}

/** Replaces the database `live` (which nothing may have open) with a copy of `source`, 0600, its old -wal and -shm removed. */
export function replaceSqliteFile(live: string, source: string): void {
  fs.mkdirSync(path.dirname(live), { recursive: true, mode: PRIVATE_FOLDER });
  const incoming = `${live}.restoring`;
  fs.rmSync(incoming, { force: true });
  fs.closeSync(fs.openSync(incoming, 'wx', PRIVATE_FILE));
  try {
    fs.copyFileSync(source, incoming);
    fs.chmodSync(incoming, PRIVATE_FILE); // the copy takes the source file's mode
    syncFile(incoming);
  } catch (error) {
    fs.rmSync(incoming, { force: true });
    throw new DatabaseFileError(`cannot copy ${source}: ${(error as Error).message}; nothing was changed`);
  }
  // A -wal left by the replaced database would be replayed into the restored one: it goes first.
  for (const suffix of COMPANIONS) fs.rmSync(live + suffix, { force: true });
  fs.renameSync(incoming, live);
  syncFolder(path.dirname(live));
}
