// `brief import FILE --format …`: links from a Brief export or another shortener
// (decision 0025; docs/operations.md, "Import"). Rows that cannot go in are listed on stderr with
// where they were and why; a progress line on a terminal; a summary on stdout.
import { type Command, Option } from 'commander';
import { type DatabaseTarget, loadConfig } from '../config.js';
import { briefRows, minimalCsvRows } from '../import/brief-formats.js';
import { MalformedInput } from '../import/csv-records.js';
import { bitlyRows, kuttRows, shlinkRows } from '../import/hosted-formats.js';
import { Importer, type ImportTally } from '../import/importer.js';
import { type OpenedFile, openText, UnreadableFile } from '../import/input.js';
import type { SourceRow } from '../import/source-rows.js';
import { yourlsRows } from '../import/yourls.js';
import { consoleLog } from '../log.js';
import { createServices, databaseInUse, isDatabaseFile, openMigratedDatabase } from '../services.js';
import { openSharedState } from '../shared-state/shared-state.js';
import { commandConfig, UsageError } from './cli-support.js';

const READERS = {
  brief: briefRows,
  csv: minimalCsvRows,
  yourls: yourlsRows,
  shlink: shlinkRows,
  kutt: kuttRows,
  bitly: bitlyRows,
} satisfies Record<string, (file: OpenedFile) => AsyncIterable<SourceRow>>;

type Format = keyof typeof READERS;

interface ImportCommandOptions {
  format: Format;
  account?: string;
  dryRun?: boolean;
}

const PROGRESS_EVERY_MS = 250;

/** The progress line: on a terminal only, rewritten in place at most four times a second. */
function progressLine(started: number): { update(tally: ImportTally, force?: boolean): void; clear(): void } {
  const tty = process.stderr.isTTY === true;
  let shown = 0;
  let drawn = false;
  return {
    update(tally, force = false) {
      const now = Date.now();
      if (!tty || (!force && now - shown < PROGRESS_EVERY_MS)) return;
      shown = now;
      drawn = true;
      const rate = Math.round(tally.rows / Math.max((now - started) / 1000, 0.001));
      process.stderr.write(`\r\x1b[K${tally.rows} rows, ${rate}/s: ${tally.imported} imported, ${tally.skipped} skipped, ${tally.refused} errors`);
    },
    clear() {
      if (drawn) process.stderr.write('\r\x1b[K');
    },
  };
}

function summary(tally: ImportTally, seconds: number, dryRun: boolean): string {
  const rate = Math.round(tally.rows / Math.max(seconds, 0.001));
  const verb = dryRun ? 'would import' : 'imported';
  return (
    `${dryRun ? 'dry run, nothing written: ' : ''}${tally.rows} rows in ${seconds.toFixed(1)} s (${rate} rows/s): ` +
    `${verb} ${tally.imported}, skipped ${tally.skipped} imported before, ${tally.refused} could not be imported; ` +
    `longest write ${Math.round(tally.longestWriteMs)} ms`
  );
}

/**
 * Whether no other process has the SQLite database open (asked before this one opens it): then the
 * import writes its batches back to back, as fast as it can; with a server on the file it leaves the
 * lock free between batches, so that the server's writes never wait long (importer.ts).
 */
function aloneOn(database: DatabaseTarget): boolean {
  if (database.kind !== 'sqlite' || !isDatabaseFile(database.path)) return false;
  try {
    return !databaseInUse(database.path);
  } catch {
    return false; // cannot be asked (a damaged file): the careful way, and the open below says what is wrong
  }
}

async function importLinks(file: string, options: ImportCommandOptions): Promise<void> {
  const environment = loadConfig();
  let opened: OpenedFile;
  try {
    opened = await openText(file);
  } catch (error) {
    if (error instanceof UnreadableFile) throw new UsageError(error.message);
    throw error;
  }
  const alone = aloneOn(environment.database);
  const database = await openMigratedDatabase(environment, 2);
  // With REDIS_URL, running servers hear of each imported link at once (as of a link made through the API).
  const shared = openSharedState(environment, consoleLog);
  const started = Date.now();
  const progress = progressLine(started);
  let tally: ImportTally = { rows: 0, imported: 0, skipped: 0, refused: 0, longestWriteMs: 0 };
  try {
    // A row without a domain goes on the default domain of the server on this database, not this environment's.
    const config = await commandConfig(environment, database);
    const services = createServices(config, database, shared, consoleLog);
    if (options.account !== undefined) {
      await services.accounts.byName(options.account).catch(() => {
        throw new UsageError(`No account named "${options.account}" (brief account list shows them)`);
      });
    }
    await services.blocklist.reloadFile();
    await services.blocklist.refresh();
    const importer = new Importer({
      accounts: services.accounts,
      domains: services.domains,
      blockedHosts: services.blocklist.hosts,
      changes: services.changes,
      store: database.imports,
      allowUrlCredentials: config.allowUrlCredentials,
    });
    tally = await importer.run(READERS[options.format](opened), {
      source: options.format === 'csv' ? 'csv' : options.format,
      account: options.account,
      dryRun: options.dryRun === true,
      alone,
      onProgress: (now) => {
        tally = now;
        progress.update(now);
      },
      onProblem: ({ where, reason }) => {
        progress.clear();
        process.stderr.write(`${where}: ${reason}\n`);
      },
    });
    progress.clear();
    console.log(summary(tally, (Date.now() - started) / 1000, options.dryRun === true));
  } catch (error) {
    progress.clear();
    if (error instanceof MalformedInput) {
      if (tally.rows > 0) console.log(summary(tally, (Date.now() - started) / 1000, options.dryRun === true));
      const rerun = tally.imported > 0 && options.dryRun !== true ? '; the rows imported so far are skipped when it is run again' : '';
      throw new UsageError(`${file} cannot be read as ${options.format}: ${error.message}${rerun}`);
    }
    throw error;
  } finally {
    await shared.close();
    await database.close();
  }
}

export function importCommands(program: Command): void {
  program
    .command('import <file>')
    .description('import links from a Brief export or another shortener; rows already imported are skipped')
    .addOption(
      new Option('--format <format>', 'brief (brief export, jsonl or csv), csv (url, slug, domain, title, created), yourls, shlink, kutt, bitly')
        .choices(Object.keys(READERS))
        .makeOptionMandatory(),
    )
    .option('--account <name>', 'put every link in this account (default: a Brief export\'s owner, else "anonymous")')
    .option('--dry-run', 'check every row and report what an import would do, writing nothing')
    .action((file: string, options: ImportCommandOptions) => importLinks(file, options));
}
