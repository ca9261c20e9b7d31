import type { LinkTarget } from '../../storage/stores/links.js';
import { FNV_OFFSET, fnvMix, fnvText } from './fnv.js';

const LIVE = 0;
const BLOCKED = 1;
/** Deleted, or changed and not yet read again: a lookup must go to the database. */
const GONE = 2;

// A slot is two 32-bit words: [meta, where the link's record starts in the heap].
// meta: bit 31 set = in use, bits 29-30 state, bits 13-28 domain number, bits 0-12 a
// tag from the hash, so a probe rarely has to read the record of a link that is not it.
const WORDS = 2;
const IN_USE = 0x80000000;
const STATE_BITS = 3 << 29;
// The tag is the hash's low bits: the slot a probe starts at comes from its high bits.
const TAG_BITS = 0x1fff;
const MAX_DOMAINS = 0x10000;
// A record: [key length: 1 byte][URL length and scheme: 2 bytes][link id: 4 bytes][key][URL].
// Links point at http(s) URLs, so the scheme is kept as two bits (the top of the length
// field: none, http://, https://) instead of seven or eight bytes.
const HEADER = 7;
const MAX_KEY_BYTES = 0xff;
const MAX_URL_BYTES = 0x3fff;
const MAX_ID = 0xffffffff;
const SCHEMES = ['', 'http://', 'https://'] as const;
/** Linear probing stays short up to about 75% full. */
const MAX_LOAD = 0.75;
const MIN_SLOTS = 2048;

/**
 * Host + key → target for up to `max` links, held in one Uint32Array and one byte heap
 * instead of JavaScript objects: a million links cost about 80 MB, give the garbage
 * collector nothing to trace, and a lookup touches two places in memory (its slot and
 * its record), so it costs nearly the same at 1M links as at 1k.
 *
 * It is a cache without eviction or expiry, and only correct when every change to a
 * link reaches remove() (see docs/decisions/0002-in-memory-link-index.md). A link's
 * slot is never freed: remove() marks it gone, and put() for the same host + key
 * revives it. Keys must be ASCII (link keys are [A-Za-z0-9_-]).
 */
export class LinkIndex {
  private slots: Uint32Array;
  /** Slots in the table: any number (not only powers of two), so the table fits what it holds. */
  private capacity: number;
  private heap: Buffer;
  private heapUsed = 0;
  private count = 0;
  private readonly domainIds = new Map<string, number>();

  /** `expected`: how many links are about to be put, to size the table and heap once. */
  constructor(
    readonly max: number,
    expected = 1024,
  ) {
    const planned = Math.min(max, Math.ceil(expected * 1.125));
    this.capacity = slotCount(planned);
    this.slots = new Uint32Array(this.capacity * WORDS);
    this.heap = Buffer.allocUnsafeSlow(Math.max(64 * 1024, planned * 72));
  }

  /** The target, or undefined when the index cannot tell (never held, gone, or another domain). */
  get(domain: string, key: string): LinkTarget | undefined {
    const slot = this.find(domain, key);
    if (slot < 0) return undefined;
    const state = stateOf(this.slots[slot]!);
    if (state === GONE) return undefined;
    const start = this.slots[slot + 1]!;
    return { id: this.idAt(start), url: this.urlAt(start), blocked: state === BLOCKED };
  }

  /** Holds a link; false when it cannot (full, or an id, key, URL or domain it has no room for). */
  put(domain: string, key: string, id: number, url: string, blocked: boolean): boolean {
    const scheme = url.startsWith('https://') ? 2 : url.startsWith('http://') ? 1 : 0;
    const rest = scheme === 0 ? url : url.slice(SCHEMES[scheme].length);
    const restLength = Buffer.byteLength(rest);
    if (id > MAX_ID || restLength > MAX_URL_BYTES) {
      this.remove(domain, key);
      return false;
    }
    const state = blocked ? BLOCKED : LIVE;
    const found = this.find(domain, key);
    if (found >= 0) {
      this.slots[found] = withState(this.slots[found]!, state);
      const start = this.slots[found + 1]!;
      // A changed record is written anew; its old bytes stay unused (keys are never reused).
      if (this.idAt(start) !== id || this.urlAt(start) !== url) {
        this.slots[found + 1] = this.store(key, id, scheme, rest, restLength);
      }
      return true;
    }
    if (this.count >= this.max || key.length > MAX_KEY_BYTES || !isAscii(key)) return false;
    const domainId = this.internDomain(domain);
    if (domainId === undefined) return false;
    if (this.count + 1 > this.capacity * MAX_LOAD) this.rehash(slotCount(this.capacity * 2 * MAX_LOAD));
    const hash = hashKey(domainId, key);
    const slot = this.freeSlot(hash);
    this.slots[slot] = (IN_USE | (state << 29) | (domainId << 13) | (hash & TAG_BITS)) >>> 0;
    this.slots[slot + 1] = this.store(key, id, scheme, rest, restLength);
    this.count++;
    return true;
  }

  /** Forgets what a host + key resolves to, until the next put(). */
  remove(domain: string, key: string): void {
    const slot = this.find(domain, key);
    if (slot >= 0) this.slots[slot] = withState(this.slots[slot]!, GONE);
  }

  /** Links held (gone ones included: they keep their slot). */
  get size(): number {
    return this.count;
  }

  /** The slot's first word's position, or -1. */
  private find(domain: string, key: string): number {
    const domainId = this.domainIds.get(domain);
    if (domainId === undefined) return -1;
    const hash = hashKey(domainId, key);
    const match = (IN_USE | (domainId << 13) | (hash & TAG_BITS)) >>> 0;
    for (let i = this.home(hash); ; i = i + 1 === this.capacity ? 0 : i + 1) {
      const slot = i * WORDS;
      const meta = this.slots[slot]!;
      if (meta === 0) return -1;
      if ((meta & ~STATE_BITS) >>> 0 === match && this.keyIs(this.slots[slot + 1]!, key)) return slot;
    }
  }

  /** The first slot to probe: the hash scaled to the table (multiply-shift, not a modulo). */
  private home(hash: number): number {
    return Math.floor((hash / 0x100000000) * this.capacity);
  }

  private freeSlot(hash: number): number {
    let i = this.home(hash);
    while (this.slots[i * WORDS] !== 0) i = i + 1 === this.capacity ? 0 : i + 1;
    return i * WORDS;
  }

  private keyIs(start: number, key: string): boolean {
    if (this.heap[start] !== key.length) return false;
    for (let i = 0; i < key.length; i++) if (this.heap[start + HEADER + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  private idAt(start: number): number {
    const heap = this.heap;
    return (heap[start + 3]! | (heap[start + 4]! << 8) | (heap[start + 5]! << 16)) + heap[start + 6]! * 0x1000000;
  }

  private urlAt(start: number): string {
    const field = this.heap.readUInt16LE(start + 1);
    const from = start + HEADER + this.heap[start]!;
    return SCHEMES[field >>> 14]! + this.heap.toString('utf8', from, from + (field & MAX_URL_BYTES));
  }

  /** Writes a link's record at the end of the heap. */
  private store(key: string, id: number, scheme: number, rest: string, restLength: number): number {
    const start = this.reserve(HEADER + key.length + restLength);
    this.heap[start] = key.length;
    this.heap.writeUInt16LE((scheme << 14) | restLength, start + 1);
    this.heap.writeUInt32LE(id, start + 3);
    this.heap.write(key, start + HEADER, 'latin1');
    this.heap.write(rest, start + HEADER + key.length, 'utf8');
    return start;
  }

  private reserve(length: number): number {
    if (this.heapUsed + length > this.heap.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(Math.ceil(this.heap.length * 1.5), this.heapUsed + length));
      this.heap.copy(bigger, 0, 0, this.heapUsed);
      this.heap = bigger;
    }
    const start = this.heapUsed;
    this.heapUsed += length;
    return start;
  }

  private internDomain(domain: string): number | undefined {
    let id = this.domainIds.get(domain);
    if (id === undefined) {
      if (this.domainIds.size >= MAX_DOMAINS) return undefined;
      id = this.domainIds.size;
      this.domainIds.set(domain, id);
    }
    return id;
  }

  private rehash(capacity: number): void {
    const old = this.slots;
    this.slots = new Uint32Array(capacity * WORDS);
    this.capacity = capacity;
    for (let slot = 0; slot < old.length; slot += WORDS) {
      const meta = old[slot]!;
      if (meta === 0) continue;
      const start = old[slot + 1]!;
      const key = this.heap.toString('latin1', start + HEADER, start + HEADER + this.heap[start]!);
      const to = this.freeSlot(hashKey((meta >>> 13) & 0xffff, key));
      this.slots[to] = meta;
      this.slots[to + 1] = start;
    }
  }
}

const stateOf = (meta: number) => (meta >>> 29) & 3;
const withState = (meta: number, state: number) => ((meta & ~STATE_BITS) | (state << 29)) >>> 0;

/** FNV-1a over the domain's number and the key. */
function hashKey(domainId: number, key: string): number {
  return fnvText(fnvMix(FNV_OFFSET, domainId), key) >>> 0;
}

/** Slots that hold `links` within MAX_LOAD. */
function slotCount(links: number): number {
  return Math.max(MIN_SLOTS, Math.ceil(links / MAX_LOAD) + 1);
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
