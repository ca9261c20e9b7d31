// The raw material of hostile requests: odd strings, the odd ways to put them into a URL,
// odd header values and broken bodies. Each generator is a fast-check arbitrary, so the
// property tests (shrinking a failure to its smallest case) and the fuzz share them.
import fc from 'fast-check';

/** Characters that break parsers: controls, NUL, separators, quotes, percent signs, unpaired surrogates, RTL marks. */
// biome-ignore format: a list of characters reads best as lines of characters
const NASTY = [
  '\u0000', '\u0001', '\t', '\n', '\r', '\u001f', '\u007f', '\u0085', '\u00a0', '\u200b', '\u202e', '\u2028', '\ufeff', '\ufffd',
  '\ud800', '\udfff', '%', '%00', '%zz', '%2F', '%2f', '%C0%AF', '%E2%80%AE', '/', '\\', '?', '#', '@', ':', '&', '=', '+', ' ',
  '"', "'", '<', '>', '`', '{', '}', '|', '^', '..', '.', '*', ';', ',', '$', '[', ']', '\u{1F600}', 'İ', 'ß', 'ﬀ', 'K', 'é',
  '<script>alert(1)</script>', "' OR 1=1 --", '$' + '{7*7}', '{{7*7}}', '../../etc/passwd', 'null', 'undefined', 'NaN', '-1', '1e309',
  '0x10', '__proto__', 'constructor', '[object Object]',
];

/** Words the API knows, so that generated input sometimes gets past the first check. */
// biome-ignore format: a list of words reads best as lines of words
const KNOWN = [
  'https://example.com/', 'http://example.com/a?b=c#d', 'https://bücher.example/ü', 'http://127.0.0.1:8080', 'https://[::1]/x',
  'mailto:a@b.c', 'javascript:alert(1)', 'data:text/html,hi', 'launch', 'v2', 'docs', 'svg', 'png', 'M', 'H', '7d', '24h', '1m',
  'day', 'hour', 'all', 'public', 'private', 'Europe/Paris', 'UTC', 'Mars/Olympus', 'true', 'false', '1', '0', '256', '64',
  '2048', '2049', '99999999999999999999', '9007199254740993', '1e20', '1e300', '1e400', '-0', '1.0', '0x10', '#000', 'ffffff00', '2099-01-01T00:00:00Z', '1999-01-01T00:00:00Z', '2099-13-45T99:99:99+99:99', 'undefined',
];

export const nastyChar = fc.constantFrom(...NASTY);

/** Any string, biased towards what breaks parsers: nasty characters, known words, URL-like pieces. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: fc.constantFrom(...KNOWN) },
  {
    weight: 4,
    arbitrary: fc.array(fc.oneof(nastyChar, fc.constantFrom(...KNOWN), fc.string({ maxLength: 6 })), { maxLength: 12 }).map((p) => p.join('')),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('', 'http://', 'https://', 'HTTPS://', 'ftp://', 'javascript:', 'http:', '//', 'http:///', 'https://user:pass@'),
        fc.array(fc.oneof(nastyChar, fc.domain(), fc.string({ maxLength: 8 })), { maxLength: 6 }),
      )
      .map(([scheme, parts]) => scheme + parts.join('')),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', '%', 'é', '/', '9'), fc.integer({ min: 100, max: 9000 })).map(([c, n]) => c.repeat(n)) },
);

/** Every byte of the UTF-8 form as %XX (a lone surrogate becomes U+FFFD, as TextEncoder writes it). */
export function percentAll(text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** As a browser would: unreserved characters as they are, the rest percent-encoded. */
export function percentSome(text: string): string {
  let out = '';
  for (const char of text) out += /^[A-Za-z0-9._~-]$/.test(char) ? char : percentAll(char);
  return out;
}

/** A text put into a URL: properly encoded, lazily (`+`, raw punctuation), broken escapes, or raw bytes. */
export const urlPiece = (text: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 20, arbitrary: text.map(percentSome) },
    { weight: 4, arbitrary: text.map(percentAll) },
    { weight: 8, arbitrary: text.map((t) => t.replace(/[ ]/g, '+').replace(/[^\x21-\x7e]/gu, (c) => percentAll(c))) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(text, fc.constantFrom('%', '%G0', '%C3', '%ED%A0%80', '%00', '%FF%FE', '%25', '%%', '%u0041', '%C0%80'))
        .map(([t, bad]) => percentSome(t) + bad),
    },
    { weight: 1, arbitrary: text },
  );

/** A header value: mostly what node:http's client may send (printable Latin-1), sometimes raw bytes. */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: hostileText.map((t) => t.replace(/[^\t\x20-\x7e\x80-\xff]/gu, '')) },
  { weight: 1, arbitrary: hostileText },
);

/** Host header values: the server's own, odd spellings of it, strangers, junk. */
export const hostHeader = (own: string): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant(own) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        own.toUpperCase(),
        `${own}.`,
        `${own.split(':')[0]}:`,
        `${own.split(':')[0]}:99999`,
        `${own.split(':')[0]}:0080`,
        `${own} `,
        '',
        'evil.example',
        'localhost',
        '[::1]',
        '[::1',
        '127.0.0.1:80',
        `${own}@evil.example`,
        `evil.example/${own}`,
        'a'.repeat(300),
        'xn--80ak6aa92e.com',
        'пример.рф',
        '_.-.',
        '%00',
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: headerValue },
  );

/** Authorization header values. */
export const authorization = (tokens: readonly string[]): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 8, arbitrary: fc.constantFrom(...tokens).map((t) => `Bearer ${t}`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'Bearer',
        'Bearer ',
        'bearer x',
        'Basic dXNlcjpwYXNz',
        `Bearer ${'x'.repeat(513)}`,
        'Bearer brief_0000000000000000000000000000000000000000',
        'Bearer \u00e9\u00e9',
        `Bearer ${'a'.repeat(9000)}`,
        'Token abc',
      ),
    },
    { weight: 1, arbitrary: headerValue.map((t) => `Bearer ${t}`) },
  );

export const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'APPLICATION/JSON',
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=xyz',
      'application/xml',
      'application/json, text/plain',
      'application/',
      ';;;',
      'application/json; boundary="',
      'application/vnd.api+json',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

export const acceptHeader = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '*/*',
      'image/png',
      'image/png;q=abc, image/svg+xml;q=0.5',
      'application/xml',
      'text/html',
      'image/*;q=0',
      ',,,;q=1',
      'a/b;q=2',
      `${'image/png, '.repeat(500)}`,
    ),
  },
);

/** Field names the API's bodies know, plus prototype-polluting and unknown ones. */
// biome-ignore format: a list of words reads best as lines of words
export const FIELD_NAMES = [
  'url', 'slug', 'domain', 'title', 'comment', 'password', 'expiredAt', 'reuseExisting', 'shortCodeLength', 'randomCodeLength',
  'homePageRedirectUrl', 'notFoundPageRedirectUrl', 'workspaceId', '__proto__', 'constructor', 'prototype', 'toString', '',
];

/** A JSON value: structured, deep, huge numbers, hostile strings. */
export const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, 4, 32, 64, 5000, true, false, null) },
);

/** An object with known and unknown fields holding any JSON value. */
export const jsonObject = (names: readonly string[]): fc.Arbitrary<Record<string, unknown>> =>
  fc.array(fc.tuple(fc.constantFrom(...names, ...FIELD_NAMES), jsonValue), { maxLength: 6 }).map((pairs) => Object.fromEntries(pairs));

/** Bodies that are not JSON, or not the JSON they claim to be. */
export const brokenBody: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .constantFrom(
      '{',
      '{"url":',
      '[',
      '[{"url":"https://example.com"},',
      '{"url":"https://example.com"}}',
      '\ufeff{"url":"https://example.com"}',
      '{"__proto__":{"polluted":1},"url":"https://example.com"}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      'null',
      '""',
      '0',
      'NaN',
      "{'url':'x'}",
      'url=https://example.com',
      '--xyz\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttps://example.com\r\n--xyz--',
      '{"a":1,"a":2}',
      `{"url":"${'\\ud800'}"}`,
    )
    .map((s) => Buffer.from(s)),
  fc.integer({ min: 2, max: 20_000 }).map((n) => Buffer.from('['.repeat(n) + ']'.repeat(n))),
  fc.integer({ min: 2, max: 5_000 }).map((n) => Buffer.from(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`)),
  fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
  fc.string({ maxLength: 60 }).map((s) => Buffer.from(`{"url":"${s}"}`, 'utf16le')),
  fc.constantFrom(Buffer.from([0x7b, 0x22, 0x75, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), Buffer.from([0xff, 0xfe, 0x7b, 0x00])),
);
