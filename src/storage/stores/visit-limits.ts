// The visits counted against links' visit limits (decision 0039): one total a link in the database, which every
// instance adds its own visits to and reads the others' from.

export interface VisitLimitStore {
  /**
   * Adds each [link id, visits] to the link's counted visits (additive, so any number of instances may add at once),
   * then reads the totals of `ids` (those added to and any others asked), as they are after the addition.
   */
  add(visits: ReadonlyArray<readonly [number, number]>, ids: readonly number[]): Promise<Map<number, number>>;
}
