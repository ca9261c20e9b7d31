import { FNV_OFFSET, fnvMix, fnvText } from './fnv.js';
import type { RedirectTarget } from './redirect-cache.js';

const LIVE = 0;
const BLOCKED = 1;
/** Deleted, or changed and not yet read again: a lookup must go to the database. */
const GONE = 2;

// A slot is three 32-bit words: [meta, link id, where its bytes start in the heap].
// meta: bit 31 set = in use, bits 29-30 state, bits 13-28 domain number, bits 0-12 a
// tag from the hash, so a probe rarely has to read the heap of a link that is not it.
const WORDS = 3;
const IN_USE = 0x80000000;
const MAX_DOMAINS = 0x10000;
// In the heap, a link is [key length: 1 byte][URL length: 2 bytes][key][URL].
const HEADER = 3;
const MAX_KEY_BYTES = 0xff;
const MAX_URL_BYTES = 0xffff;
const MAX_ID = 0xffffffff;
/** Linear probing stays short up to about 70% full. */
const MAX_LOAD = 0.7;

/**
 * Host + key → target for up to `max` links, held in one Uint32Array and one byte heap
 * instead of JavaScript objects: a million links cost about 95 MB, give the garbage
 * collector nothing to trace, and a lookup touches two places in memory (its slot and
 * its bytes), so it costs nearly the same at 1M links as at 1k.
 *
 * It is a cache without eviction or expiry, and only correct when every change to a
 * link reaches remove() (see docs/decisions/0002-in-memory-link-index.md). A link's
 * slot is never freed: remove() marks it gone, and put() for the same host + key
 * revives it. Keys must be ASCII (link keys are [A-Za-z0-9_-]).
 */
export class LinkIndex {
  private slots: Uint32Array;
  private mask: number;
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
    this.slots = new Uint32Array(slotCount(planned) * WORDS);
    this.mask = this.slots.length / WORDS - 1;
    this.heap = Buffer.allocUnsafeSlow(Math.max(64 * 1024, planned * 80));
  }

  /** The target, or undefined when the index cannot tell (never held, gone, or another domain). */
  get(domain: string, key: string): RedirectTarget | undefined {
    const slot = this.find(domain, key);
    if (slot < 0) return undefined;
    const state = stateOf(this.slots[slot]!);
    if (state === GONE) return undefined;
    return { id: this.slots[slot + 1]!, url: this.urlAt(this.slots[slot + 2]!), blocked: state === BLOCKED };
  }

  /** Holds a link; false when it cannot (full, or an id, key, URL or domain it has no room for). */
  put(domain: string, key: string, id: number, url: string, blocked: boolean): boolean {
    const urlLength = Buffer.byteLength(url);
    if (id > MAX_ID || urlLength > MAX_URL_BYTES) {
      this.remove(domain, key);
      return false;
    }
    const state = blocked ? BLOCKED : LIVE;
    const found = this.find(domain, key);
    if (found >= 0) {
      this.slots[found] = withState(this.slots[found]!, state);
      this.slots[found + 1] = id;
      if (this.urlAt(this.slots[found + 2]!) !== url) this.slots[found + 2] = this.store(key, url, urlLength);
      return true;
    }
    if (this.count >= this.max || key.length > MAX_KEY_BYTES || !isAscii(key)) return false;
    const domainId = this.internDomain(domain);
    if (domainId === undefined) return false;
    if (this.count + 1 > (this.mask + 1) * MAX_LOAD) this.rehash((this.mask + 1) * 2);
    const hash = hashKey(domainId, key);
    const slot = this.freeSlot(hash);
    this.slots[slot] = (IN_USE | (state << 29) | (domainId << 13) | (hash >>> 19)) >>> 0;
    this.slots[slot + 1] = id;
    this.slots[slot + 2] = this.store(key, url, urlLength);
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
    const match = (IN_USE | (domainId << 13) | (hash >>> 19)) >>> 0;
    for (let i = hash & this.mask; ; i = (i + 1) & this.mask) {
      const slot = i * WORDS;
      const meta = this.slots[slot]!;
      if (meta === 0) return -1;
      if ((meta & ~(3 << 29)) >>> 0 === match && this.keyIs(this.slots[slot + 2]!, key)) return slot;
    }
  }

  private freeSlot(hash: number): number {
    let i = hash & this.mask;
    while (this.slots[i * WORDS] !== 0) i = (i + 1) & this.mask;
    return i * WORDS;
  }

  private keyIs(start: number, key: string): boolean {
    if (this.heap[start] !== key.length) return false;
    for (let i = 0; i < key.length; i++) if (this.heap[start + HEADER + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  private urlAt(start: number): string {
    const from = start + HEADER + this.heap[start]!;
    return this.heap.toString('utf8', from, from + this.heap.readUInt16LE(start + 1));
  }

  /** Writes a link's bytes at the end of the heap (a changed URL leaves the old ones unused). */
  private store(key: string, url: string, urlLength: number): number {
    const start = this.reserve(HEADER + key.length + urlLength);
    this.heap[start] = key.length;
    this.heap.writeUInt16LE(urlLength, start + 1);
    this.heap.write(key, start + HEADER, 'latin1');
    this.heap.write(url, start + HEADER + key.length, 'utf8');
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

  private rehash(slotTotal: number): void {
    const old = this.slots;
    this.slots = new Uint32Array(slotTotal * WORDS);
    this.mask = slotTotal - 1;
    for (let slot = 0; slot < old.length; slot += WORDS) {
      const meta = old[slot]!;
      if (meta === 0) continue;
      const start = old[slot + 2]!;
      const to = this.freeSlot(hashKey((meta >>> 13) & 0xffff, this.heap.toString('latin1', start + HEADER, start + HEADER + this.heap[start]!)));
      this.slots[to] = meta;
      this.slots[to + 1] = old[slot + 1]!;
      this.slots[to + 2] = start;
    }
  }
}

const stateOf = (meta: number) => (meta >>> 29) & 3;
const withState = (meta: number, state: number) => ((meta & ~(3 << 29)) | (state << 29)) >>> 0;

/** FNV-1a over the domain's number and the key. */
function hashKey(domainId: number, key: string): number {
  return fnvText(fnvMix(FNV_OFFSET, domainId), key) >>> 0;
}

/** A power of two that holds `links` within MAX_LOAD. */
function slotCount(links: number): number {
  let size = 2048;
  while (size * MAX_LOAD < links) size *= 2;
  return size;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
