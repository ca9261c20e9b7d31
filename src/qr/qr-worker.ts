// A QR thread (qr-service.ts starts them through WorkerPool): draws one code at a time at the lowest
// CPU priority. A refusal (the URL does not fit, the width is too small) comes back as the field's
// error, since a BriefError does not survive the trip between threads.
import { BriefError } from '../errors.js';
import { serveTasks } from '../worker-pool.js';
import { drawQr, type QrDrawing, type QrThreadAnswer } from './qr-drawing.js';

serveTasks((spec: QrDrawing): QrThreadAnswer => {
  try {
    return { image: drawQr(spec) };
  } catch (error) {
    const invalid = error instanceof BriefError ? error.errors?.[0] : undefined;
    if (invalid) return { invalid };
    throw error;
  }
});
