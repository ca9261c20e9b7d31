import fs from 'node:fs';
import path from 'node:path';

// The database holds URLs, comments, password hashes and click events: only the account that
// runs Brief may open it, so its folder is created 0700 and its files 0600 (decision 0020).
const PRIVATE_FOLDER = 0o700;
const PRIVATE_FILE = 0o600;
/** Any permission for the group or for others. */
const OPEN_TO_OTHERS = 0o077;

/** The files SQLite keeps beside a database in WAL mode (and the rollback journal of other modes). */
const COMPANIONS = ['-wal', '-shm', '-journal'];

/**
 * Creates the database's folder (0700) and an empty database file (0600) where they are missing,
 * before SQLite opens the file. SQLite gives the files it creates beside it later (-wal, -shm,
 * -journal) the database file's own mode, so they are 0600 too. What exists is left as it is.
 */
export function createPrivateFiles(file: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: PRIVATE_FOLDER });
  // 'a': create when missing, never truncate; the mode applies only to a file this call creates.
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE));
}

export interface OpenPath {
  readonly path: string;
  /** Permission bits, in octal as chmod takes them: "644". */
  readonly mode: string;
}

/** False for the in-memory databases (and SQLite URIs), which have no file of their own to guard. */
export function isDatabaseFile(file: string): boolean {
  return file !== '' && file !== ':memory:' && !file.startsWith('file:');
}

/** The database's folder and those of its files that exist and that other users of the machine may open. */
export function filesOpenToOthers(file: string): OpenPath[] {
  if (!isDatabaseFile(file)) return [];
  const resolved = path.resolve(file);
  const open: OpenPath[] = [];
  for (const candidate of [path.dirname(resolved), resolved, ...COMPANIONS.map((suffix) => resolved + suffix)]) {
    let mode: number;
    try {
      mode = fs.statSync(candidate).mode & 0o777;
    } catch {
      continue; // not there (yet): what Brief creates is private
    }
    if (mode & OPEN_TO_OTHERS) open.push({ path: candidate, mode: mode.toString(8) });
  }
  return open;
}
