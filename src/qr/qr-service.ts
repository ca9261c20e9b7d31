import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { versions } from 'node:process';
import { LRUCache } from 'lru-cache';
import QRCode from 'qrcode';
import { BriefError } from '../errors.js';
import { normalizeUrl } from '../net/normalize-url.js';
import { QR_URL_MAX_LENGTH, type QrFormat, type QrLevel, type QrParams } from './schemas.js';
import { encodeTwoColourPng, type Rgba } from './two-colour-png.js';

export interface QrImage {
  contentType: 'image/svg+xml' | 'image/png';
  body: Buffer | string;
}

/** A request for a QR code, checked and normalized: equal specs make byte-identical images. */
export interface QrSpec {
  /** The normalized URL the code encodes. */
  readonly text: string;
  readonly width: number;
  readonly margin: number;
  readonly level: QrLevel;
  /** `#rrggbbaa`, lower case. */
  readonly dark: string;
  readonly light: string;
  readonly format: QrFormat;
  /** A hash of everything above and of what renders it: a strong validator (ETag) and the cache key. */
  readonly key: string;
}

// Whatever can change the bytes for the same parameters goes into the key: this renderer's
// version (bump it when the output changes), qrcode's (masks, segments) and zlib's (PNG bytes).
const RENDERER_VERSION = 1;
const { version: QRCODE_VERSION } = createRequire(import.meta.url)('qrcode/package.json') as { version: string };
const OUTPUT_VERSION = `${RENDERER_VERSION}/${QRCODE_VERSION}/${versions.zlib}`;

const TOO_BIG = /too big to be stored/i;

/**
 * QR codes of URLs as SVG (qrcode's renderer) or PNG (two-colour-png.ts), with a bounded cache
 * of the images made: generating is CPU work on the event loop the redirects share (~10–20 ms
 * for a 2048-pixel PNG, 1–15 ms for an SVG), and the same code is typically requested again and
 * again with the same parameters (an image on a page, by clients without a cached copy).
 */
export class QrService {
  private readonly cache: LRUCache<string, QrImage> | undefined;

  /** `cacheBytes`: the most image bytes kept (0: no cache). 8 MB holds hundreds of typical images. */
  constructor(cacheBytes = 8 * 1024 * 1024) {
    // An image larger than the whole cache is simply not kept (lru-cache refuses it).
    this.cache =
      cacheBytes > 0 ? new LRUCache({ maxSize: cacheBytes, sizeCalculation: (image) => Math.max(1, Buffer.byteLength(image.body)) }) : undefined;
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

  /** The image of a prepared spec; BriefError when the URL does not fit at that level, or `width` is too small for it. */
  async render(spec: QrSpec): Promise<QrImage> {
    const cached = this.cache?.get(spec.key);
    if (cached) return cached;
    const image = await this.draw(spec);
    this.cache?.set(spec.key, image);
    return image;
  }

  /** prepare, then render. */
  async generate(params: QrParams): Promise<QrImage> {
    return this.render(this.prepare(params));
  }

  private async draw(spec: QrSpec): Promise<QrImage> {
    const code = encode(spec.text, spec.level);
    const cells = code.modules.size + 2 * spec.margin;
    if (spec.width < cells) {
      // Under one pixel per module the code cannot be read; the same rule for SVG keeps `width` one meaning.
      throw BriefError.invalid('width', 'range', `The width field must be at least ${cells} for this url, level and margin`);
    }
    if (spec.format === 'svg') {
      // qrcode writes width="…" height="…" and viewBox="0 0 cells cells": the requested size, scaled exactly.
      const body = await QRCode.toString(spec.text, {
        type: 'svg',
        errorCorrectionLevel: spec.level,
        margin: spec.margin,
        width: spec.width,
        color: { dark: spec.dark, light: spec.light },
      });
      return { contentType: 'image/svg+xml', body };
    }
    const { size, data } = code.modules;
    const isDark = (row: number, column: number) => {
      const r = row - spec.margin;
      const c = column - spec.margin;
      return r >= 0 && c >= 0 && r < size && c < size && data[r * size + c] === 1;
    };
    const body = encodeTwoColourPng(spec.width, cells, isDark, rgba(spec.light), rgba(spec.dark));
    return { contentType: 'image/png', body };
  }
}

function encode(text: string, level: QrLevel): QRCode.QRCode {
  try {
    return QRCode.create(text, { errorCorrectionLevel: level });
  } catch (error) {
    if (error instanceof Error && TOO_BIG.test(error.message)) {
      throw BriefError.invalid('url', 'capacity', `The url field is too long for a QR code at level ${level}`);
    }
    throw error;
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

function rgba(colour: string): Rgba {
  const value = (at: number) => Number.parseInt(colour.slice(at, at + 2), 16);
  return { r: value(1), g: value(3), b: value(5), a: value(7) };
}
