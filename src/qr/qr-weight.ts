// What one QR request counts against RATE_LIMIT_QR (http/rate-limits.ts counts it; the route
// declares it). The weight follows what drawing costs (measured, docs/benchmarks.md): the code's
// matrix grows with the URL, ~1 ms of a core for a short URL to ~15–20 ms for 1,900 characters, and a
// PNG's pixels with the width (a 2,048-pixel PNG a few ms more), so one unit is about a short code.
import { normalizeQrUrl } from './qr-service.js';
import { QR_URL_MAX_LENGTH, type QrQuery } from './schemas.js';

/** Characters of URL that count one more. */
export const QR_WEIGHT_CHARACTERS = 128;
/** Pixels of width that count one more. */
export const QR_WEIGHT_PIXELS = 1024;

/**
 * 1, plus 1 for every full 128 characters of the URL as it is encoded (normalized), plus 1 for every
 * full 1,024 pixels of width: a short URL at the default 256 pixels is 1, at 1,024 pixels 2, a
 * 1,900-character URL at 2,048 pixels 17.
 */
export function qrWeight(query: Pick<QrQuery, 'url' | 'width'>): number {
  let length = query.url.length;
  try {
    length = normalizeQrUrl(query.url).length;
  } catch {
    // Not a URL the code can encode: the call is a 422 before any drawing; counted by what was sent.
  }
  return 1 + Math.floor(Math.min(length, QR_URL_MAX_LENGTH) / QR_WEIGHT_CHARACTERS) + Math.floor(query.width / QR_WEIGHT_PIXELS);
}
