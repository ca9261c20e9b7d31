import SQLite from 'better-sqlite3';

/**
 * A second, read-only connection to a SQLite file for synchronous lookups on the
 * redirect path. Being separate from the writer, it sees only committed rows (WAL
 * snapshot), never a group-commit batch that is still open. None for ':memory:'.
 */
export function openSqliteReader(path: string): SQLite.Database | undefined {
  if (path === ':memory:' || path === '') return undefined;
  const reader = new SQLite(path, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  // A modest page cache for index pages; RSS stays bounded at 1M links.
  reader.pragma('cache_size = -16384');
  return reader;
}
