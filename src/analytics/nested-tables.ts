/** The table under `key` in `table`, made empty when missing: one level of a table of tables. */
export function within<K, T extends Map<unknown, unknown>>(table: Map<K, T>, key: K): T {
  const inner = table.get(key);
  if (inner !== undefined) return inner;
  const made = new Map() as T;
  table.set(key, made);
  return made;
}
