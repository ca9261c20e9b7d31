/** The map under `key` in `table`, made empty and set first when there is none: one level of a map of maps. */
export function within<K, T extends Map<unknown, unknown>>(table: Map<K, T>, key: K): T {
  const inner = table.get(key);
  if (inner !== undefined) return inner;
  const made = new Map() as T;
  table.set(key, made);
  return made;
}
