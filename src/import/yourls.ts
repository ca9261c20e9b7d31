// `--format yourls`: YOURLS's `yourls_url` table (keyword, url, title, timestamp, ip, clicks), as a CSV
// export of it or an SQL dump of it (mysqldump, phpMyAdmin). The `ip` column is never read.
// YOURLS has one domain (YOURLS_SITE): its keywords go on Brief's default domain.
import { csvRecords, MalformedInput } from './csv-records.js';
import { looksLikeSql, type OpenedFile, wholeText } from './input.js';
import { type Columns, count, csvObjects, readRow, type SourceRow, text, time } from './source-rows.js';

const COLUMNS = {
  keyword: ['keyword'],
  url: ['url'],
  title: ['title'],
  timestamp: ['timestamp'],
  clicks: ['clicks'],
} satisfies Columns<string>;

/** The table's columns in the order YOURLS creates them (a dump's INSERT may leave the list out). */
const TABLE_ORDER = ['keyword', 'url', 'title', 'timestamp', 'ip', 'clicks'];

function yourlsRow(where: string, values: Partial<Record<keyof typeof COLUMNS, string | null>>): SourceRow {
  return readRow(where, () => ({
    url: text(values.url),
    key: text(values.keyword),
    title: text(values.title),
    // "0000-00-00 00:00:00" is MySQL's zero date: no date.
    created: values.timestamp?.startsWith('0000') ? undefined : time(values.timestamp, 'timestamp'),
    clicks: count(values.clicks, 'clicks'),
  }));
}

export async function* yourlsRows(file: OpenedFile): AsyncGenerator<SourceRow> {
  if (looksLikeSql(file.first)) {
    yield* sqlDumpRows(await wholeText(file.chunks));
    return;
  }
  for await (const { where, values, problem } of csvObjects(csvRecords(file.chunks), COLUMNS, 'url', 'a YOURLS yourls_url table as')) {
    yield problem ? { where, problem } : yourlsRow(where, values);
  }
}

const INSERT = /insert\s+(?:ignore\s+)?into\s+[`"]?(\w+)[`"]?\s*(\(([^)]*)\))?\s*values\s*/giy;
const INSERT_START = /insert\s+(?:ignore\s+)?into\s+/gi;

/** The rows of every INSERT into a table whose name ends in `url` (yourls_url, or another prefix's). */
function* sqlDumpRows(sql: string): Generator<SourceRow> {
  let found = false;
  let line = 1;
  let counted = 0;
  const lineAt = (at: number) => {
    for (let i = sql.indexOf('\n', counted); i >= 0 && i < at; i = sql.indexOf('\n', i + 1)) line++;
    counted = Math.max(counted, at);
    return line;
  };
  for (const start of sql.matchAll(INSERT_START)) {
    INSERT.lastIndex = start.index;
    const head = INSERT.exec(sql);
    if (!head || !/url$/i.test(head[1]!)) continue;
    found = true;
    const columns = head[3]
      ? head[3].split(',').map((c) =>
          c
            .trim()
            .replace(/^[`"]|[`"]$/g, '')
            .toLowerCase(),
        )
      : TABLE_ORDER;
    if (!columns.includes('url')) throw new MalformedInput(`the INSERT on line ${lineAt(start.index)} has no url column`);
    let at = INSERT.lastIndex;
    for (;;) {
      at = skipSpace(sql, at);
      if (sql[at] !== '(') throw new MalformedInput(`the INSERT begun on line ${lineAt(start.index)} is cut short or not a list of rows`);
      const where = `line ${lineAt(at)}`;
      const { values, end } = tuple(sql, at + 1, () => lineAt(start.index));
      const row = Object.fromEntries(columns.map((c, i) => [c, values[i] ?? null]));
      yield values.length === columns.length
        ? yourlsRow(where, row)
        : { where, problem: `it has ${values.length} values for ${columns.length} columns` };
      at = skipSpace(sql, end);
      if (sql[at] === ',') {
        at++;
        continue;
      }
      if (sql[at] === ';') break;
      throw new MalformedInput(`the INSERT begun on line ${lineAt(start.index)} does not end with ";": the dump looks cut short`);
    }
  }
  if (!found) throw new MalformedInput('the SQL has no INSERT INTO a yourls_url table');
}

function skipSpace(sql: string, at: number): number {
  while (at < sql.length && /\s/.test(sql[at]!)) at++;
  return at;
}

/** One parenthesized row of values: MySQL strings ('…', with \ escapes and ''), numbers, NULL. */
function tuple(sql: string, at: number, startLine: () => number): { values: Array<string | null>; end: number } {
  const values: Array<string | null> = [];
  for (;;) {
    at = skipSpace(sql, at);
    if (sql[at] === "'") {
      let value = '';
      let i = at + 1;
      for (;;) {
        if (i >= sql.length) throw new MalformedInput(`the INSERT begun on line ${startLine()} ends inside a string: the dump looks cut short`);
        const c = sql[i]!;
        if (c === '\\') {
          const e = sql[i + 1] ?? '';
          value += ({ n: '\n', r: '\r', t: '\t', '0': '\u0000', Z: '\u001a' } as Record<string, string>)[e] ?? e;
          i += 2;
        } else if (c === "'" && sql[i + 1] === "'") {
          value += "'";
          i += 2;
        } else if (c === "'") {
          i++;
          break;
        } else {
          value += c;
          i++;
        }
      }
      values.push(value);
      at = i;
    } else {
      const match = /^[^,)\s]+/.exec(sql.slice(at, at + 64));
      if (!match) throw new MalformedInput(`the INSERT begun on line ${startLine()} is cut short or malformed`);
      values.push(/^null$/i.test(match[0]) ? null : match[0]);
      at += match[0].length;
    }
    at = skipSpace(sql, at);
    if (sql[at] === ',') {
      at++;
      continue;
    }
    if (sql[at] === ')') return { values, end: at + 1 };
    throw new MalformedInput(`the INSERT begun on line ${startLine()} is cut short or malformed`);
  }
}
