import { randomFillSync } from 'node:crypto';
import { BriefError } from '../errors.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 62 * 4 = 248: bytes at or above it are dropped so every character is equally likely.
const UNBIASED_LIMIT = 248;

export const SLUG_MAX_LENGTH = 64;
/** What may stand after the domain in a short URL: a slug, or a generated code. */
export const LINK_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** First path segments that belong to Brief itself (now or on the roadmap), never to a link. */
// biome-ignore format: a list of words reads best as lines of words
export const RESERVED_SLUGS = new Set([
  'v1', 'v2', 'v3', 'api', 'admin', 'health', 'healthz', 'ready', 'readyz', 'live', 'livez', 'metrics',
  'docs', 'openapi', 'swagger', 'static', 'assets', 'public', 'login', 'logout', 'qr', 'stats', 'app', 'auth',
]);

// Random bytes drawn 4 KB at a time: one call into the CSPRNG per ~500 codes instead of one
// per code (a tenth of a bulk create's time went to those calls). Each byte is used once.
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/**
 * A code of `length` characters of [0-9A-Za-z] from crypto randomness. Never a reserved
 * word (a 7-character code could spell `metrics`), so no link key is ever one of ours.
 */
export function generateCode(length: number): string {
  for (;;) {
    let code = '';
    while (code.length < length) {
      const byte = randomByte();
      if (byte < UNBIASED_LIMIT) code += ALPHABET[byte % 62];
    }
    if (!RESERVED_SLUGS.has(code.toLowerCase())) return code;
  }
}

/** Checks a requested slug; slugs are case-sensitive, reserved words are refused in any case. */
export function validateSlug(slug: string): string {
  if (slug.length > SLUG_MAX_LENGTH) {
    throw BriefError.invalid('slug', 'maxLength', `The slug field must not be greater than ${SLUG_MAX_LENGTH} characters`);
  }
  if (!LINK_KEY.test(slug)) throw BriefError.invalid('slug', 'regex', 'The slug field format is invalid');
  if (RESERVED_SLUGS.has(slug.toLowerCase())) throw BriefError.invalid('slug', 'reserved', 'The slug is reserved');
  return slug;
}
