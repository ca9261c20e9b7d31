// Hostile requests for every route of the API document (GET /v2/openapi.json): v2, v3, the
// QR endpoint and the redirects. Each is a fast-check arbitrary of a request as bytes to
// send: wrong methods, odd encodings, overlong values, control characters, broken JSON, odd
// Host headers, huge headers, duplicated parameters.
import fc from 'fast-check';
import {
  acceptHeader,
  authorization,
  brokenBody,
  contentType,
  FIELD_NAMES,
  headerValue,
  hostHeader,
  hostileText,
  jsonObject,
  jsonValue,
  nastyChar,
  percentSome,
  urlPiece,
} from './hostile-values.js';

/** One operation of the API document, as much of it as the generator needs. */
export interface Operation {
  method: string;
  /** The path template, e.g. `/v3/shorten/{domain}/{slug}`. */
  path: string;
  query: string[];
  /** Names of the JSON body's fields; undefined when the operation takes no JSON body. */
  body?: string[];
}

interface JsonSchema {
  properties?: Record<string, unknown>;
  items?: JsonSchema;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>
  >;
}

/** Every operation of the document. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const schema = op.requestBody?.content['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: schema ? Object.keys(schema.properties ?? schema.items?.properties ?? {}) : undefined,
      });
    }
  }
  return operations;
}

/** What the server holds that a request can name, so that some requests get past the first checks. */
export interface FuzzTargets {
  /** host[:port] of the default short domain, as the Host header carries it. */
  host: string;
  tokens: readonly string[];
  /** Existing links, `domain/key`. */
  links: readonly { domain: string; key: string }[];
  /** Private domains of the tokens' accounts. */
  domains: readonly string[];
}

/** A request ready to send. `raw`: node:http's client would refuse it (bytes it does not allow): send it over a socket. */
export interface HostileRequest {
  method: string;
  /** The request target as sent, e.g. `/v2/shorten?url=…`. */
  target: string;
  headers: Array<[string, string]>;
  body?: Buffer;
  raw: boolean;
  /** The operation it was made from, for reports. */
  route: string;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'CONNECT', 'get', 'BREW', 'G\u0000T'];

/** A value of a path parameter: something real, or hostile text put into the path one way or another. */
function pathValue(name: string, targets: FuzzTargets): fc.Arbitrary<string> {
  const real =
    name === 'domain'
      ? fc.constantFrom(targets.host, ...targets.domains, ...targets.links.map((l) => l.domain))
      : name === 'link'
        ? fc.constantFrom(...targets.links.map((l) => percentSome(`${l.domain}/${l.key}`)), ...targets.links.map((l) => `${l.domain}/${l.key}`))
        : fc.constantFrom(...targets.links.map((l) => l.key));
  return fc.oneof({ weight: 3, arbitrary: real }, { weight: 4, arbitrary: urlPiece(hostileText) }, { weight: 1, arbitrary: fc.constant('') });
}

/** A query string: the operation's parameters (some missing, some repeated, some empty) and strangers. */
function queryString(names: readonly string[], targets: FuzzTargets): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 3, arbitrary: urlPiece(hostileText) },
    { weight: 2, arbitrary: fc.constantFrom(...targets.links.map((l) => percentSome(`${l.domain}/${l.key}`)), 'https%3A%2F%2Fexample.com%2F') },
    { weight: 1, arbitrary: fc.constant('') },
  );
  const param = fc.tuple(
    fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...(names.length > 0 ? names : ['url'])) },
      { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'url[]', 'url[a]', 'page[0]', '', '=', '%75rl', 'URL', 'hasOwnProperty') },
      { weight: 1, arbitrary: urlPiece(hostileText) },
    ),
    // Sometimes more than one: a duplicated parameter.
    fc.oneof({ weight: 5, arbitrary: value.map((v) => [v]) }, { weight: 1, arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }) }),
    fc.constantFrom('=', '=', '=', '', '=='),
  );
  return fc
    .tuple(fc.array(param, { maxLength: 8 }), fc.constantFrom('&', '&', '&', ';', '&&'))
    .map(([params, sep]) => params.flatMap(([name, values, eq]) => values.map((v) => `${name}${eq}${eq ? v : ''}`)).join(sep));
}

/** A body for a method that carries one: the operation's JSON, any JSON, or broken bytes. */
function body(op: Operation): fc.Arbitrary<Buffer | undefined> {
  const names = op.body ?? [];
  const json = (value: fc.Arbitrary<unknown>) => value.map((v) => Buffer.from(JSON.stringify(v) ?? 'null'));
  return fc.oneof(
    { weight: 5, arbitrary: json(op.path.endsWith('/bulk') ? fc.array(jsonObject(names), { maxLength: 5 }) : jsonObject(names)) },
    { weight: 1, arbitrary: json(fc.array(jsonObject(names), { minLength: 190, maxLength: 210 })) },
    { weight: 2, arbitrary: json(jsonValue) },
    { weight: 2, arbitrary: brokenBody },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(fc.constantFrom('password', ...FIELD_NAMES), urlPiece(hostileText)), { maxLength: 4 })
        .map((pairs) => Buffer.from(pairs.map(([k, v]) => `${k}=${v}`).join('&'))),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** Headers beyond Host and Authorization: sometimes huge, repeated or broken. */
const extraHeaders: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  { weight: 30, arbitrary: fc.constant<Array<[string, string]>>([]) },
  {
    weight: 9,
    arbitrary: fc.array(
      fc.tuple(
        fc.constantFrom('X-Forwarded-For', 'User-Agent', 'Referer', 'Accept-Language', 'If-None-Match', 'Cookie', 'X-Forwarded-Host', 'Range'),
        headerValue,
      ),
      { maxLength: 4 },
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 40_000 }).map((n): Array<[string, string]> => [['X-Huge', 'h'.repeat(n)]]) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 50, max: 1500 }).map((n) => Array.from({ length: n }, (_, i): [string, string] => [`X-Many-${i}`, 'v'])),
  },
  { weight: 1, arbitrary: fc.constant<Array<[string, string]>>([['Transfer-Encoding', 'chunked, identity']]) },
  { weight: 1, arbitrary: fc.constant<Array<[string, string]>>([['Expect', '100-continue']]) },
);

/** Rewrites of a path that routers disagree about. */
const pathTwist = fc.oneof(
  { weight: 12, arbitrary: fc.constant((p: string) => p) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      (p: string) => `${p}/`,
      (p: string) => p.replace(/^\//, '//'),
      (p: string) => p.toUpperCase(),
      (p: string) => p.replace(/^\/v([23])/, '/%76$1'),
      (p: string) => p.replace(/^\/v([23])\//, '/v$1/../v$1/'),
      (p: string) => p.replace(/^\/v([23])\//, '/v$1/./'),
      (p: string) => `${p}#frag`,
      (p: string) => `${p};jsessionid=1`,
      (p: string) => p.replace(/\//g, '%2F'),
      (p: string) => `${p}/${'x'.repeat(20_000)}`,
      (p: string) => `http://brief.fuzz${p}`, // absolute form
      (p: string) => `HTTP://OTHER.EXAMPLE:80${p}`,
      () => '*', // asterisk form
    ),
  },
);

/** The hostile requests of one operation. */
export function requestsFor(op: Operation, targets: FuzzTargets): fc.Arbitrary<HostileRequest> {
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return fc
    .record({
      method: fc.oneof({ weight: 12, arbitrary: fc.constant(op.method) }, { weight: 2, arbitrary: fc.constantFrom(...METHODS) }),
      values: fc.tuple(...params.map((name) => pathValue(name, targets))),
      twist: pathTwist,
      query: fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 4, arbitrary: queryString(op.query, targets) }),
      host: hostHeader(targets.host),
      auth: authorization(targets.tokens),
      type: contentType,
      accept: acceptHeader,
      extra: extraHeaders,
      body: body(op),
      bodyOnAnyMethod: fc.boolean(),
      duplicateHost: fc.integer({ min: 0, max: 30 }).map((n) => n === 0),
      control: fc.oneof({ weight: 40, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: nastyChar }),
    })
    .map((r) => {
      let path = op.path;
      for (const [i, name] of params.entries()) path = path.replace(`{${name}}`, r.values[i]!);
      path = r.twist(path);
      // A control character or space in the target: only a raw socket sends it.
      if (r.control !== undefined) path += r.control;
      const target = r.query === undefined ? path : `${path}?${r.query}`;
      const headers: Array<[string, string]> = [];
      if (r.host !== undefined) headers.push(['Host', r.host]);
      if (r.duplicateHost) headers.push(['Host', 'other.example']);
      if (r.auth !== undefined) headers.push(['Authorization', r.auth]);
      if (r.accept !== undefined) headers.push(['Accept', r.accept]);
      const sendsBody = r.body !== undefined && (['POST', 'PUT', 'PATCH'].includes(r.method) || r.bodyOnAnyMethod);
      if (sendsBody && r.type !== undefined) headers.push(['Content-Type', r.type]);
      headers.push(...r.extra);
      const request: HostileRequest = {
        method: r.method,
        target,
        headers,
        body: sendsBody ? r.body : undefined,
        raw: false,
        route: `${op.method} ${op.path}`,
      };
      request.raw = needsRawSocket(request);
      return request;
    });
}

/** Hostile requests for all the operations, each as likely as the next. */
export function hostileRequests(operations: readonly Operation[], targets: FuzzTargets): fc.Arbitrary<HostileRequest> {
  return fc.oneof(...operations.map((op) => requestsFor(op, targets)));
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** What node:http's client refuses to send: a method or header name that is no token, bytes it does not allow. */
export function needsRawSocket(request: Pick<HostileRequest, 'method' | 'target' | 'headers'>): boolean {
  // CONNECT: node:http's client waits for a tunnel, not an answer.
  if (!TOKEN.test(request.method) || request.method === 'CONNECT' || /[^\u0021-\u00ff]/.test(request.target)) return true;
  const hosts = request.headers.filter(([name]) => name.toLowerCase() === 'host').length;
  if (hosts !== 1) return true;
  return request.headers.some(([name, value]) => !TOKEN.test(name) || /[^\t\u0020-\u007e\u0080-\u00ff]/.test(value));
}
