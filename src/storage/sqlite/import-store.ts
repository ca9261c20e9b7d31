// `brief import` on SQLite (decision 0025): links written a batch at a time, each with a note of the row it
// came from (link_imports), so a second run skips what the first imported. One batch is one short write,
// its rows written with statements prepared once (import-batches.ts): one transaction of the background
// thread when the import is alone on the file, else one group commit of this connection.
import type { ImportedLink, ImportOutcome, ImportStore } from '../stores/imports.js';
import type { SqliteConnection } from './connection.js';
import { type ImportBatch, SqliteImportBatches } from './import-batches.js';

export class SqliteImportStore implements ImportStore {
  private batches: SqliteImportBatches | undefined;

  constructor(private readonly connection: SqliteConnection) {}

  write(
    source: string,
    links: readonly ImportedLink[],
    codeLength: (domain: string) => number,
    dryRun: boolean,
    alone = false,
  ): Promise<ImportOutcome[]> {
    const batch: ImportBatch = { source, links, codeLengths: lengthsOn(links, codeLength), dryRun };
    // Alone on the file, on the background thread (its own connection): this thread reads and checks
    // the next batch's rows meanwhile, so the two halves of the work overlap and the lock is hardly
    // ever free. With a server on the file, written here between reads, which leaves the lock free
    // about half the time: SQLite's busy wait only polls, so a server's write would otherwise wait
    // seconds behind batches written back to back.
    const { background } = this.connection;
    if (alone && background?.running) return background.importLinks(batch);
    return this.connection.writeSqlite((sqlite) => {
      this.batches ??= new SqliteImportBatches(sqlite);
      return this.batches.write(batch);
    });
  }
}

function lengthsOn(links: readonly ImportedLink[], codeLength: (domain: string) => number): Record<string, number> {
  const lengths: Record<string, number> = {};
  for (const { domain } of links) lengths[domain] ??= codeLength(domain);
  return lengths;
}
