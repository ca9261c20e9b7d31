import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { versions } from 'node:process';
import { LRUCache } from 'lru-cache';
import { BriefError } from '../errors.js';
import { normalizeUrl } from '../net/normalize-url.js';
import { threadScript } from '../thread-scripts.js';
import { WorkerPool } from '../worker-pool.js';
import type { QrDrawing, QrImage, QrThreadAnswer } from './qr-drawing.js';
import { QR_URL_MAX_LENGTH, type QrParams } from './schemas.js';

export type { QrImage };

/** A request for a QR code, checked and normalized: equal specs make byte-identical images. */
export interface QrSpec extends QrDrawing {
  /** A hash of everything drawn and of what renders it: a strong validator (ETag) and the cache key. */
  readonly key: string;
}

// Whatever can change the bytes for the same parameters goes into the key: this renderer's
// version (bump it when the output changes), qrcode's (masks, segments) and zlib's (PNG bytes).
const RENDERER_VERSION = 1;
const { version: QRCODE_VERSION } = createRequire(import.meta.url)('qrcode/package.json') as { version: string };
const OUTPUT_VERSION = `${RENDERER_VERSION}/${QRCODE_VERSION}/${versions.zlib}`;

/**
 * Codes drawn at once, each on a QR thread at nice 19 (which takes only the CPU the event loop
 * leaves): two draw ~100 of the dearest codes (a 2,048-character URL, ~10–20 ms of a core) a second,
 * or ~1,000 short ones, and bound the CPU and memory a flood from many addresses can take.
 */
export const QR_THREADS = 2;
/** Codes waiting for a thread, at most (well under a second's wait at typical codes' 1–3 ms); beyond, busy. */
export const QR_WAITING = 64;

export interface QrServiceOptions {
  /** The most image bytes kept (0: no cache). 8 MB holds hundreds of typical images. */
  cacheBytes?: number;
  /** Codes drawn at once, each on a thread of its own. */
  threads?: number;
  /** Codes waiting for a thread, at most; any more is answered `busy`. */
  waiting?: number;
}

/**
 * QR codes of URLs as SVG (qrcode's renderer) or PNG (two-colour-png.ts). Drawing is CPU work
 * (1–20 ms a code, more for longer URLs), so it never runs on the event loop the redirects share:
 * codes are drawn on QR threads (qr-worker.ts) at the lowest CPU priority, at most `threads` at once
 * and `waiting` waiting, any more answered `busy` at once (the route's 503). No code is drawn in place,
 * however small: handing one to a thread and taking its image back cost the event loop ~0.05–0.2 ms,
 * drawing the smallest code (a short URL at 256 pixels) 0.3–0.7 ms (measured 2026-11-27). Each instance keeps
 * the images made in a bounded cache (the same code is typically asked for again and again: an
 * image on a page, clients without a cached copy), and the same code asked for while it is being
 * drawn waits for that drawing rather than starting another.
 */
export class QrService {
  private readonly cache: LRUCache<string, QrImage> | undefined;
  private readonly drawing = new Map<string, Promise<QrImage | 'busy'>>();
  private readonly threads: WorkerPool<QrDrawing, QrThreadAnswer>;

  constructor(options: QrServiceOptions = {}) {
    const { cacheBytes = 8 * 1024 * 1024, threads = QR_THREADS, waiting = QR_WAITING } = options;
    // An image larger than the whole cache is simply not kept (lru-cache refuses it).
    this.cache =
      cacheBytes > 0 ? new LRUCache({ maxSize: cacheBytes, sizeCalculation: (image) => Math.max(1, Buffer.byteLength(image.body)) }) : undefined;
    this.threads = new WorkerPool(threadScript(import.meta.url, 'qr-worker'), threads, waiting);
  }

  /** Checks and normalizes the parameters; BriefError (E_VALIDATION_ERROR) for a bad URL. */
  prepare(params: QrParams): QrSpec {
    const text = normalizeQrUrl(params.url);
    const spec = {
      text,
      width: params.width,
      margin: params.margin,
      level: params.level,
      dark: normalizeColour(params.dark),
      light: normalizeColour(params.light),
      format: params.format,
    };
    const key = createHash('sha256')
      .update(JSON.stringify([OUTPUT_VERSION, spec.text, spec.width, spec.margin, spec.level, spec.dark, spec.light, spec.format]))
      .digest('base64url');
    return { ...spec, key };
  }

  /**
   * The image of a prepared spec, or `busy` when every QR thread is drawing and enough codes wait
   * already; BriefError when the URL does not fit at that level, or `width` is too small for it.
   */
  async render(spec: QrSpec): Promise<QrImage | 'busy'> {
    const cached = this.cache?.get(spec.key);
    if (cached) return cached;
    let drawn = this.drawing.get(spec.key);
    if (!drawn) {
      drawn = this.draw(spec).finally(() => this.drawing.delete(spec.key));
      this.drawing.set(spec.key, drawn);
    }
    return drawn;
  }

  /** prepare, then render. */
  async generate(params: QrParams): Promise<QrImage | 'busy'> {
    return this.render(this.prepare(params));
  }

  /** Ends the QR threads (the app's close). */
  close(): Promise<void> {
    return this.threads.close();
  }

  private async draw(spec: QrSpec): Promise<QrImage | 'busy'> {
    const { key: _key, ...drawing } = spec;
    const answer = await this.threads.run(drawing);
    if (answer === 'busy') return 'busy';
    if ('invalid' in answer) throw BriefError.invalid(answer.invalid.field, answer.invalid.rule, answer.invalid.message);
    const { contentType, body } = answer.image;
    // A Buffer crosses between threads as a plain Uint8Array: the same bytes, viewed as a Buffer again.
    const image: QrImage = { contentType, body: typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
    this.cache?.set(spec.key, image);
    return image;
  }
}

/** The URL to encode: normalized as a link's destination is (never fetched), at most QR_URL_MAX_LENGTH characters. */
export function normalizeQrUrl(raw: string): string {
  return normalizeUrl(raw, QR_URL_MAX_LENGTH).href;
}

/** `rgb`, `rrggbb` or `rrggbbaa`, with or without `#` (the schema's pattern) → `#rrggbbaa`, lower case. */
export function normalizeColour(colour: string): string {
  let hex = colour.replace(/^#/, '').toLowerCase();
  if (hex.length === 3) hex = [...hex].map((digit) => digit + digit).join('');
  if (hex.length === 6) hex += 'ff';
  return `#${hex}`;
}
