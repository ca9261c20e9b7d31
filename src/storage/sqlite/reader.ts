import SQLite from 'better-sqlite3';

/**
 * A second, read-only connection to a SQLite file for synchronous lookups on the
 * redirect path. Being separate from the writer, it sees only committed rows (WAL
 * snapshot), never a group-commit batch that is still open.
 */
export function openSqliteReader(path: string): SQLite.Database {
  const reader = new SQLite(path, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  // A small page cache: with the link index in memory, the reader serves only dedupe
  // reads and keys the index does not hold.
  reader.pragma('cache_size = -4096');
  return reader;
}
