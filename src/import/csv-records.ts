// RFC 4180 records read from a stream of text, one at a time, with the line each starts on: an import
// file of millions of rows is never held whole. Quoted fields may hold commas, quotes ("") and line
// breaks; a file that ends inside a quoted field was cut short, and says so.

/** One record: its fields, and the (1-based) line of the file it starts on. */
export interface CsvRecord {
  readonly fields: string[];
  readonly line: number;
}

/** The input is not CSV that can be read to its end (the importer turns it into a clear error). */
export class MalformedInput extends Error {}

export async function* csvRecords(chunks: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  let fields: string[] = [];
  let field = '';
  let quoted = false; // inside a quoted field
  let afterQuote = false; // just read a quote inside a quoted field: a second one is a literal quote
  let line = 1;
  let recordLine = 1;
  let pendingCR = false;
  let records: CsvRecord[] = [];
  const endRecord = () => {
    fields.push(field);
    field = '';
    // A blank line is no record.
    if (!(fields.length === 1 && fields[0] === '')) records.push({ fields, line: recordLine });
    fields = [];
  };
  for await (const chunk of chunks) {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (quoted) {
        if (afterQuote) {
          afterQuote = false;
          if (chunk.charCodeAt(i) === 34) {
            field += '"';
            i++;
            continue;
          }
          quoted = false;
          continue; // the quote closed the field: read this character unquoted
        }
        const next = chunk.indexOf('"', i);
        const end = next < 0 ? n : next;
        const text = chunk.slice(i, end);
        field += text;
        for (let j = text.indexOf('\n'); j >= 0; j = text.indexOf('\n', j + 1)) line++;
        if (next < 0) break;
        afterQuote = true;
        i = next + 1;
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (pendingCR) {
        pendingCR = false;
        if (c === 10) {
          i++;
          continue;
        }
      }
      if (c === 44) {
        fields.push(field);
        field = '';
        i++;
      } else if (c === 10 || c === 13) {
        endRecord();
        line++;
        recordLine = line;
        pendingCR = c === 13;
        i++;
      } else if (c === 34 && field === '') {
        quoted = true;
        i++;
      } else {
        // Plain text up to the next comma, line break or quote.
        let j = i + 1;
        while (j < n) {
          const d = chunk.charCodeAt(j);
          if (d === 44 || d === 10 || d === 13) break;
          j++;
        }
        field += chunk.slice(i, j);
        i = j;
      }
    }
    if (records.length > 0) {
      yield* records;
      records = [];
    }
  }
  if (quoted && !afterQuote) throw new MalformedInput(`the file ends inside a quoted field begun on line ${recordLine}: it looks cut short`);
  if (field !== '' || fields.length > 0) endRecord();
  yield* records;
}

/** A header cell as the formats name their columns: lower case, without spaces, underscores or dashes. */
export function headerName(cell: string): string {
  return cell
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}
