import { FNV_OFFSET, fnvMix, fnvText } from './fnv.js';

/**
 * The doorkeeper of TinyLFU: a key is let into the redirect cache on its second miss
 * within a window, not its first. Traffic that touches many links once each (a crawler,
 * a scan, uniform random keys over a million links) then costs one lookup per request
 * instead of a lookup plus an insert that evicts a link people do come back to.
 *
 * Recently missed keys are remembered as one bit each, by hash, in a bitset of about
 * eight bits per key of the window; it is cleared after `window` new keys. A hash
 * collision only lets a key in one miss early.
 */
export class Doorkeeper {
  private readonly bits: Int32Array;
  private readonly mask: number;
  private remembered = 0;

  constructor(private readonly window: number) {
    let size = 1024;
    while (size < window * 8) size *= 2;
    this.bits = new Int32Array(size / 32);
    this.mask = size - 1;
  }

  /** true when the key missed before in this window; otherwise remembers it and answers false. */
  admit(domain: string, key: string): boolean {
    const slot = hash(domain, key) & this.mask;
    const word = slot >>> 5;
    const bit = 1 << (slot & 31);
    if ((this.bits[word]! & bit) !== 0) return true;
    this.bits[word]! |= bit;
    if (++this.remembered >= this.window) this.clear();
    return false;
  }

  private clear(): void {
    this.bits.fill(0);
    this.remembered = 0;
  }
}

/** FNV-1a over domain, a separator ('/') and key. */
function hash(domain: string, key: string): number {
  return fnvText(fnvMix(fnvText(FNV_OFFSET, domain), 0x2f), key) >>> 0;
}
