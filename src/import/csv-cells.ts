// Cells of Brief's own CSV that a spreadsheet opens as text, never as a formula (issue 37, item 7;
// decision 0032). OWASP's rule for CSV injection: a cell starting with `=`, `+`,
// `-`, `@`, tab or CR gets a leading `'`; so does one starting with `'` itself, so that the import can
// take exactly one `'` back off and every value comes back as it was.

/** The first characters a spreadsheet reads as the start of a formula, and the quote that marks an escaped cell. */
const ESCAPED_START = /^[=+\-@\t\r']/;

/** A value as `brief export --format csv` writes it (before RFC 4180 quoting): `'` first when it could start a formula. */
export function spreadsheetSafe(value: string): string {
  return ESCAPED_START.test(value) ? `'${value}` : value;
}

/**
 * A cell of Brief's CSV as the value it was exported from: one leading `'` off, when what follows it is
 * something spreadsheetSafe escapes (a cell it wrote always is). A cell such as `'tis` (a value written by
 * an export made before this rule, or by hand) keeps its quote.
 */
export function spreadsheetValue(cell: string): string {
  return cell.length > 1 && cell.charCodeAt(0) === 39 && ESCAPED_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}
