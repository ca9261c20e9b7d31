import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';

/** Links read together, in id order, when the first of them is asked for. */
export const OWNER_BLOCK = 1024;
/** Links up to this id are held (4 bytes each); a link past it is looked up each time. */
const MAX_HELD_ID = 1 << 24;

/**
 * Each link's account, for the click events written on SQLite's background thread (event-writes.ts).
 * A cold load visits links all over the table, and looking each one up at its own place in the
 * wide `links` table was ~30% of an event's write (4.5 of 14.5 µs at 1M links,
 * bench/event-write-cost.ts). Here the first visit to a link reads its block of OWNER_BLOCK ids in
 * order, at about the cost of one such lookup, and what is read is held: a link's account never
 * changes and a link is never removed (a delete marks it), so nothing held goes stale. A link made
 * after its block was read is looked up alone, then held.
 */
export class LinkOwners {
  /** Account by link id; 0 = not known (account ids start at 1). */
  private accounts = new Int32Array(0);
  /** Whether each block has been read. */
  private read = new Uint8Array(0);
  private readonly one: Statement<[number], { account_id: number }>;
  private readonly block: Statement<[number, number], { id: number; account_id: number }>;

  constructor(sqlite: SQLite.Database) {
    this.one = sqlite.prepare('select account_id from links where id = ?');
    this.block = sqlite.prepare('select id, account_id from links where id >= ? and id < ?');
  }

  /** The link's account, or undefined when there is no such link. */
  of(linkId: number): number | undefined {
    if (!Number.isInteger(linkId) || linkId < 1 || linkId >= MAX_HELD_ID) return this.one.get(linkId)?.account_id;
    const held = this.accounts[linkId];
    if (held) return held;
    const block = Math.floor(linkId / OWNER_BLOCK);
    if (!this.read[block]) {
      // A lookup of the one link right after would see what the block read saw.
      this.readBlock(block);
      return this.accounts[linkId] || undefined;
    }
    // Made after its block was read (the block's read grew the array to hold it).
    const accountId = this.one.get(linkId)?.account_id;
    if (accountId !== undefined) this.accounts[linkId] = accountId;
    return accountId;
  }

  private readBlock(block: number): void {
    const start = block * OWNER_BLOCK;
    this.grow(start + OWNER_BLOCK);
    for (const row of this.block.iterate(start, start + OWNER_BLOCK)) this.accounts[row.id] = row.account_id;
    this.read[block] = 1;
  }

  /** Room for ids below `size`, in whole blocks, growing by half at least so that growth is rare. */
  private grow(size: number): void {
    if (size <= this.accounts.length) return;
    const blocks = Math.ceil(Math.max(size, this.accounts.length * 1.5) / OWNER_BLOCK);
    const accounts = new Int32Array(Math.min(blocks * OWNER_BLOCK, MAX_HELD_ID));
    accounts.set(this.accounts);
    this.accounts = accounts;
    const read = new Uint8Array(accounts.length / OWNER_BLOCK);
    read.set(this.read);
    this.read = read;
  }
}
