// Multi-row statements in a few shapes only. Every statement Kysely runs on SQLite is prepared
// and kept by its SQL (sqlite/statement-cache.ts); a batch of n rows, or an `in` list of n
// values, is a statement of its own for each n. In a few sizes, the statements are prepared
// once and kept, instead of one new (and ~0.5 MB of native memory V8 does not see) per batch.

/** The most rows one statement takes: within both engines' limits on bound parameters at 13 columns. */
const LARGEST = 512;

/** `items` in chunks whose sizes are powers of two (512, 256, …, 1): a batch of any size uses at most ten shapes. */
export function inPowersOfTwo<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  let at = 0;
  while (at < items.length) {
    let size = LARGEST;
    while (size > items.length - at) size /= 2;
    chunks.push(items.slice(at, at + size));
    at += size;
  }
  return chunks;
}

/** An `in (…)` list padded to a power of two by repeating its last value (which changes no match). */
export function paddedList<T>(values: readonly T[]): T[] {
  if (values.length === 0) return [];
  let size = 1;
  while (size < values.length) size *= 2;
  return [...values, ...Array<T>(size - values.length).fill(values.at(-1)!)];
}
