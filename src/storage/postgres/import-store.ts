// `brief import` on PostgreSQL (decision 0025): links written a batch at a time, each with a note of the row it
// came from (link_imports), so a second run skips what the first imported. One batch is one transaction,
// written in chunks (import-rows.ts); SQLite writes its batches its own way (sqlite/import-store.ts).
import { type Kysely, sql } from 'kysely';
import type { Connection } from '../connection.js';
import { permutationOf } from '../sql/link-codes.js';
import { writeLinkTags } from '../sql/tag-store.js';
import { importedEventData, recordBulkLinkEvent } from '../sql/webhook-outbox.js';
import type { ImportedLink, ImportOutcome, ImportStore } from '../stores/imports.js';
import type { Tables } from '../tables.js';
import { writeRows } from './import-rows.js';

/** Rows a chunk: a chunk with a clash goes the one-row way whole, so it stays small. */
const SET_CHUNK = 2000;

/** Links imported before PostgreSQL's statistics are first refreshed (PostgresImportStore.refreshStatistics). */
const ANALYZE_FIRST = 10_000;

/** In the batch's transaction: the tags of the links it imported, an account's links in one write (sql/tag-store.ts). */
async function tagImported(db: Kysely<Tables>, links: readonly ImportedLink[], outcomes: readonly ImportOutcome[]): Promise<void> {
  const byAccount = new Map<number, Array<{ linkId: number; tags: readonly string[] }>>();
  outcomes.forEach((outcome, i) => {
    const { accountId, tags } = links[i]!;
    if (!('imported' in outcome) || tags.length === 0) return;
    byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), { linkId: outcome.imported.id, tags }]);
  });
  for (const [accountId, tagged] of byAccount) await writeLinkTags(db, accountId, tagged);
}

export class PostgresImportStore implements ImportStore {
  /** Links this store has imported, and how many it had at its last ANALYZE (refreshStatistics). */
  private imported = 0;
  private importedAtAnalyze = 0;

  constructor(private readonly connection: Connection) {}

  async write(source: string, links: readonly ImportedLink[], codeLength: (domain: string) => number, dryRun: boolean): Promise<ImportOutcome[]> {
    const codes = await permutationOf(this.connection.db);
    const outcomes = await this.connection.write(async (db) => {
      if (dryRun) await sql`savepoint import_dry`.execute(db);
      const written: ImportOutcome[] = [];
      for (let at = 0; at < links.length; at += SET_CHUNK) {
        written.push(...(await writeRows(db, codes, source, links.slice(at, at + SET_CHUNK), codeLength)));
      }
      await tagImported(db, links, written);
      // Their webhooks' events, in the batch's transaction (decision 0045).
      if (!dryRun) await recordBulkLinkEvent(db, 'links.imported', importedEventData(links, written), { source });
      if (dryRun) await sql`rollback to savepoint import_dry`.execute(db);
      return written;
    });
    if (!dryRun) {
      this.imported += outcomes.filter((outcome) => 'imported' in outcome).length;
      await this.refreshStatistics();
    }
    return outcomes;
  }

  /**
   * PostgreSQL plans a batch's lookups (the rows imported before, the keys taken) from its statistics of
   * the tables, which autovacuum refreshes a minute or more later, and never where it is off. Planned on
   * the figures of a small table, the lookup of 2,000 rows imported before read every row of the source
   * instead (4,468 links/s at 700,000 links; 19,160 just after an ANALYZE). So an import refreshes them
   * itself each time it has doubled what it wrote, from 10,000 links on: about seven times in a million,
   * each under half a second. Without the right to (not the tables' owner), it goes on as it is.
   */
  private async refreshStatistics(): Promise<void> {
    if (this.imported < Math.max(ANALYZE_FIRST, 2 * this.importedAtAnalyze)) return;
    this.importedAtAnalyze = this.imported;
    await sql`analyze link_imports, links`.execute(this.connection.db).catch(() => undefined);
  }
}
