import { createHash } from 'node:crypto';

/** The key dedupe finds a link's destination by (the `url_hash` column): SHA-256 of the normalized URL. */
export function urlHash(href: string): Buffer {
  return createHash('sha256').update(href).digest();
}
