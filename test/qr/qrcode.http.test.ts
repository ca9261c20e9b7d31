// GET /v2/qrcode: images that a QR reader decodes back to the URL, content negotiation,
// validation in the v2 error shape, and HTTP caching.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { qs, useTestApp } from '../support/app.js';

type Json = any;
// jsqr is CommonJS whose exports are the function with itself as `default`; NodeNext types see only the latter.
const jsQR = jsQRModule.default;
const URL_A = 'https://example.com/some/long/page?utm_source=qr';

/** Decodes RGBA pixels with jsQR; the text, or undefined when no code is found. */
function readQr(data: Uint8ClampedArray | Uint8Array, width: number, height: number): string | undefined {
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width, height)?.data;
}

function decodePng(body: Buffer): { png: PNG; text: string | undefined } {
  const png = PNG.sync.read(body);
  return { png, text: readQr(png.data, png.width, png.height) };
}

/** The RGBA of the pixel at (x, y). */
function pixel(png: PNG, x: number, y: number): number[] {
  const at = (y * png.width + x) * 4;
  return [...png.data.subarray(at, at + 4)];
}

interface ParsedSvg {
  width: string;
  height: string;
  viewBox: string;
  cells: number;
  background?: { fill: string; d: string; opacity?: string };
  foreground: { stroke: string; d: string; opacity?: string };
  /** Dark modules, from the foreground path: grid[row][column], quiet zone included. */
  grid: boolean[][];
}

/**
 * Parses the SVG as XML (well-formedness checked by fast-xml-parser's validator) and turns its
 * dark path back into the module grid. qrcode draws each run of dark modules as a stroked
 * horizontal line through the middle of its row: `M x y` (absolute), `m dx dy` (relative) and
 * `h length`; the module row is floor(y). That bitmap is then read with jsQR, so the test decodes
 * the SVG without a renderer.
 */
function parseSvg(body: string): ParsedSvg {
  assert.equal(XMLValidator.validate(body), true, 'well-formed XML');
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'path' }).parse(body);
  assert.deepEqual(
    Object.keys(doc).filter((k) => k !== '?xml'),
    ['svg'],
    'one <svg> root',
  );
  const svg = doc.svg;
  assert.equal(svg.xmlns, 'http://www.w3.org/2000/svg');
  const paths: Json[] = svg.path;
  const background = paths.find((p) => p.fill !== undefined);
  const foreground = paths.find((p) => p.stroke !== undefined);
  assert.ok(foreground, 'a dark path');
  const [minX, minY, w, h] = svg.viewBox.split(' ').map(Number);
  assert.deepEqual([minX, minY], [0, 0]);
  assert.equal(w, h, 'square');
  const cells = w as number;
  const grid = Array.from({ length: cells }, () => Array<boolean>(cells).fill(false));
  let x = 0;
  let y = 0;
  for (const [, command, args] of (foreground.d as string).matchAll(/([MmHhVvZz])([^MmHhVvZz]*)/g)) {
    const n =
      args!.trim() === ''
        ? []
        : args!
            .trim()
            .split(/[\s,]+/)
            .map(Number);
    if (command === 'M') [x, y] = n as [number, number];
    else if (command === 'm') [x, y] = [x + n[0]!, y + n[1]!];
    else if (command === 'h') {
      for (let c = x; c < x + n[0]!; c++) grid[Math.floor(y)]![c] = true;
      x += n[0]!;
    } else assert.fail(`unexpected path command ${command}`);
  }
  return {
    width: svg.width,
    height: svg.height,
    viewBox: svg.viewBox,
    cells,
    background: background && { fill: background.fill, d: background.d, opacity: background['fill-opacity'] },
    foreground: { stroke: foreground.stroke, d: foreground.d, opacity: foreground['stroke-opacity'] },
    grid,
  };
}

/** Renders a module grid as black on white, `scale` pixels a module, and reads it with jsQR. */
function readGrid(grid: boolean[][], scale = 4): string | undefined {
  const size = grid.length * scale;
  const data = new Uint8ClampedArray(size * size * 4).fill(255);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (grid[Math.floor(y / scale)]![Math.floor(x / scale)]) data.fill(0, (y * size + x) * 4, (y * size + x) * 4 + 3);
    }
  }
  return readQr(data, size, size);
}

describe('GET /v2/qrcode', () => {
  const ctx = useTestApp('sqlite');
  const get = (params: Record<string, string>, headers: Record<string, string> = {}) =>
    ctx.t.app.inject({ url: `/v2/qrcode?${qs(params)}`, headers });

  describe('PNG', () => {
    for (const [level, extra] of [
      ['L', {}],
      ['H', { margin: '5', dark: '%23003366', light: 'ffeecc' }],
      ['Q', { width: '333', margin: '0', dark: '#a00', light: '#ffffffff' }],
    ] as const) {
      it(`decodes back to the URL at level ${level} ${JSON.stringify(extra)}`, async () => {
        const width = 'width' in extra ? Number(extra.width) : 300;
        const params: Record<string, string> = { url: URL_A, level, format: 'png', width: String(width), ...extra };
        // `%23` written into the query by hand: qs() would encode the `%` itself.
        const query = qs(params).replace('%2523', '%23');
        const res = await ctx.t.app.inject({ url: `/v2/qrcode?${query}` });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['content-type'], 'image/png');
        const { png, text } = decodePng(res.rawPayload);
        assert.equal(png.width, width, 'the pixel width is `width`');
        assert.equal(png.height, width);
        assert.equal(text, URL_A);
        // The quiet zone's corner is the light colour, the finder pattern's corner the dark one.
        if ('light' in extra) {
          const hex = (colour: string) => {
            const digits = colour.replace(/^(#|%23)/, '').slice(0, 6);
            return [...Buffer.from(digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits, 'hex')];
          };
          const margin = Number(extra.margin);
          if (margin > 0) assert.deepEqual(pixel(png, 0, 0), [...hex(extra.light), 255]);
          const moduleSize = width / (QRCode.create(URL_A, { errorCorrectionLevel: level }).modules.size + 2 * margin);
          const finder = Math.floor((margin + 0.5) * moduleSize);
          assert.deepEqual(pixel(png, finder, finder), [...hex(extra.dark), 255]);
        }
      });
    }

    it('is exactly `width` pixels for every width a 25-module code allows, and still reads', async () => {
      for (const width of [64, 97, 101, 255, 256, 257, 1000, 2048]) {
        const res = await get({ url: 'https://ex.am/ple', format: 'png', width: String(width) });
        assert.equal(res.statusCode, 200, `${width}: ${res.body}`);
        const { png, text } = decodePng(res.rawPayload);
        assert.deepEqual([png.width, png.height], [width, width]);
        if (width >= 97) assert.equal(text, 'https://ex.am/ple', `${width} reads`);
      }
    });

    it('keeps alpha: an 8-digit light colour with alpha 00 is transparent', async () => {
      const res = await get({ url: URL_A, format: 'png', light: 'ffffff00', dark: '000000cc' });
      const { png } = decodePng(res.rawPayload);
      assert.deepEqual(pixel(png, 0, 0), [255, 255, 255, 0]);
      const finder = Math.floor((2.5 * 256) / (QRCode.create(URL_A, { errorCorrectionLevel: 'M' }).modules.size + 4));
      assert.deepEqual(pixel(png, finder, finder), [0, 0, 0, 0xcc]);
    });
  });

  describe('SVG', () => {
    it('is well-formed SVG of the requested size and colours, and its modules read back as the URL', async () => {
      const res = await get({ url: URL_A, width: '300', margin: '3', level: 'Q', dark: '1A73E8', light: '#fafafa' });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.headers['content-type'] as string, /^image\/svg\+xml/);
      const svg = parseSvg(res.body);
      assert.equal(svg.width, '300');
      assert.equal(svg.height, '300');
      const code = QRCode.create(URL_A, { errorCorrectionLevel: 'Q' });
      assert.equal(svg.cells, code.modules.size + 2 * 3, 'the viewBox counts modules, quiet zone included');
      assert.equal(svg.foreground.stroke, '#1a73e8');
      assert.equal(svg.foreground.opacity, undefined);
      assert.equal(svg.background?.fill, '#fafafa');
      assert.equal(svg.background?.d, `M0 0h${svg.cells}v${svg.cells}H0z`, 'the background covers the whole image');
      // The modules are the encoder's, in place (the quiet zone empty), and a QR reader reads them.
      for (let r = 0; r < svg.cells; r++) {
        for (let c = 0; c < svg.cells; c++) {
          const inside = r >= 3 && c >= 3 && r < 3 + code.modules.size && c < 3 + code.modules.size;
          const expected = inside && code.modules.data[(r - 3) * code.modules.size + (c - 3)] === 1;
          assert.equal(svg.grid[r]![c], expected, `module ${r},${c}`);
        }
      }
      assert.equal(readGrid(svg.grid), URL_A);
    });

    it('uses the defaults: 256 pixels, margin 2, level M, black on white', async () => {
      const svg = parseSvg((await get({ url: URL_A })).body);
      assert.equal(svg.width, '256');
      assert.equal(svg.height, '256');
      assert.equal(svg.cells, QRCode.create(URL_A, { errorCorrectionLevel: 'M' }).modules.size + 4);
      assert.equal(svg.foreground.stroke, '#000000');
      assert.equal(svg.background?.fill, '#ffffff');
      assert.equal(readGrid(svg.grid), URL_A);
    });

    it('writes alpha as opacity, and leaves out a fully transparent background', async () => {
      const svg = parseSvg((await get({ url: URL_A, dark: '11223380', light: 'ffffff00' })).body);
      assert.equal(svg.foreground.stroke, '#112233');
      assert.equal(svg.foreground.opacity, '.50');
      assert.equal(svg.background, undefined);
    });

    it('encodes the normalized URL', async () => {
      const svg = parseSvg((await get({ url: '  HTTPS://Bücher.Example:443/a/../b?x=ü ' })).body);
      assert.equal(readGrid(svg.grid), 'https://xn--bcher-kva.example/b?x=%C3%BC');
    });

    // Drawn on a QR thread from the code made once (issue 37): the bytes of qrcode's own toString.
    it("is byte for byte what qrcode's toString writes for the same code", async () => {
      for (const [params, options] of [
        [{ url: URL_A }, { errorCorrectionLevel: 'M', margin: 2, width: 256, color: { dark: '#000000ff', light: '#ffffffff' } }],
        [
          { url: `${URL_A}&${'x'.repeat(1800)}`, width: '2048', margin: '0', level: 'L', dark: '11223380', light: 'ffffff00' },
          { errorCorrectionLevel: 'L', margin: 0, width: 2048, color: { dark: '#11223380', light: '#ffffff00' } },
        ],
        [
          { url: URL_A, width: '333', margin: '7', level: 'H', dark: 'a00', light: 'fafafa' },
          { errorCorrectionLevel: 'H', margin: 7, width: 333, color: { dark: '#aa0000ff', light: '#fafafaff' } },
        ],
      ] as const) {
        const res = await get(params);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.body, await QRCode.toString(params.url, { type: 'svg', ...options }));
      }
    });
  });

  describe('content negotiation', () => {
    const typeOf = async (params: Record<string, string>, accept?: string) => {
      const res = await get({ url: URL_A, ...params }, accept === undefined ? {} : { accept });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers.vary, 'Accept');
      const type = String(res.headers['content-type']).split(';')[0];
      if (type === 'image/png') assert.equal(decodePng(res.rawPayload).text, URL_A);
      else parseSvg(res.body);
      return type;
    };

    it('answers SVG by default and for XML or anything else', async () => {
      assert.equal(await typeOf({}), 'image/svg+xml');
      assert.equal(await typeOf({}, 'application/xml'), 'image/svg+xml');
      assert.equal(await typeOf({}, 'image/svg+xml'), 'image/svg+xml');
      assert.equal(await typeOf({}, '*/*'), 'image/svg+xml');
      assert.equal(await typeOf({}, 'image/*'), 'image/svg+xml');
      assert.equal(await typeOf({}, 'text/html'), 'image/svg+xml');
      assert.equal(await typeOf({}, 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'), 'image/svg+xml');
      assert.equal(await typeOf({}, 'image/png;q=0.5, image/svg+xml'), 'image/svg+xml');
      assert.equal(await typeOf({}, 'nonsense;;q=abc,,'), 'image/svg+xml');
    });

    it('answers PNG for Accept: image/png, or when PNG is preferred', async () => {
      assert.equal(await typeOf({}, 'image/png'), 'image/png');
      assert.equal(await typeOf({}, 'IMAGE/PNG'), 'image/png');
      assert.equal(await typeOf({}, 'image/svg+xml;q=0.4, image/png'), 'image/png');
      assert.equal(await typeOf({}, 'image/png, */*;q=0.1'), 'image/png');
      assert.equal(await typeOf({}, 'image/png, image/svg+xml;q=0'), 'image/png');
    });

    it('lets `format` win over Accept', async () => {
      assert.equal(await typeOf({ format: 'svg' }, 'image/png'), 'image/svg+xml');
      assert.equal(await typeOf({ format: 'png' }, 'image/svg+xml'), 'image/png');
      assert.equal(await typeOf({ format: 'png' }), 'image/png');
    });
  });

  describe('validation', () => {
    const expect422 = async (query: string, field: string, message: string) => {
      const res = await ctx.t.app.inject({ url: `/v2/qrcode?${query}` });
      assert.equal(res.statusCode, 422, `${query}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      assert.equal(res.headers['cache-control'], undefined, 'an error is not cacheable');
      assert.equal(res.headers.etag, undefined);
      const body = res.json();
      assert.equal(body.code, 'E_VALIDATION_ERROR', query);
      assert.equal(body.message, message, query);
      assert.equal(body.errors[0].field, field, query);
      assert.equal(body.errors[0].message, message, query);
      assert.deepEqual(Object.keys(body.errors[0]).sort(), ['field', 'message', 'rule']);
    };
    const u = `url=${encodeURIComponent(URL_A)}`;

    it('refuses a missing or bad url', async () => {
      await expect422('', 'url', 'The url field must be defined');
      await expect422('url=', 'url', 'The url field must be defined');
      await expect422('url=%20%20', 'url', 'The url field must be defined');
      await expect422('width=100', 'url', 'The url field must be defined');
      for (const bad of [
        'ftp://example.com/file',
        '/relative/path',
        'example.com',
        'http:example.com',
        'javascript:alert(1)',
        'https://',
        'http://exa mple.com',
      ]) {
        await expect422(`url=${encodeURIComponent(bad)}`, 'url', 'The url field must be a valid URL');
      }
      const long = `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`;
      assert.equal(long.length, 2049);
      await expect422(`url=${long}`, 'url', 'The url field must not be greater than 2048 characters');
      // Percent-encoding can lengthen a URL past the limit: what is encoded counts.
      await expect422(
        `url=${encodeURIComponent(`https://example.com/${'é'.repeat(1000)}`)}`,
        'url',
        'The url field must not be greater than 2048 characters',
      );
    });

    it('accepts a 2,048-character URL where it fits, and says when it does not fit the level', async () => {
      const long = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
      const res = await ctx.t.app.inject({ url: `/v2/qrcode?url=${long}&level=L&width=1024&format=png` });
      // (jsQR itself misreads some dense codes at fractional scales, 512 or 905 pixels here, as it does qrcode's own PNGs.)
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(decodePng(res.rawPayload).text, long);
      await expect422(`url=${long}&level=H&width=512`, 'url', 'The url field is too long for a QR code at level H');
      // A version-33 code (149 modules) and 4 of margin do not fit in 128 pixels.
      const cells = QRCode.create(long, { errorCorrectionLevel: 'L' }).modules.size + 4;
      assert.equal(cells, 153);
      await expect422(`url=${long}&level=L&width=128`, 'width', `The width field must be at least ${cells} for this url, level and margin`);
    });

    it('refuses width, margin, level, colours and format out of their rules', async () => {
      for (const width of ['63', '2049', '0', '-5']) await expect422(`${u}&width=${width}`, 'width', 'The width field must be between 64 and 2048');
      for (const width of ['abc', '100.5', '1e3x']) await expect422(`${u}&width=${width}`, 'width', 'The width field must be a whole number');
      for (const margin of ['-1', '17']) await expect422(`${u}&margin=${margin}`, 'margin', 'The margin field must be between 0 and 16');
      for (const level of ['X', 'm', 'LL']) await expect422(`${u}&level=${level}`, 'level', 'The selected level is invalid');
      for (const dark of ['12345', '%23ggg', 'gggggg', '%23%2300', '1234', 'fffffffff', 'red']) {
        await expect422(`${u}&dark=${dark}`, 'dark', 'The dark field format is invalid');
      }
      await expect422(`${u}&light=%23abcd`, 'light', 'The light field format is invalid');
      for (const format of ['gif', 'PNG', 'jpeg']) await expect422(`${u}&format=${format}`, 'format', 'The selected format is invalid');
    });

    it('answers odd input without a 500', async () => {
      for (const query of [
        '',
        'url',
        '=&&=',
        `${u}&${u}`,
        `${u}&width=100&width=200`,
        `${u}&level=L&level=H`,
        `${u}&format=png&format=svg`,
        `${u}&dark=000&dark=fff`,
        `url=${encodeURIComponent('https://例え.テスト/パス?q=😀')}`,
        `url=${encodeURIComponent('https://example.com/\u0000\u202e')}`,
        `url=${encodeURIComponent('https://[::1]:8080/x')}`,
        `${u}&width=%F0%9F%98%80`,
        `${u}&width=1e3`,
        `${u}&width=+256`,
        `${u}&unknown=1`,
        `${u}&width=&margin=&level=&dark=&light=&format=`,
        `url[]=x`,
        `url[a]=https://example.com`,
      ]) {
        const res = await ctx.t.app.inject({ url: `/v2/qrcode?${query}` });
        assert.ok([200, 400, 422].includes(res.statusCode), `${query}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (res.statusCode !== 200) assert.equal(typeof res.json().code, 'string', query);
      }
    });

    it('treats an empty parameter as not given', async () => {
      const res = await get({ url: URL_A, width: '', margin: '', level: '', dark: '', light: '', format: '' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers.etag, (await get({ url: URL_A })).headers.etag);
    });
  });

  describe('caching', () => {
    it('is cacheable for a day with a strong ETag that depends on every parameter', async () => {
      const res = await get({ url: URL_A });
      assert.equal(res.headers['cache-control'], 'public, max-age=86400');
      const etag = res.headers.etag as string;
      assert.match(etag, /^"[A-Za-z0-9_-]{20,}"$/, 'strong: no W/');
      // Same parameters, spelled differently: the same image and the same tag.
      const sameSpelledOtherwise: Record<string, string>[] = [
        { url: URL_A, width: '256', margin: '2', level: 'M', dark: '000', light: '#FFFFFF', format: 'svg' },
        { url: URL_A.replace('https://example.com', 'HTTPS://EXAMPLE.com:443'), dark: '000000ff' },
      ];
      for (const same of sameSpelledOtherwise) {
        const again = await get(same);
        assert.equal(again.headers.etag, etag, JSON.stringify(same));
        assert.equal(again.body, res.body);
      }
      const tags = new Set([etag]);
      const others: Record<string, string>[] = [
        { url: `${URL_A}x` },
        { url: URL_A, width: '257' },
        { url: URL_A, margin: '3' },
        { url: URL_A, level: 'H' },
        { url: URL_A, dark: '111' },
        { url: URL_A, light: 'eee' },
        { url: URL_A, format: 'png' },
      ];
      for (const other of others) {
        const tag = (await get(other)).headers.etag as string;
        assert.ok(!tags.has(tag), `${JSON.stringify(other)} has a tag of its own`);
        tags.add(tag);
      }
      // PNG by Accept is the same image as by format.
      assert.equal((await get({ url: URL_A }, { accept: 'image/png' })).headers.etag, (await get({ url: URL_A, format: 'png' })).headers.etag);
    });

    it('answers 304 Not Modified to a matching If-None-Match, and 200 otherwise', async () => {
      const first = await get({ url: URL_A, format: 'png' });
      const etag = first.headers.etag as string;
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const res = await get({ url: URL_A, format: 'png' }, { 'if-none-match': ifNoneMatch });
        assert.equal(res.statusCode, 304, ifNoneMatch);
        assert.equal(res.rawPayload.length, 0);
        assert.equal(res.headers.etag, etag);
        assert.equal(res.headers['cache-control'], 'public, max-age=86400');
      }
      const other = await get({ url: URL_A, format: 'svg' }, { 'if-none-match': etag });
      assert.equal(other.statusCode, 200, 'another format is another image');
      assert.equal((await get({ url: URL_A, format: 'png' }, { 'if-none-match': '"stale"' })).statusCode, 200);
      // A bad request is still refused, whatever the validator.
      assert.equal((await get({ url: 'ftp://x', format: 'png' }, { 'if-none-match': '*' })).statusCode, 422);
    });

    it('answers HEAD with the headers and no body', async () => {
      const res = await ctx.t.app.inject({ method: 'HEAD', url: `/v2/qrcode?${qs({ url: URL_A, format: 'png' })}` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'image/png');
      assert.ok(res.headers.etag);
      assert.equal(res.rawPayload.length, 0);
    });
  });

  describe('the rest of the server', () => {
    it('leaves redirects and the not-found handling as they were', async () => {
      const short = await ctx.t.app.inject({
        url: `/v2/shorten?${qs({ url: 'https://example.com/qr-neighbour' })}`,
        headers: { host: 'short.test' },
      });
      assert.equal(short.statusCode, 200, short.body);
      const { code } = short.json();
      const redirect = await ctx.t.app.inject({ url: `/${code}`, headers: { host: 'short.test' } });
      assert.equal(redirect.statusCode, 301);
      assert.equal(redirect.headers.location, 'https://example.com/qr-neighbour');
      for (const [method, url] of [
        ['GET', '/v2/qrcode/x'],
        ['GET', '/v2/qrcodes'],
        ['POST', '/v2/qrcode'],
        ['DELETE', '/v2/qrcode'],
      ] as const) {
        const res = await ctx.t.app.inject({ method, url });
        assert.equal(res.statusCode, 404, `${method} ${url}`);
        assert.equal(res.json().code, 'E_ROUTE_NOT_FOUND');
      }
      const page = await ctx.t.app.inject({ url: '/qrcode', headers: { host: 'short.test' } });
      assert.equal(page.statusCode, 404);
      assert.match(page.headers['content-type'] as string, /^text\/html/);
    });
  });
});
