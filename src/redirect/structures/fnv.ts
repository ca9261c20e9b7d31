/** FNV-1a, 32-bit: the hash of the redirect path's bit and slot tables. */
export const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Continues hash `h` over one more number (a byte or a small id). */
export function fnvMix(h: number, value: number): number {
  return Math.imul(h ^ value, FNV_PRIME);
}

/** Continues hash `h` over the UTF-16 code units of `text`. */
export function fnvText(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = fnvMix(h, text.charCodeAt(i));
  return h;
}
