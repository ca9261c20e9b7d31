import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { CodePermutation } from '../sql/code-permutation.js';
import { STORED_KEY } from '../sql/link-codes.js';
import { TARGET_COLUMNS, type TargetRow, toTarget } from '../sql/link-rows.js';
import type { LinkTarget, SyncLinkReads } from '../stores/links.js';
import { permutationSync } from './coded-ids.js';

/** The redirect path's reads on a SQLite file's read-only connection, as prepared statements. */
export class SqliteLinkReads implements SyncLinkReads {
  private lookups:
    | { byId: Statement<[number, string, string], TargetRow>; byKey: Statement<[string, string], TargetRow>; codes: CodePermutation }
    | undefined;

  constructor(private readonly reader: () => SQLite.Database) {}

  /** As SqlLinkStore.target (sql/link-store.ts): a code by the id it decodes to, then a slug or a code stored before by its index. */
  target(domain: string, key: string): LinkTarget | null {
    const { byId, byKey, codes } = this.prepared();
    const id = codes.decode(key);
    if (id !== undefined) {
      const row = byId.get(id, domain, key);
      if (row) return toTarget(row);
    }
    return toTarget(byKey.get(domain, key));
  }

  private prepared() {
    if (this.lookups) return this.lookups;
    const reader = this.reader();
    const columns = TARGET_COLUMNS.join(', ');
    this.lookups = {
      byId: reader.prepare(`select ${columns} from links where id = ? and domain = ? and key = ? and deleted_at is null`),
      byKey: reader.prepare(`select ${columns} from links where domain = ? and key = ? and ${STORED_KEY} and deleted_at is null`),
      codes: permutationSync(reader),
    };
    return this.lookups;
  }

  highestId(): number {
    return this.reader().prepare<[], number | null>('select max(id) from links').pluck().get() ?? 0;
  }

  eachNewest(limit: number, visit: (domain: string, key: string, id: number, url: string, blocked: boolean) => void): void {
    const rows = this.reader()
      .prepare<[number], [string, string, number, string, string]>(
        'select domain, key, id, url, status from links where deleted_at is null and password_hash is null and expires_at is null and forward_query = 1 and rules is null and max_visits is null and preview_title is null order by id desc limit ?',
      )
      .raw()
      .iterate(limit);
    for (const [domain, key, id, url, status] of rows) visit(domain, key, id, url, status === 'blocked');
  }

  releaseMemory(): void {
    this.reader().pragma('shrink_memory');
  }
}
