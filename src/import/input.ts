// An import file as text: streamed in 1 MB chunks, its first chunk looked at to tell a format's two
// shapes apart (CSV or JSON pages, CSV or an SQL dump), and JSON read whole (API pages are small).
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { MalformedInput } from './csv-records.js';

/** The file cannot be read at all (missing, a folder, no permission). */
export class UnreadableFile extends Error {}

/** The file's text in chunks, and its first chunk (empty for an empty file). */
export interface OpenedFile {
  readonly first: string;
  readonly chunks: AsyncIterable<string>;
}

export async function openText(file: string): Promise<OpenedFile> {
  try {
    const handle = await open(file, 'r');
    try {
      if (!(await handle.stat()).isFile()) throw new UnreadableFile(`cannot read ${file}: not a file`);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    throw new UnreadableFile(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const iterator = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })[Symbol.asyncIterator]() as AsyncIterator<string>;
  const head = await iterator.next();
  const first = head.done ? '' : head.value.replace(/^\uFEFF/, '');
  return {
    first,
    chunks: {
      async *[Symbol.asyncIterator]() {
        if (first !== '') yield first;
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      },
    },
  };
}

/** Whether the text begins as JSON does (an object or an array). */
export const looksLikeJson = (first: string) => /^\s*[[{]/.test(first);

/** Whether the text is an SQL dump (mysqldump, phpMyAdmin, Adminer): comments, SET, CREATE or INSERT first. */
export const looksLikeSql = (first: string) => /^\s*(--|\/\*|#|set\s|create\s|insert\s|drop\s|lock\s|use\s|start\s|begin)/i.test(first);

/** The whole text of a file whose chunks were opened. */
export async function wholeText(chunks: AsyncIterable<string>): Promise<string> {
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return parts.join('');
}

/**
 * The JSON values of a file: one document, or JSON lines (one page a line, as a script that saves
 * each API response writes). Each value comes with where it starts.
 */
export function jsonValues(whole: string): Array<{ value: unknown; line?: number }> {
  try {
    return [{ value: JSON.parse(whole) }];
  } catch (documentError) {
    const lines = whole.split('\n');
    if (lines.filter((l) => l.trim() !== '').length < 2) {
      throw new MalformedInput(`it is not valid JSON (${(documentError as Error).message}): cut short?`);
    }
    const values: Array<{ value: unknown; line: number }> = [];
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      try {
        values.push({ value: JSON.parse(line), line: i + 1 });
      } catch (error) {
        throw new MalformedInput(`line ${i + 1} is not valid JSON (${(error as Error).message}): cut short?`);
      }
    }
    return values;
  }
}

/**
 * The items of API pages: `pageItems` finds a page's list (Shlink's shortUrls.data, Kutt's data,
 * Bitly's links). A document may be one page, an array of pages, or an array of items.
 */
export function* pagedItems(
  values: Array<{ value: unknown; line?: number }>,
  pageItems: (page: Record<string, unknown>) => unknown,
  formatName: string,
): Generator<{ item: Record<string, unknown>; where: string }> {
  let n = 0;
  const fromPage = (page: unknown): unknown[] | undefined => {
    if (typeof page !== 'object' || page === null || Array.isArray(page)) return undefined;
    const items = pageItems(page as Record<string, unknown>);
    return Array.isArray(items) ? items : undefined;
  };
  for (const { value, line } of values) {
    let items = fromPage(value);
    if (!items && Array.isArray(value)) {
      const pages = value.map(fromPage);
      items = pages.every((p) => p !== undefined) && pages.length > 0 ? pages.flat() : value;
    }
    if (!items) throw new MalformedInput(`${line ? `line ${line}` : 'the file'} is not a page of ${formatName}'s API`);
    for (const item of items) {
      n++;
      const where = line ? `line ${line}, item ${n}` : `item ${n}`;
      if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new MalformedInput(`${where} is not an object`);
      yield { item: item as Record<string, unknown>, where };
    }
  }
}
