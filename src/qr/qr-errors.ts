// The errors of a QR code's parameters that only its drawing finds, declared once (decision 0037):
// qr-drawing.ts throws them on a QR thread, and the route shows them in the API document.
import { BriefError, declareError } from '../errors.js';
import type { QrLevel } from './schemas.js';

export const QR_ERRORS = {
  capacity: declareError(
    'More than a QR code holds at that level',
    (level: QrLevel) => BriefError.invalid('url', 'capacity', `The url field is too long for a QR code at level ${level}`),
    'H',
  ),
  /** Under one pixel per module the code cannot be read; the same rule for SVG keeps `width` one meaning. */
  tooNarrow: (cells: number) => BriefError.invalid('width', 'range', `The width field must be at least ${cells} for this url, level and margin`),
};
