// `brief export`: every live link to standard output, as JSON lines or CSV, streamed (decision 0023).
import { type Command, Option } from 'commander';
import { loadConfig } from '../config.js';
import { PREVIEW_COLUMNS } from '../import/brief-formats.js';
import { spreadsheetSafe } from '../import/csv-cells.js';
import { EXPORTED_FIELDS, type ExportedLink, exportedLinks, openMigratedDatabase } from '../services.js';
import { UsageError } from './cli-support.js';

/**
 * A CSV field as RFC 4180 writes it (quoted when it holds a quote, a comma, a line break or edge spaces),
 * after spreadsheetSafe: every column, numbers and dates too, so no cell opens as a formula (decision 0032).
 */
export function csvField(value: unknown): string {
  const text = spreadsheetSafe(value === null || value === undefined ? '' : String(value));
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (values: unknown[]) => `${values.map(csvField).join(',')}\r\n`;

/**
 * The CSV's columns: the exported fields, the card as three (PREVIEW_COLUMNS), so that its title, description and
 * image are plain cells a spreadsheet shows and edits, each under the spreadsheet-safe rule as every cell is.
 */
const CSV_COLUMNS = EXPORTED_FIELDS.flatMap((field) => (field === 'preview' ? PREVIEW_COLUMNS : [field]));

/** A link's field as CSV cells: its rules and its tags as JSON text (empty: none), its card as three (empty: none). */
function cellsOf(link: ExportedLink, field: keyof ExportedLink): unknown[] {
  if (field === 'rules' || field === 'tags') return [link[field].length === 0 ? '' : JSON.stringify(link[field])];
  if (field === 'preview') return [link.preview?.title, link.preview?.description, link.preview?.image];
  return [link[field]];
}

/** What `brief export --format csv` writes: the header, then each link a line. */
export const exportCsv = {
  header: csvLine(CSV_COLUMNS),
  line: (link: ExportedLink) => csvLine(EXPORTED_FIELDS.flatMap((field) => cellsOf(link, field))),
};

const formats: Record<'jsonl' | 'csv', { header?: string; line(link: ExportedLink): string }> = {
  jsonl: { line: (link) => `${JSON.stringify(link)}\n` },
  csv: exportCsv,
};

class OutputClosed extends Error {}

/** Writes to stdout, waiting while its buffer is full: memory stays bounded however many links there are. */
function writer(): (text: string) => Promise<void> {
  let closed = false;
  process.stdout.on('error', () => {
    closed = true; // EPIPE: the reader went away (`brief export | head`)
  });
  return async (text) => {
    if (closed) throw new OutputClosed();
    if (!process.stdout.write(text)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          process.stdout.off('drain', done);
          process.stdout.off('error', done);
          resolve();
        };
        process.stdout.on('drain', done);
        process.stdout.on('error', done);
      });
    }
  };
}

async function exportLinks(options: { format: 'jsonl' | 'csv'; account?: string }): Promise<void> {
  const format = formats[options.format];
  const database = await openMigratedDatabase(loadConfig(), 2);
  try {
    let accountId: number | null = null;
    if (options.account !== undefined) {
      const account = await database.accounts.byName(options.account);
      if (!account) throw new UsageError(`No account named "${options.account}" (brief account list shows them)`);
      accountId = account.id;
    }
    const write = writer();
    if (format.header) await write(format.header);
    for await (const link of exportedLinks(database, accountId)) await write(format.line(link));
  } catch (error) {
    if (!(error instanceof OutputClosed)) throw error;
  } finally {
    await database.close();
  }
}

export function exportCommands(program: Command): void {
  program
    .command('export')
    .description('write every live link to standard output (never a password hash), streamed')
    .addOption(
      new Option('--format <format>', 'jsonl: one JSON object a line; csv: a header, then one row a link').choices(['jsonl', 'csv']).default('jsonl'),
    )
    .option('--account <name>', "only this account's links")
    .action((options: { format: 'jsonl' | 'csv'; account?: string }) => exportLinks(options));
}
