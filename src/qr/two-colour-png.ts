// A PNG encoder for two-colour square images: 1 bit per pixel, a two-entry palette (PLTE),
// alpha through tRNS. qrcode's own PNG renderer is not used for two measured reasons: it
// sizes the image as floor(modules * (width / modules)), one pixel short of `width` for about
// 19,000 of the (modules, width) pairs this route allows, and it writes 8-bit RGBA through
// pngjs: 200–400 ms of CPU for a 2048-pixel image, against about 10 ms here.
import { deflateSync } from 'node:zlib';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A `size`×`size` PNG of two colours. `isDark(row, column)` says which colour a cell of the
 * `cells`×`cells` grid has; each cell covers floor-spaced pixels, so the image is exactly
 * `size` pixels wide whether or not `size` is a multiple of `cells` (cells then differ by one pixel).
 */
export function encodeTwoColourPng(size: number, cells: number, isDark: (row: number, column: number) => boolean, light: Rgba, dark: Rgba): Buffer {
  const cellOf = (pixel: number) => Math.floor((pixel * cells) / size); // integers: exact
  const columnCell = Uint16Array.from({ length: size }, (_, x) => cellOf(x));
  const rowCells = new Uint8Array(cells);
  const stride = 1 + Math.ceil(size / 8); // filter byte, then 8 pixels a byte
  const raw = Buffer.alloc(stride * size); // zero: filter "none", palette index 0 (light)
  let previousRow = -1;
  for (let y = 0; y < size; y++) {
    const row = cellOf(y);
    const at = y * stride;
    if (row === previousRow) {
      raw.copy(raw, at, at - stride, at); // the same cell row: the same pixels
      continue;
    }
    previousRow = row;
    for (let column = 0; column < cells; column++) rowCells[column] = isDark(row, column) ? 1 : 0;
    for (let x = 0; x < size; x++) {
      if (rowCells[columnCell[x]!]) raw[at + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }

  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([1, 3, 0, 0, 0], 8); // bit depth 1, colour type 3 (palette), deflate, no filter, no interlace
  const chunks = [
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from([light.r, light.g, light.b, dark.r, dark.g, dark.b])),
    ...(light.a < 255 || dark.a < 255 ? [chunk('tRNS', Buffer.from([light.a, dark.a]))] : []),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ];
  return Buffer.concat([SIGNATURE, ...chunks]);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

// zlib.crc32 exists only from Node 20.15; the table is the PNG specification's.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
