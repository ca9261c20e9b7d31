// The QR code route's data schemas, defined once: Fastify validates the query with them (Ajv,
// whose errors http/error-handler.ts turns into the v2 messages), QrService takes its types
// from them, and routes.ts puts them into the API document.
import { type Static, Type } from '@sinclair/typebox';
import { withDefaults } from '../query-defaults.js';

const QR_LEVELS = ['L', 'M', 'Q', 'H'] as const;
const QR_FORMATS = ['svg', 'png'] as const;
export type QrLevel = (typeof QR_LEVELS)[number];
export type QrFormat = (typeof QR_FORMATS)[number];

export const QR_URL_MAX_LENGTH = 2048;

/** 3, 6 or 8 hex digits (`rgb`, `rrggbb`, `rrggbbaa`), with or without `#` (sent as `%23`). */
const HEX_COLOUR = '^#?(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$';

const colour = (description: string, fallback: string, examples: string[]) =>
  Type.String({ pattern: HEX_COLOUR, default: fallback, description, examples });

// Ranges, lists and patterns are checked here (Ajv, so the messages are the handler's); what a
// URL is, and what fits into a QR code, QrService checks.
export const QrQuery = withDefaults(
  Type.Object({
    url: Type.String({
      maxLength: QR_URL_MAX_LENGTH,
      description:
        'What the code encodes: an absolute http or https URL, at most 2,048 characters. It is normalized with the WHATWG URL ' +
        'parser (lower-case scheme and host, punycode host, default port dropped), and the normalized form is encoded. ' +
        'It is never fetched.',
      examples: ['https://example.com/some/long/page'],
    }),
    width: Type.Integer({
      minimum: 64,
      maximum: 2048,
      default: 256,
      description:
        'Width and height of the image in pixels, the quiet zone (margin) included; for SVG, its `width` and `height` attributes. ' +
        'It must leave at least one pixel per module, which only matters for long URLs at high levels.',
      examples: [256],
    }),
    margin: Type.Integer({ minimum: 0, maximum: 16, default: 2, description: 'Quiet zone around the code, in modules.', examples: [2] }),
    // `type` and `enum` as one keyword pair (TypeBox's Enum would drop `type`), so a repeated
    // parameter is still "must be a string" rather than "is invalid".
    level: Type.Unsafe<QrLevel>({
      type: 'string',
      enum: [...QR_LEVELS],
      default: 'M',
      description: 'Error-correction level: L (7%), M (15%), Q (25%) or H (30%) of the code may be damaged and it still reads.',
      examples: ['M'],
    }),
    dark: colour('Colour of the dark modules: 3, 6 or 8 (with alpha) hex digits, with or without `#` (percent-encoded as `%23`).', '000000', [
      '000000',
      '#1a73e8',
    ]),
    light: colour('Colour of the background and quiet zone: 3, 6 or 8 hex digits; `ffffff00` is transparent.', 'ffffff', ['ffffff', 'ffffff00']),
    format: Type.Optional(
      Type.Unsafe<QrFormat>({
        type: 'string',
        enum: [...QR_FORMATS],
        description:
          'Image format. Without it the `Accept` header decides: `image/png` preferred over SVG gives PNG, anything else SVG. ' +
          'When given, it wins over `Accept`.',
        examples: ['png'],
      }),
    ),
  }),
);

/** The query as the route receives it: Ajv (useDefaults) has filled in every default; `format` has none (withDefaults). */
export type QrQuery = Static<typeof QrQuery>;

/** What QrService takes: the validated query with the format chosen (by `format`, or by the route from `Accept`). */
export type QrParams = Omit<QrQuery, 'format'> & { format: QrFormat };
