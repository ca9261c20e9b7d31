import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { CodePermutation } from '../sql/code-permutation.js';
import { STORED_CODE, STORED_KEY } from '../sql/link-codes.js';
import { RESERVED_KEYS } from '../stores/links.js';
import type { LinkRow } from '../tables.js';

const SECRET = 'select secret from link_code_secret where id = 1';

/** The permutation of the database's secret, read with a synchronous SQLite connection. */
export function permutationSync(sqlite: SQLite.Database): CodePermutation {
  const secret = sqlite.prepare<[], Buffer>(SECRET).pluck().get();
  if (!secret) throw new Error('No code secret: the database is not migrated');
  return new CodePermutation(secret);
}

/**
 * The ids and codes of new links on SQLite's writing connection, inside the write that inserts
 * them (so no other writer comes between the read of the last id and the insert). The next id is
 * the table's AUTOINCREMENT counter plus one; an id whose code a key or code stored before holds
 * (on the domain, or as a code anywhere), or that spells a reserved word, is passed over: it stays
 * a gap, and no link ever has that code.
 */
export class SqliteCodedIds {
  private statements:
    | {
        lock: Statement;
        last: Statement<[], number | null>;
        storedKey: Statement<[string, string], number>;
        storedCode: Statement<[string], number>;
        byId: Statement<[number], LinkRow>;
      }
    | undefined;
  private permutation: CodePermutation | undefined;

  /**
   * A write that changes nothing, run before this write's first read: it takes the write lock (waiting
   * busy_timeout for another process's writer, such as `brief import`) before a read takes a snapshot,
   * which that writer's commit would make stale (SQLITE_BUSY at the insert, with no wait). A group
   * commit's transaction is deferred, and the insert is no longer its first statement.
   */
  lockForWrite(sqlite: SQLite.Database): void {
    this.prepared(sqlite).lock.run();
  }

  /** The permutation of this database's secret. */
  codes(sqlite: SQLite.Database): CodePermutation {
    this.permutation ??= permutationSync(sqlite);
    return this.permutation;
  }

  /** The id and code the next link on `domain` takes, with codes of `length` characters (or more, past 62^length ids). */
  next(sqlite: SQLite.Database, domain: string, length: number): { id: number; code: string } {
    const { last, storedKey, storedCode } = this.prepared(sqlite);
    const codes = this.codes(sqlite);
    for (let id = (last.get() ?? 0) + 1; ; id++) {
      const code = codes.codeFor(id, length);
      if (RESERVED_KEYS.has(code.toLowerCase())) continue;
      if (storedKey.get(domain, code) !== undefined || storedCode.get(code) !== undefined) continue;
      return { id, code };
    }
  }

  /** The link, live or deleted, whose code made from its id is `key` on `domain`: a slug may not take it. */
  codedHolder(sqlite: SQLite.Database, domain: string, key: string): LinkRow | undefined {
    const id = this.codes(sqlite).decode(key);
    if (id === undefined) return undefined;
    const row = this.prepared(sqlite).byId.get(id);
    return row && row.domain === domain && row.key === key ? row : undefined;
  }

  /** A link of any domain whose code made from its id is `code`. */
  codedWithCode(sqlite: SQLite.Database, code: string): LinkRow | undefined {
    const id = this.codes(sqlite).decode(code);
    if (id === undefined) return undefined;
    const row = this.prepared(sqlite).byId.get(id);
    return row?.code === code ? row : undefined;
  }

  private prepared(sqlite: SQLite.Database) {
    this.statements ??= {
      lock: sqlite.prepare('delete from link_code_secret where 0'),
      last: sqlite.prepare<[], number | null>("select seq from sqlite_sequence where name = 'links'").pluck(),
      storedKey: sqlite.prepare<[string, string], number>(`select 1 from links where domain = ? and key = ? and ${STORED_KEY}`).pluck(),
      storedCode: sqlite.prepare<[string], number>(`select 1 from links where code = ? and ${STORED_CODE}`).pluck(),
      byId: sqlite.prepare<[number], LinkRow>('select * from links where id = ?'),
    };
    return this.statements;
  }
}
