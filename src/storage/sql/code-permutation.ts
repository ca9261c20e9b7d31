import { createHash } from 'node:crypto';

/** The characters of a generated code, in the order of their digit values (base 62). */
export const CODE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The lengths a code can have (CODE_LENGTH's range). */
export const CODE_MIN_LENGTH = 4;
export const CODE_MAX_LENGTH = 32;
/** What a generated code looks like, whatever its length. */
const CODE_SHAPE = /^[0-9A-Za-z]{4,32}$/;

const ROUNDS = 8;
/** Codes up to this length take the 32-bit arithmetic path: 62^8 < 2^48, so both halves fit in 24 bits. */
const NUMBER_PATH_MAX_LENGTH = 8;

const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < CODE_ALPHABET.length; i++) DIGIT[CODE_ALPHABET.charCodeAt(i)] = i;

/** One code length's Feistel network: the bits of the smallest even-width binary space that holds 62^length. */
interface Space {
  readonly length: number;
  /** 62^length: the codes of this length, as numbers. */
  readonly size: number;
  readonly sizeBig: bigint;
  /** Bits of each half of the network. */
  readonly half: number;
}

function spaceOf(length: number): Space {
  const sizeBig = 62n ** BigInt(length);
  let bits = sizeBig.toString(2).length;
  if (bits % 2 === 1) bits++;
  return { length, size: Number(sizeBig), sizeBig, half: bits / 2 };
}

const SPACES: Space[] = [];
for (let length = CODE_MIN_LENGTH; length <= CODE_MAX_LENGTH; length++) SPACES[length] = spaceOf(length);

/**
 * Generated codes as a keyed pseudorandom permutation of the link's id (decision 0026): a
 * balanced Feistel network over the smallest binary space that holds every code of a length,
 * walked again while the result falls outside the codes (cycle-walking), then written in base 62.
 * Two ids never give one code of a length, and each code decodes back to its id; without the
 * secret the codes of consecutive ids look unrelated.
 *
 * Codes of up to 8 characters (CODE_LENGTH's default is 7) run on 32-bit integer mixing; longer
 * ones on BigInt with SHA-256 as the round function, slower and rare.
 */
export class CodePermutation {
  /** Two 32-bit round keys a round, for the integer path. */
  private readonly roundKeys: Uint32Array;

  constructor(private readonly secret: Uint8Array) {
    if (secret.length < 16) throw new Error('The code secret must be at least 16 bytes');
    const words = createHash('sha256').update('brief code rounds').update(secret).digest();
    const more = createHash('sha256').update('brief code rounds 2').update(secret).digest();
    const bytes = Buffer.concat([words, more]);
    this.roundKeys = new Uint32Array(ROUNDS * 2);
    for (let i = 0; i < ROUNDS * 2; i++) this.roundKeys[i] = bytes.readUInt32LE((i * 4) % bytes.length) ^ Math.imul(i + 1, 0x9e3779b9);
  }

  /**
   * The code of `id` with at least `length` characters: `length` while the id fits in that many
   * (62^7 is 3.5 trillion ids), else the first length that holds it.
   */
  codeFor(id: number, length: number): string {
    let at = Math.max(CODE_MIN_LENGTH, Math.min(length, CODE_MAX_LENGTH));
    while (at < CODE_MAX_LENGTH && id >= SPACES[at]!.size) at++;
    return this.encode(id, at);
  }

  /** The code of `id` (0 ≤ id < 62^length, a safe integer) with exactly `length` characters. */
  encode(id: number, length: number): string {
    const space = SPACES[length];
    if (!space || !Number.isSafeInteger(id) || id < 0 || id >= space.size) throw new RangeError(`No ${length}-character code for id ${id}`);
    if (length <= NUMBER_PATH_MAX_LENGTH) {
      let value = id;
      do value = this.smallRounds(value, space, true);
      while (value >= space.size);
      return toBase62(value, length);
    }
    let value = BigInt(id);
    do value = this.bigRounds(value, space, true);
    while (value >= space.sizeBig);
    return toBase62Big(value, length);
  }

  /** The id a code stands for, or undefined when it is not code-shaped or stands for no id a link can have. */
  decode(code: string): number | undefined {
    if (!CODE_SHAPE.test(code)) return undefined;
    const space = SPACES[code.length]!;
    if (code.length <= NUMBER_PATH_MAX_LENGTH) {
      let value = 0;
      for (let i = 0; i < code.length; i++) value = value * 62 + DIGIT[code.charCodeAt(i)]!;
      do value = this.smallRounds(value, space, false);
      while (value >= space.size);
      return value;
    }
    let value = 0n;
    for (let i = 0; i < code.length; i++) value = value * 62n + BigInt(DIGIT[code.charCodeAt(i)]!);
    do value = this.bigRounds(value, space, false);
    while (value >= space.sizeBig);
    return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
  }

  /** The network on a value of up to 48 bits, as two halves of up to 24 bits each. */
  private smallRounds(value: number, space: Space, forward: boolean): number {
    const half = space.half;
    const scale = 2 ** half;
    const mask = scale - 1;
    let left = Math.floor(value / scale);
    let right = value % scale;
    if (forward) {
      for (let round = 0; round < ROUNDS; round++) {
        const next = (left ^ this.mix(right, round)) & mask;
        left = right;
        right = next;
      }
    } else {
      for (let round = ROUNDS - 1; round >= 0; round--) {
        const previous = (right ^ this.mix(left, round)) & mask;
        right = left;
        left = previous;
      }
    }
    return left * scale + right;
  }

  /** The round function of the integer path: the half and two round keys through a 32-bit finalizer (MurmurHash3's). */
  private mix(half: number, round: number): number {
    let x = (half ^ this.roundKeys[round * 2]!) >>> 0;
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
    x = (x ^ (x >>> 16)) + this.roundKeys[round * 2 + 1]!;
    x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d);
    return (x ^ (x >>> 12)) >>> 0;
  }

  /** The network on BigInt halves, SHA-256 of the secret, the round and the half as the round function. */
  private bigRounds(value: bigint, space: Space, forward: boolean): bigint {
    const half = BigInt(space.half);
    const mask = (1n << half) - 1n;
    let left = value >> half;
    let right = value & mask;
    const f = (input: bigint, round: number): bigint => {
      const digest = createHash('sha256')
        .update(this.secret)
        .update(`${round}:${input.toString(16)}`)
        .digest('hex');
      return BigInt(`0x${digest}`) & mask;
    };
    if (forward) {
      for (let round = 0; round < ROUNDS; round++) {
        const next = left ^ f(right, round);
        left = right;
        right = next;
      }
    } else {
      for (let round = ROUNDS - 1; round >= 0; round--) {
        const previous = right ^ f(left, round);
        right = left;
        left = previous;
      }
    }
    return (left << half) | right;
  }
}

function toBase62(value: number, length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) {
    code = CODE_ALPHABET[value % 62]! + code;
    value = Math.floor(value / 62);
  }
  return code;
}

function toBase62Big(value: bigint, length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) {
    code = CODE_ALPHABET[Number(value % 62n)]! + code;
    value /= 62n;
  }
  return code;
}
