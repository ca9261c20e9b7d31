// What every import format is read into: one row a link, in the terms Brief keeps, with where in the
// file it was (decision 0025). Each format's reader fills in what its shortener has.
import { type CsvRecord, csvRecords, headerName, MalformedInput } from './csv-records.js';

export interface SourceRow {
  /** Where in the file: "line 12" (CSV, SQL, JSON lines) or "item 3" (a JSON document). */
  readonly where: string;
  readonly url?: string;
  /** The key it had (slug, short code, keyword, back-half); absent: a new code. */
  readonly key?: string;
  /** The key was a code Brief generated (a Brief export's isSlug false). */
  readonly keyIsCode?: boolean;
  /** The short domain it had; absent: Brief's default domain. */
  readonly domain?: string;
  readonly title?: string;
  readonly comment?: string;
  /** Epoch milliseconds; absent: now. */
  readonly created?: number;
  readonly expires?: number;
  readonly clicks?: number;
  readonly blocked?: boolean;
  readonly forwardQuery?: boolean;
  /** A Brief export's redirect rules, as read (checked by the importer as the API checks them). */
  readonly rules?: readonly unknown[];
  /** Its visit limit, as read (checked by the importer as the API checks it). */
  readonly maxVisits?: number;
  /** The visits already counted against that limit where it came from (people only where the format tells them apart). */
  readonly limitedVisits?: number;
  /** Its tags' names, as read (checked by the importer as the API checks them). */
  readonly tags?: readonly string[];
  /** A Brief export's card for preview fetchers, as read (checked by the importer as the API checks it); absent: none. */
  readonly preview?: { readonly title: string; readonly description: string | null; readonly image: string | null };
  /** The link had a password, which no export carries: it is not imported (it would become public). */
  readonly hasPassword?: boolean;
  /** A Brief export's owner (an account name). */
  readonly owner?: string;
  /** Why the row cannot be read at all (a field that is not a number or date, too few columns). */
  readonly problem?: string;
}

/** A format's reader: the rows of a file, given its text as it streams in. */
export type RowReader = (text: AsyncIterable<string>) => AsyncIterable<SourceRow>;

/** A CSV column a format reads, by the header names it may have (compared as headerName() leaves them). */
export type Columns<Name extends string> = Record<Name, readonly string[]>;

/**
 * A CSV file's rows as objects of the columns asked for (absent columns: undefined). The header is
 * its first record; without a column named as `required` says, the whole file is refused.
 */
export async function* csvObjects<C extends Columns<string>, Name extends keyof C & string = keyof C & string>(
  records: AsyncIterable<CsvRecord>,
  columns: C,
  required: Name,
  formatName: string,
): AsyncGenerator<{ where: string; values: Partial<Record<keyof C, string>>; problem?: string }> {
  let index: Array<[keyof C, number]> | undefined;
  let width = 0;
  for await (const record of records) {
    if (index === undefined) {
      const names = record.fields.map(headerName);
      width = names.length;
      index = [];
      for (const [name, aliases] of Object.entries(columns) as Array<[keyof C, readonly string[]]>) {
        const at = names.findIndex((cell) => aliases.includes(cell));
        if (at >= 0) index.push([name, at]);
      }
      if (!index.some(([name]) => name === required)) {
        throw new MalformedInput(
          `the first line has no ${(columns[required] as readonly string[]).join(' / ')} column, so this is not ${formatName} CSV (its header: ${record.fields.slice(0, 8).join(', ')})`,
        );
      }
      continue;
    }
    const where = `line ${record.line}`;
    if (record.fields.length < width) {
      yield { where, values: {}, problem: `it has ${record.fields.length} fields where the header has ${width} (a line cut short?)` };
      continue;
    }
    const values: Partial<Record<keyof C, string>> = {};
    for (const [name, at] of index) values[name] = record.fields[at];
    yield { where, values };
  }
  if (index === undefined) throw new MalformedInput('the file is empty');
}

/**
 * A CSV file's rows (its text as it streams in), each record's columns (csvObjects) read by `read`: a record cut
 * short, or a field `read` cannot read (RowProblem), is that row's problem.
 */
export async function* csvRows<C extends Columns<string>, Name extends keyof C & string = keyof C & string>(
  text: AsyncIterable<string>,
  columns: C,
  required: Name,
  formatName: string,
  read: (values: Partial<Record<keyof C, string>>) => Omit<SourceRow, 'where'>,
): AsyncGenerator<SourceRow> {
  for await (const { where, values, problem } of csvObjects(csvRecords(text), columns, required, formatName)) {
    yield problem ? { where, problem } : readRow(where, () => read(values));
  }
}

/** Empty strings are absent. */
export const text = (value: string | null | undefined): string | undefined =>
  value === undefined || value === null || value === '' ? undefined : value;

/** A count: a whole number of at least 0; absent when empty. */
export function count(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isSafeInteger(n) || n < 0) throw new RowProblem(`its ${field} "${String(value)}" is not a whole number`);
  return n;
}

/**
 * A time as the formats write them: ISO 8601 (with or without its zone, Bitly's "+0000"), SQL's
 * "2024-05-01 12:00:00" (read as UTC), or epoch seconds; absent when empty.
 */
export function time(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return value < 1e11 ? value * 1000 : value;
  const raw = String(value).trim();
  if (/^\d+$/.test(raw)) return Number(raw) < 1e11 ? Number(raw) * 1000 : Number(raw);
  let iso = raw.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(iso)) iso += 'Z';
  if (/^\d{4}-\d{2}-\d{2}/.test(iso)) {
    const at = Date.parse(iso);
    if (!Number.isNaN(at)) return at;
    throw new RowProblem(`its ${field} "${raw}" is not a date`);
  }
  // A spelled-out date as a dashboard may write it ("Jan 2, 2021 3:04 PM"), read in this machine's zone.
  const spelled = /[a-z]{3}/i.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(spelled)) throw new RowProblem(`its ${field} "${raw}" is not a date`);
  return spelled;
}

/**
 * Tags as a format writes them: a JSON list of names, or one CSV cell of names joined by `|` (Shlink's web client
 * today) or, without one, by commas (its older exports, Bitly's); absent when there are none.
 */
export function tagList(value: unknown, field = 'tags'): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const names =
    typeof value === 'string'
      ? value.split(value.includes('|') ? '|' : ',').filter((name) => name.trim() !== '')
      : Array.isArray(value)
        ? value
        : null;
  if (names === null || names.some((name) => typeof name !== 'string')) throw new RowProblem(`its ${field} are not a list of names`);
  return names.length === 0 ? undefined : (names as string[]);
}

/** A field of one row that cannot be read: the row is reported, the rest go on. */
export class RowProblem extends Error {}

/** The host and key of a short URL ("https://sho.rt/abc", "sho.rt/abc"): its domain and key there. */
export function shortUrlParts(value: string | undefined): { domain?: string; key?: string } {
  if (!value) return {};
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
    const key = decodeURIComponent(url.pathname.replace(/^\//, ''));
    return { domain: url.host.toLowerCase(), key: key === '' ? undefined : key };
  } catch {
    throw new RowProblem(`its short URL "${value}" is not a URL`);
  }
}

/** Runs a row's field reads: a RowProblem becomes the row's problem. */
export function readRow(where: string, read: () => Omit<SourceRow, 'where'>): SourceRow {
  try {
    return { where, ...read() };
  } catch (error) {
    if (error instanceof RowProblem) return { where, problem: error.message };
    throw error;
  }
}
