// An RFC 4180 reader, for the tests of what the CLI exports: fields, quoted fields with "" and line breaks,
// records ended by CRLF.

/** The records of `text`, and what is left after its last CRLF (empty when the text ends as RFC 4180 wants). */
export function parseCsv(text: string): { rows: string[][]; unfinished: string } {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return { rows, unfinished: field + row.join('') };
}
