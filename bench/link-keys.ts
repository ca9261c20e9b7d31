// Deterministic short keys for preloaded links, so the load generator can name any of
// them without holding a list: key(i) is 7 base62 characters, distinct for distinct i
// (multiplication by a prime is a bijection modulo 62^7).
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SPACE = 62 ** 7;
const PRIME = 2_654_435_761;

export function linkKey(index: number): string {
  let n = (index * PRIME + 1_000_003) % SPACE;
  let key = '';
  for (let i = 0; i < 7; i++) {
    key = ALPHABET[n % 62]! + key;
    n = Math.floor(n / 62);
  }
  return key;
}

/** A realistic long URL of about 60 characters. */
export function linkUrl(index: number): string {
  return `https://www.example.com/blog/2024/06/${index}-how-to-shorten-links`;
}
