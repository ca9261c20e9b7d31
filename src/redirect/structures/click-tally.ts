const EMPTY = 0; // link ids start at 1

/** Link ids, ascending, and the clicks of each. */
export interface Drained {
  readonly ids: Float64Array;
  readonly counts: Uint32Array;
}

/**
 * Link id → clicks since the last flush, in typed arrays (open addressing). Under
 * traffic spread over a million links tens of thousands of ids are counted between two
 * flushes; as Map entries they lived long enough to reach V8's old generation and cost
 * major collections, here counting allocates nothing.
 */
export class ClickTally {
  private ids = new Float64Array(4096);
  private counts = new Uint32Array(4096);
  private used = 0;

  add(id: number, clicks = 1): void {
    const mask = this.ids.length - 1;
    let i = spread(id) & mask;
    for (;;) {
      const held = this.ids[i]!;
      if (held === id) {
        this.counts[i]! += clicks;
        return;
      }
      if (held === EMPTY) break;
      i = (i + 1) & mask;
    }
    this.ids[i] = id;
    this.counts[i] = clicks;
    if (++this.used * 2 > this.ids.length) this.grow();
  }

  get size(): number {
    return this.used;
  }

  /**
   * Everything counted, by ascending id (neighbouring ids share pages), as two arrays of
   * equal length; empties the tally. Typed arrays, not [id, clicks] pairs: tens of
   * thousands of pairs per flush outlived a scavenge and grew the old generation.
   */
  drain(): Drained {
    const ids = new Float64Array(this.used);
    let n = 0;
    for (const id of this.ids) if (id !== EMPTY) ids[n++] = id;
    ids.sort();
    const counts = new Uint32Array(n);
    for (let k = 0; k < n; k++) counts[k] = this.countOf(ids[k]!);
    this.ids.fill(EMPTY);
    this.used = 0;
    return { ids, counts };
  }

  private countOf(id: number): number {
    const mask = this.ids.length - 1;
    let i = spread(id) & mask;
    while (this.ids[i] !== id) i = (i + 1) & mask;
    return this.counts[i]!;
  }

  private grow(): void {
    const ids = this.ids;
    const counts = this.counts;
    this.ids = new Float64Array(ids.length * 2);
    this.counts = new Uint32Array(ids.length * 2);
    this.used = 0;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== EMPTY) this.add(ids[i]!, counts[i]!);
  }
}

/** Fibonacci hashing of the id's low and high 32 bits, high bits folded into the low ones. */
function spread(id: number): number {
  const h = Math.imul((id >>> 0) ^ ((id / 0x100000000) | 0), 0x9e3779b1);
  return (h ^ (h >>> 16)) >>> 0;
}
