// Drawing one QR code: the CPU work of a QR request (a few ms to tens of ms for long URLs), run on
// the QR threads (qr-worker.ts), never on the event loop. Input and output are plain data, since
// they cross between threads.
import QRCode from 'qrcode';
import { render as renderSvg } from 'qrcode/lib/renderer/svg-tag.js';
import type { FieldError } from '../errors.js';
import { QR_ERRORS } from './qr-errors.js';
import type { QrFormat, QrLevel } from './schemas.js';
import { encodeTwoColourPng, type Rgba } from './two-colour-png.js';

/** What is drawn: QrSpec's fields (qr-service.ts), checked and normalized already. */
export interface QrDrawing {
  readonly text: string;
  readonly width: number;
  readonly margin: number;
  readonly level: QrLevel;
  /** `#rrggbbaa`, lower case. */
  readonly dark: string;
  readonly light: string;
  readonly format: QrFormat;
}

export interface QrImage {
  contentType: 'image/svg+xml' | 'image/png';
  body: Buffer | string;
}

/** What a QR thread answers (qr-worker.ts): the image, or why the parameters cannot make one. */
export type QrThreadAnswer = { image: QrImage } | { invalid: FieldError };

const TOO_BIG = /too big to be stored/i;

/** The image; BriefError (E_VALIDATION_ERROR) when the URL does not fit at that level, or `width` is too small for it. */
export function drawQr(spec: QrDrawing): QrImage {
  const code = encode(spec.text, spec.level);
  const cells = code.modules.size + 2 * spec.margin;
  if (spec.width < cells) throw QR_ERRORS.tooNarrow(cells);
  if (spec.format === 'svg') {
    // What QRCode.toString(text, { type: 'svg', … }) writes, byte for byte, from the code made above:
    // width="…" height="…" and viewBox="0 0 cells cells", the requested size, scaled exactly.
    const body = renderSvg(code, { margin: spec.margin, width: spec.width, color: { dark: spec.dark, light: spec.light } });
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

function encode(text: string, level: QrLevel): QRCode.QRCode {
  try {
    return QRCode.create(text, { errorCorrectionLevel: level });
  } catch (error) {
    if (error instanceof Error && TOO_BIG.test(error.message)) {
      throw QR_ERRORS.capacity(level);
    }
    throw error;
  }
}

function rgba(colour: string): Rgba {
  const value = (at: number) => Number.parseInt(colour.slice(at, at + 2), 16);
  return { r: value(1), g: value(3), b: value(5), a: value(7) };
}
