// qrcode's own SVG renderer, called with a code already made (qr-drawing.ts): QRCode.toString
// would make the same code a second time, half of an SVG's cost. @types/qrcode leaves it out.
declare module 'qrcode/lib/renderer/svg-tag.js' {
  import type { QRCode, QRCodeRenderersOptions } from 'qrcode';

  export function render(code: QRCode, options: QRCodeRenderersOptions): string;
}
