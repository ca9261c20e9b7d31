// `--format brief` (what `brief export` writes, JSON lines or CSV: storage/sql/link-export.ts) and
// `--format csv` (the documented minimal columns: url, and optionally slug, domain, title, created).
import { spreadsheetValue } from './csv-cells.js';
import { csvRecords, MalformedInput } from './csv-records.js';
import { looksLikeJson, type OpenedFile } from './input.js';
import { type Columns, count, csvObjects, csvRows, RowProblem, readRow, type SourceRow, tagList, text, time } from './source-rows.js';

const BRIEF_COLUMNS = {
  domain: ['domain'],
  key: ['key'],
  isSlug: ['isslug'],
  url: ['url'],
  title: ['title'],
  comment: ['comment'],
  owner: ['owner'],
  created: ['created'],
  status: ['status'],
  clicks: ['clicks'],
  expires: ['expires'],
  hasPassword: ['haspassword'],
  forwardQuery: ['forwardquery'],
  rules: ['rules'],
  maxVisits: ['maxvisits'],
  limitedVisits: ['limitedvisits'],
  tags: ['tags'],
  // The card: one object in JSON lines, three columns in CSV (PREVIEW_COLUMNS).
  preview: ['preview'],
  previewTitle: ['previewtitle'],
  previewDescription: ['previewdescription'],
  previewImage: ['previewimage'],
} satisfies Columns<string>;

/** The CSV export's columns of a link's card (decision 0041), written in place of its `preview` field. */
export const PREVIEW_COLUMNS = ['previewTitle', 'previewDescription', 'previewImage'] as const;

type BriefField = keyof typeof BRIEF_COLUMNS;

function flag(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  throw new RowProblem(`its ${field} "${String(value)}" is neither true nor false`);
}

/** A Brief export's rules: a list in JSON lines, its JSON text in a CSV cell; empty or absent: none. */
function rulesIn(value: unknown): readonly unknown[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let rules = value;
  if (typeof value === 'string') {
    try {
      rules = JSON.parse(value);
    } catch {
      throw new RowProblem('its rules are not JSON');
    }
  }
  if (!Array.isArray(rules)) throw new RowProblem('its rules are not a list');
  return rules.length === 0 ? undefined : rules;
}

/** A Brief export's tags: a list in JSON lines, its JSON text in a CSV cell (as rules are); empty or absent: none. */
function tagsIn(value: unknown): string[] | undefined {
  if (typeof value !== 'string' || !value.startsWith('[')) return tagList(value);
  try {
    return tagList(JSON.parse(value));
  } catch (error) {
    if (error instanceof RowProblem) throw error;
    throw new RowProblem('its tags are not JSON');
  }
}

/**
 * A Brief export's card as read: the `preview` object of JSON lines, or the CSV's three cells (all empty: none).
 * Only the parts' types are checked here; the importer checks the card as the API does (a title, its lengths, an
 * https image), so a row without a title is refused naming `preview.title`.
 */
function previewIn(link: Partial<Record<BriefField, unknown>>): SourceRow['preview'] {
  if (link.preview === undefined || link.preview === null) {
    const [title, description, image] = PREVIEW_COLUMNS.map((column) => text(link[column] as string | undefined));
    if (title === undefined && description === undefined && image === undefined) return undefined;
    return { title: title ?? '', description: description ?? null, image: image ?? null };
  }
  if (typeof link.preview !== 'object' || Array.isArray(link.preview)) throw new RowProblem('its preview is neither an object nor null');
  const { title = '', description = null, image = null } = link.preview as Record<string, unknown>;
  for (const [part, value] of Object.entries({ title, description, image })) {
    if (value !== null && typeof value !== 'string') throw new RowProblem(`its preview.${part} is not text`);
  }
  return { title: title as string, description: description as string | null, image: image as string | null };
}

function briefRow(where: string, link: Partial<Record<BriefField, unknown>>): SourceRow {
  return readRow(where, () => {
    const status = text(link.status as string | undefined);
    if (status !== undefined && status !== 'public' && status !== 'blocked')
      throw new RowProblem(`its status "${status}" is neither public nor blocked`);
    const isSlug = flag(link.isSlug, 'isSlug');
    return {
      url: text(link.url as string | undefined),
      key: text(link.key as string | undefined),
      keyIsCode: isSlug === false,
      domain: text(link.domain as string | undefined),
      title: text(link.title as string | undefined),
      comment: text(link.comment as string | undefined),
      owner: text(link.owner as string | undefined),
      created: time(link.created, 'created'),
      expires: time(link.expires, 'expires'),
      clicks: count(link.clicks, 'clicks'),
      blocked: status === 'blocked',
      hasPassword: flag(link.hasPassword, 'hasPassword'),
      forwardQuery: flag(link.forwardQuery, 'forwardQuery'),
      rules: rulesIn(link.rules),
      maxVisits: count(link.maxVisits, 'maxVisits'),
      limitedVisits: count(link.limitedVisits, 'limitedVisits'),
      tags: tagsIn(link.tags),
      preview: previewIn(link),
    };
  });
}

/** A row of a Brief CSV export as the values exported: each cell's spreadsheet escape taken off (csv-cells.ts). */
function unescaped(values: Partial<Record<BriefField, string>>): Partial<Record<BriefField, string>> {
  const out: Partial<Record<BriefField, string>> = {};
  for (const [field, cell] of Object.entries(values) as Array<[BriefField, string | undefined]>) {
    if (cell !== undefined) out[field] = spreadsheetValue(cell);
  }
  return out;
}

/** A Brief export: JSON lines (`--format jsonl`, the default) or CSV, told apart by the first character. */
export async function* briefRows(file: OpenedFile): AsyncGenerator<SourceRow> {
  if (!looksLikeJson(file.first)) {
    for await (const { where, values, problem } of csvObjects(csvRecords(file.chunks), BRIEF_COLUMNS, 'url', 'a Brief export as')) {
      yield problem ? { where, problem } : briefRow(where, unescaped(values));
    }
    return;
  }
  let line = 0;
  let rest = '';
  for await (const chunk of file.chunks) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const raw of lines) {
      line++;
      const row = jsonLine(raw, line);
      if (row) yield row;
    }
  }
  line++;
  const last = jsonLine(rest, line);
  if (last) yield last;
}

function jsonLine(raw: string, line: number): SourceRow | undefined {
  if (raw.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new MalformedInput(`line ${line} is not valid JSON (${(error as Error).message}): cut short?`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new MalformedInput(`line ${line} is not a link (a JSON object)`);
  return briefRow(`line ${line}`, value as Record<BriefField, unknown>);
}

const CSV_COLUMNS = {
  url: ['url'],
  slug: ['slug'],
  domain: ['domain'],
  title: ['title'],
  created: ['created'],
} satisfies Columns<string>;

/** `--format csv`: a header naming url (and optionally slug, domain, title, created), matched ignoring case and spaces. */
export const minimalCsvRows = (file: OpenedFile) =>
  csvRows(file.chunks, CSV_COLUMNS, 'url', 'a links', (values) => ({
    url: text(values.url),
    key: text(values.slug),
    domain: text(values.domain),
    title: text(values.title),
    created: time(values.created, 'created'),
  }));
