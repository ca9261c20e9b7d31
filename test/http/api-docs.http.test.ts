// Schemas once: GET /v2/openapi.json is the OpenAPI 3.1 document generated from the route
// schemas, and GET /docs renders it without loading anything from another host.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { qs, type TestAccount, useTestApp } from '../support/app.js';
import { LINK_TOP_LIST_DIMENSIONS, TOP_LIST_DIMENSIONS } from '../support/events.js';

type Json = any;

/** The top lists' routes, one per dimension. */
const TOP_PATHS = [...TOP_LIST_DIMENSIONS, ...LINK_TOP_LIST_DIMENSIONS].map((dimension) => `/v3/shorten/analytics/top-${dimension}`);

/** The error statuses most v3 calls document, and the code of each. */
const V3_ERRORS = {
  400: 'E_BAD_REQUEST',
  401: 'E_UNAUTHORIZED_ACCESS',
  403: 'E_FORBIDDEN',
  404: 'E_NOT_FOUND',
  422: 'E_VALIDATION_ERROR',
  429: 'E_TOO_MANY_REQUESTS',
  500: 'E_INTERNAL_ERROR',
  503: 'E_SERVICE_UNAVAILABLE',
};
/** V3_ERRORS but one status. */
const but = (status: keyof typeof V3_ERRORS) => Object.fromEntries(Object.entries(V3_ERRORS).filter(([other]) => other !== String(status)));
/** The calls that take nothing to refuse: no 422. */
const NOTHING_TO_REFUSE = but(422);
/** The v2 calls that name no link or workspace: no 404. */
const NOTHING_TO_FIND = but(404);

/** The error statuses each route documents, and the code its body carries. */
const ERRORS: Record<string, Record<string, Record<number, string>>> = {
  '/v2/shorten': { get: NOTHING_TO_FIND },
  '/v2/shorten-domains': { get: NOTHING_TO_FIND },
  '/v2/links/{link}': { delete: NOTHING_TO_REFUSE },
  '/{key}': {
    get: { 400: 'E_BAD_REQUEST', 404: 'E_ROUTE_NOT_FOUND', 500: 'E_INTERNAL_ERROR', 503: 'E_SERVICE_UNAVAILABLE' },
  },
  '/v2/qrcode': {
    get: { 400: 'E_BAD_REQUEST', 401: 'E_UNAUTHORIZED_ACCESS', 422: 'E_VALIDATION_ERROR', 429: 'E_TOO_MANY_REQUESTS', 500: 'E_INTERNAL_ERROR' },
  },
  '/v3/shorten/bulk': { post: V3_ERRORS },
  '/v3/shorten': { get: V3_ERRORS },
  '/v3/shorten/list': { get: V3_ERRORS },
  '/v3/shorten/{domain}/{slug}': { get: V3_ERRORS, patch: V3_ERRORS, delete: V3_ERRORS },
  '/v3/shorten/{domain}/{slug}/evaluate': { post: V3_ERRORS },
  '/v3/shorten/domains': {
    get: NOTHING_TO_REFUSE,
    put: V3_ERRORS,
  },
  '/v3/shorten/analytics/clicks': {
    get: V3_ERRORS,
  },
  ...Object.fromEntries(
    TOP_PATHS.map((path) => [
      path,
      {
        get: V3_ERRORS,
      },
    ]),
  ),
  '/v3/shorten/domains/{domain}': Object.fromEntries(['delete', 'patch'].map((method) => [method, V3_ERRORS])),
  '/v3/shorten/domains/{domain}/verify': { post: V3_ERRORS },
  '/v3/shorten/domains/{domain}/well-known': { get: NOTHING_TO_REFUSE },
  '/v3/shorten/domains/{domain}/well-known/{name}': { get: NOTHING_TO_REFUSE, put: V3_ERRORS, delete: NOTHING_TO_REFUSE },
  ...Object.fromEntries(
    ['apple-app-site-association', 'assetlinks.json'].map((name) => [
      `/.well-known/${name}`,
      { get: { 429: 'E_TOO_MANY_REQUESTS', 500: 'E_INTERNAL_ERROR', 503: 'E_SERVICE_UNAVAILABLE' } },
    ]),
  ),
  '/v3/tags': { get: NOTHING_TO_REFUSE },
  '/v3/tags/{name}': { patch: { ...V3_ERRORS, 409: 'E_CONFLICT' }, delete: V3_ERRORS },
  '/v3/tokens': { get: NOTHING_TO_REFUSE, post: V3_ERRORS },
  '/v3/tokens/{id}': { delete: V3_ERRORS },
};

const ERROR_CODES = [
  'E_VALIDATION_ERROR',
  'E_BAD_REQUEST',
  'E_UNAUTHORIZED_ACCESS',
  'E_FORBIDDEN',
  'E_NOT_FOUND',
  'E_CONFLICT',
  'E_ROUTE_NOT_FOUND',
  'E_TOO_MANY_REQUESTS',
  'E_INTERNAL_ERROR',
  'E_SERVICE_UNAVAILABLE',
];

/** The error body's shape: {message, code, errors?: [{field, rule, message}]}. */
function assertErrorSchema(schema: Json, where: string): void {
  assert.equal(schema.type, 'object', where);
  assert.deepEqual([...schema.required].sort(), ['code', 'message'], where);
  assert.deepEqual(Object.keys(schema.properties).sort(), ['code', 'errors', 'message'], where);
  assert.equal(schema.properties.message.type, 'string', where);
  assert.deepEqual([...schema.properties.code.enum].sort(), [...ERROR_CODES].sort(), where);
  const item = schema.properties.errors.items;
  assert.equal(schema.properties.errors.type, 'array', where);
  assert.deepEqual([...item.required].sort(), ['field', 'message', 'rule'], where);
  assert.deepEqual(Object.keys(item.properties).sort(), ['field', 'message', 'rule'], where);
}

/** The values of a media type object's examples (`example` or named `examples`). */
function exampleValues(media: Json): Json[] {
  if (media.example !== undefined) return [media.example];
  return Object.values(media.examples ?? {}).map((e: Json) => e.value);
}

/** Whether a reference in the page points at another host (a scheme, or a protocol-relative `//`). */
const isForeign = (ref: string) => /^[a-z][a-z0-9+.-]*:/i.test(ref.trim()) || ref.trim().startsWith('//');

describe('API document and reference page', () => {
  // The limits on (the document shows a 429 only where one can occur), and high enough for this suite.
  const ctx = useTestApp('sqlite', {
    RATE_LIMIT_ANON: '10000',
    RATE_LIMIT_TOKEN: '10000',
    RATE_LIMIT_READ: '10000',
    RATE_LIMIT_PASSWORD: '10000',
    RATE_LIMIT_PASSWORD_ADDRESS: '10000',
    RATE_LIMIT_DOMAIN_VERIFY: '10000',
  });
  let doc: Json;
  let owner: TestAccount;

  before(async () => {
    const res = await ctx.t.app.inject({ url: '/v2/openapi.json' });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.headers['content-type'] as string, /^application\/json/);
    doc = res.json();
    owner = await ctx.t.account('docs');
  });

  const operation = (path: string, method: string) => {
    const op = doc.paths?.[path]?.[method];
    assert.ok(op, `${method.toUpperCase()} ${path} is in the document`);
    return op;
  };
  const param = (op: Json, name: string) => {
    const found = op.parameters?.find((p: Json) => p.name === name);
    assert.ok(found, `parameter ${name}`);
    return found;
  };

  it('is a valid OpenAPI 3.1 document', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    assert.equal(validator.version, '3.1');
    assert.deepEqual(result, { valid: true });
    assert.equal(doc.info.title, 'Brief');
    assert.match(doc.info.version, /^\d+\.\d+\.\d+/);
    assert.deepEqual(doc.servers, [{ url: '/', description: 'This server' }]);
  });

  it('documents the QR code route: its parameters as validated, both image types, 304 and caching headers', async () => {
    const op = operation('/v2/qrcode', 'get');
    assert.deepEqual(op.security, []);
    const params = Object.fromEntries(op.parameters.map((p: Json) => [p.name, p]));
    assert.deepEqual(Object.keys(params).sort(), ['dark', 'format', 'level', 'light', 'margin', 'url', 'width']);
    for (const p of Object.values(params) as Json[]) {
      assert.equal(p.in, 'query', p.name);
      assert.ok(p.schema.description || p.description, `${p.name} is described`);
      assert.ok((p.schema.examples ?? []).length > 0 || p.example !== undefined || p.examples !== undefined, `${p.name} has examples`);
    }
    assert.equal(params.url.required, true);
    assert.equal(params.url.schema.maxLength, 2048);
    assert.deepEqual(
      [params.width.schema.type, params.width.schema.minimum, params.width.schema.maximum, params.width.schema.default],
      ['integer', 64, 2048, 256],
    );
    assert.deepEqual([params.margin.schema.minimum, params.margin.schema.maximum, params.margin.schema.default], [0, 16, 2]);
    assert.deepEqual([params.level.schema.enum, params.level.schema.default], [['L', 'M', 'Q', 'H'], 'M']);
    assert.deepEqual(params.format.schema.enum, ['svg', 'png']);
    assert.equal(params.format.required, false);
    for (const colour of ['dark', 'light']) {
      const pattern = new RegExp(params[colour].schema.pattern);
      for (const ok of ['000', '#000', 'a1b2c3', '#A1B2C3', 'a1b2c3d4']) assert.match(ok, pattern);
      for (const bad of ['12345', '#ggg', '1234', '']) assert.doesNotMatch(bad, pattern);
    }
    const ok = op.responses['200'];
    assert.deepEqual(Object.keys(ok.content).sort(), ['image/png', 'image/svg+xml']);
    assert.ok(ok.headers.ETag && ok.headers['Cache-Control'] && ok.headers.Vary);
    assert.match(ok.content['image/svg+xml'].example, /^<svg /);
    assert.ok(op.responses['304'], '304 Not Modified');
    assert.equal(op.responses['304'].content, undefined, '304 has no body');
    // The width range documented is the one enforced.
    const status = async (query: string) => (await ctx.t.app.inject({ url: `/v2/qrcode?url=https://example.com/&${query}` })).statusCode;
    assert.equal(await status('width=64'), 200);
    assert.equal(await status('width=2048&format=svg'), 200);
    assert.equal(await status('width=63'), 422);
    assert.equal(await status('width=2049'), 422);
    for (const level of params.level.schema.enum) assert.equal(await status(`level=${level}`), 200);
  });

  it('names every public route, and only those', () => {
    const routes = Object.entries(doc.paths).flatMap(([path, ops]: [string, Json]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    assert.deepEqual(routes.sort(), [
      'DELETE /auth/members/{userId}',
      'DELETE /auth/passkeys/{id}',
      'DELETE /v2/links/{link}',
      'DELETE /v3/shorten/domains/{domain}',
      'DELETE /v3/shorten/domains/{domain}/well-known/{name}',
      'DELETE /v3/shorten/{domain}/{slug}',
      'DELETE /v3/tags/{name}',
      'DELETE /v3/tokens/{id}',
      'DELETE /v3/webhooks/{id}',
      'GET /',
      'GET /.well-known/apple-app-site-association',
      'GET /.well-known/assetlinks.json',
      'GET /auth/me',
      'GET /auth/members',
      'GET /auth/passkeys',
      'GET /auth/workspaces',
      'GET /healthz',
      'GET /readyz',
      'GET /v2/qrcode',
      'GET /v2/shorten',
      'GET /v2/shorten-domains',
      'GET /v3/shorten',
      'GET /v3/shorten/analytics/clicks',
      ...TOP_PATHS.map((path) => `GET ${path}`).sort(),
      'GET /v3/shorten/domains',
      'GET /v3/shorten/domains/{domain}/well-known',
      'GET /v3/shorten/domains/{domain}/well-known/{name}',
      'GET /v3/shorten/list',
      'GET /v3/shorten/{domain}/{slug}',
      'GET /v3/tags',
      'GET /v3/tokens',
      'GET /v3/tokens/current',
      'GET /v3/webhooks',
      'GET /v3/webhooks/{id}/deliveries',
      'GET /{key}',
      'PATCH /auth/members/{userId}',
      'PATCH /v3/shorten/domains/{domain}',
      'PATCH /v3/shorten/{domain}/{slug}',
      'PATCH /v3/tags/{name}',
      'PATCH /v3/webhooks/{id}',
      'POST /auth/invitation',
      'POST /auth/invitation/accept',
      'POST /auth/invitation/passkey',
      'POST /auth/invitation/passkey/options',
      'POST /auth/invitations',
      'POST /auth/passkeys/registration',
      'POST /auth/passkeys/registration/options',
      'POST /auth/passkeys/sign-in',
      'POST /auth/passkeys/sign-in/options',
      'POST /auth/password',
      'POST /auth/password/reset',
      'POST /auth/sign-in',
      'POST /auth/sign-out',
      'POST /auth/workspace',
      'POST /auth/workspace/switch',
      'POST /v3/shorten/bulk',
      'POST /v3/shorten/domains/{domain}/verify',
      'POST /v3/shorten/{domain}/{slug}/evaluate',
      'POST /v3/tokens',
      'POST /v3/webhooks',
      'POST /v3/webhooks/{id}/rotate',
      'POST /v3/webhooks/{id}/test',
      'POST /{key}',
      'PUT /v3/shorten/domains',
      'PUT /v3/shorten/domains/{domain}/well-known/{name}',
    ]);
  });

  it('documents every error status of each route with the error body and examples of its code', () => {
    for (const [path, methods] of Object.entries(ERRORS)) {
      for (const [method, statuses] of Object.entries(methods)) {
        const responses = operation(path, method).responses;
        for (const [status, code] of Object.entries(statuses)) {
          const where = `${method.toUpperCase()} ${path} ${status}`;
          const media = responses[status]?.content?.['application/json'];
          assert.ok(media, `${where}: a JSON body`);
          assertErrorSchema(media.schema, where);
          const examples = exampleValues(media);
          assert.ok(examples.length > 0, `${where}: examples`);
          for (const example of examples) {
            assert.equal(example.code, code, where);
            assert.equal(typeof example.message, 'string', where);
          }
          assert.ok(responses[status].description.length > 0, where);
        }
      }
    }
  });

  it('gives examples that are what the API answers', async () => {
    const examples = (path: string, method: string, status: number) =>
      exampleValues(operation(path, method).responses[status].content['application/json']);
    /** A documented route, method and status, and the URL (and what else) of a request answered so; `owner`: with the owner's token. */
    type Case = [
      path: string,
      method: string,
      status: number,
      url: string,
      also?: { owner?: true; payload?: object; headers?: Record<string, string> },
    ];
    const owned = { owner: true } as const;
    const cases: Case[] = [
      ['/v2/shorten', 'get', 422, '/v2/shorten'],
      ['/v2/shorten', 'get', 401, `/v2/shorten?${qs({ url: 'https://example.com/' })}`, { headers: { authorization: 'Bearer nope' } }],
      ['/v2/shorten-domains', 'get', 422, '/v2/shorten-domains?perPage=0'],
      ['/v2/shorten-domains', 'get', 422, '/v2/shorten-domains?visibility=secret'],
      ['/v2/links/{link}', 'delete', 401, '/v2/links/abc'],
      ['/v2/links/{link}', 'delete', 404, '/v2/links/nope', owned],
      ['/{key}', 'get', 400, '/%E0%A4%A'],
      ['/v3/shorten/domains', 'get', 401, '/v3/shorten/domains'],
      ['/v3/shorten/domains', 'get', 404, '/v3/shorten/domains?workspaceId=x', owned],
      ['/v3/shorten/domains', 'put', 422, '/v3/shorten/domains', { owner: true, payload: {} }],
      ['/v3/shorten/domains', 'put', 422, '/v3/shorten/domains', { owner: true, payload: { domain: 'short.test' } }],
      ['/v3/shorten/domains/{domain}/verify', 'post', 404, '/v3/shorten/domains/pub.test/verify', owned],
      ['/v3/shorten/domains', 'put', 422, '/v3/shorten/domains', { owner: true, payload: { domain: 'pub.test:8443' } }],
      ['/v3/shorten/domains/{domain}', 'delete', 404, '/v3/shorten/domains/pub.test', owned],
      ['/v3/shorten/domains/{domain}', 'patch', 404, '/v3/shorten/domains/pub.test', { owner: true, payload: { randomCodeLength: 5 } }],
      ['/v3/shorten/domains/{domain}', 'patch', 422, '/v3/shorten/domains/pub.test', { owner: true, payload: { randomCodeLength: 3 } }],
      ['/v3/shorten/domains/{domain}/well-known', 'get', 404, '/v3/shorten/domains/pub.test/well-known', owned],
      ['/v3/shorten/domains/{domain}/well-known/{name}', 'get', 404, '/v3/shorten/domains/pub.test/well-known/assetlinks.json', owned],
      [
        '/v3/shorten/domains/{domain}/well-known/{name}',
        'put',
        404,
        '/v3/shorten/domains/pub.test/well-known/robots.txt',
        { owner: true, payload: {} },
      ],
      ['/v3/shorten/domains/{domain}/well-known/{name}', 'delete', 404, '/v3/shorten/domains/pub.test/well-known/assetlinks.json', owned],
      ['/v3/shorten/analytics/clicks', 'get', 401, '/v3/shorten/analytics/clicks'],
      ['/v3/shorten/analytics/clicks', 'get', 404, '/v3/shorten/analytics/clicks?workspaceId=x', owned],
      ['/v3/shorten/analytics/clicks', 'get', 422, '/v3/shorten/analytics/clicks?range=2d', owned],
      ['/v3/shorten/analytics/clicks', 'get', 422, '/v3/shorten/analytics/clicks?timezone=Mars/Olympus_Mons', owned],
      ['/v3/shorten/analytics/clicks', 'get', 422, '/v3/shorten/analytics/clicks?link=nope', owned],
      ...TOP_PATHS.flatMap((path): Case[] => [
        [path, 'get', 401, path],
        [path, 'get', 404, `${path}?workspaceId=x`, owned],
        [path, 'get', 422, `${path}?range=2d`, owned],
        [path, 'get', 422, `${path}?timezone=Mars/Olympus_Mons`, owned],
        [path, 'get', 422, `${path}?link=nope`, owned],
        [path, 'get', 422, `${path}?limit=101`, owned],
      ]),
      ['/v3/shorten/analytics/top-rules', 'get', 422, '/v3/shorten/analytics/top-rules', owned],
      ['/v2/qrcode', 'get', 422, '/v2/qrcode?url=ftp://example.com/'],
      ['/v2/qrcode', 'get', 422, '/v2/qrcode?url=https://example.com/&width=63'],
      ['/v2/qrcode', 'get', 422, '/v2/qrcode?url=https://example.com/&level=X'],
      ['/v2/qrcode', 'get', 422, '/v2/qrcode?url=https://example.com/&dark=12345'],
      ['/v2/qrcode', 'get', 422, `/v2/qrcode?level=H&url=https://example.com/${'a'.repeat(2000)}`],
    ];
    const answers = cases.map(([path, method, status, url, also]) => {
      const headers = { ...(also?.owner && owner.headers), ...also?.headers };
      const request = { method: method.toUpperCase() as 'GET', url, headers, ...(also?.payload && { payload: also.payload }) };
      return [path, method, status, ctx.t.app.inject(request)] as const;
    });
    for (const [path, method, status, pending] of answers) {
      const res = await pending;
      assert.equal(res.statusCode, status, `${path} ${status}`);
      const documented = examples(path, method, status);
      assert.ok(
        documented.some((example) => JSON.stringify(example) === res.body),
        `${method.toUpperCase()} ${path} ${status}: ${res.body} is one of the documented examples`,
      );
    }
    const reserved = await ctx.t.app.inject({ url: '/v2' });
    assert.deepEqual(exampleValues(operation('/{key}', 'get').responses[404].content['application/json']), [reserved.json()]);
  });

  it('documents the redirect: 301/302/307/308 with Location, 404 and 410 HTML pages', async () => {
    const op = operation('/{key}', 'get');
    assert.equal(param(op, 'key').in, 'path');
    for (const status of ['301', '302', '307', '308']) {
      const response = op.responses[status];
      assert.ok(response, status);
      assert.equal(response.headers?.Location?.schema?.type, 'string', `${status} Location`);
      assert.equal(response.content, undefined, `${status} has no body`);
    }
    for (const status of ['404', '410']) {
      assert.equal(op.responses[status]?.content?.['text/html']?.schema?.type, 'string', `${status} HTML`);
    }
    const missing = await ctx.t.app.inject({ url: '/no-such-link', headers: { host: 'short.test' } });
    assert.equal(missing.statusCode, 404);
    assert.equal(op.responses['404'].content['text/html'].example, missing.body, 'the example is the page served');
    assert.deepEqual(op.security, []);
  });

  it('names the delete route’s wildcard `link`, a required path parameter', () => {
    const op = operation('/v2/links/{link}', 'delete');
    const link = param(op, 'link');
    assert.equal(link.in, 'path');
    assert.equal(link.required, true);
    assert.equal(link.schema.type, 'string');
    assert.equal(op.parameters.length, 1);
  });

  it('documents the query parameters exactly as they are validated', async () => {
    const shorten = operation('/v2/shorten', 'get');
    assert.deepEqual(shorten.parameters.map((p: Json) => [p.name, p.in, p.required, p.schema.type]).sort(), [
      ['domain', 'query', false, 'string'],
      ['slug', 'query', false, 'string'],
      ['title', 'query', false, 'string'],
      ['url', 'query', true, 'string'],
    ]);
    const domains = operation('/v2/shorten-domains', 'get');
    const schemas = Object.fromEntries(domains.parameters.map((p: Json) => [p.name, { ...p.schema, required: p.required, in: p.in }]));
    assert.deepEqual(schemas, {
      page: { type: 'integer', minimum: 1, default: 1, required: false, in: 'query' },
      perPage: { type: 'integer', minimum: 1, maximum: 500, default: 20, required: false, in: 'query' },
      visibility: { type: 'string', enum: ['all', 'public', 'private'], default: 'all', required: false, in: 'query' },
    });
    // The same bounds are what the route enforces.
    const status = async (query: string) => (await ctx.t.app.inject({ url: `/v2/shorten-domains?${query}` })).statusCode;
    assert.equal(await status('perPage=1'), 200);
    assert.equal(await status('perPage=500'), 200);
    assert.equal(await status('perPage=0'), 422);
    assert.equal(await status('perPage=501'), 422);
    assert.equal(await status('page=0'), 422);
    for (const visibility of schemas.visibility.enum) assert.equal(await status(`visibility=${visibility}`), 200);
    assert.equal((await ctx.t.app.inject({ url: '/v2/shorten' })).statusCode, 422, 'url is required');
  });

  it('declares bearer auth: optional for shortening and listing, required for deleting', () => {
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      description:
        'A token made by `brief token create` or `POST /v3/tokens`; its scopes say which calls it may make (403 `E_FORBIDDEN` beyond them).',
    });
    assert.deepEqual(operation('/v2/shorten', 'get').security, [{}, { bearerAuth: [] }]);
    assert.deepEqual(operation('/v2/shorten-domains', 'get').security, [{}, { bearerAuth: [] }]);
    assert.deepEqual(operation('/v2/links/{link}', 'delete').security, [{ bearerAuth: [] }]);
    for (const [path, method] of [
      ['/v3/shorten/domains', 'get'],
      ['/v3/shorten/domains', 'put'],
      ['/v3/shorten/domains/{domain}', 'delete'],
      ['/v3/shorten/domains/{domain}', 'patch'],
      ['/v3/shorten/analytics/clicks', 'get'],
      ...TOP_PATHS.map((path) => [path, 'get'] as const),
    ] as const) {
      assert.deepEqual(operation(path, method).security, [{ bearerAuth: [] }], `${method} ${path}`);
    }
  });

  it('documents the v3 domain calls: their bodies, parameters and answers', () => {
    const list = operation('/v3/shorten/domains', 'get').responses['200'].content['application/json'];
    assert.equal(list.schema.type, 'array');
    const required = ['domain', 'isGlobal', 'isPrimary', 'randomCodeLength', 'verified'];
    assert.deepEqual([...list.schema.items.required].sort(), required);
    assert.deepEqual(Object.keys(exampleValues(list)[0][0]).sort(), required);
    // Brief's own fields, documented: whether the domain serves, and the DNS record that proves its control.
    assert.equal(list.schema.items.properties.verified.type, 'boolean');
    assert.match(list.schema.items.properties.verified.description, /TXT record/);
    const verification = list.schema.items.properties.verification;
    assert.deepEqual([...verification.required].sort(), ['record', 'type', 'value']);
    assert.ok(exampleValues(list)[0].some((d: Json) => d.verification?.record?.startsWith('_brief-verify.')));
    const verify = operation('/v3/shorten/domains/{domain}/verify', 'post');
    assert.equal(param(verify, 'domain').in, 'path');
    assert.deepEqual([...verify.responses['200'].content['application/json'].schema.required].sort(), required);
    assert.ok(exampleValues(verify.responses['422'].content['application/json']).every((e: Json) => e.errors[0].rule === 'verification'));
    const put = operation('/v3/shorten/domains', 'put');
    const addBody = put.requestBody.content['application/json'].schema;
    assert.deepEqual(addBody.required, ['domain']);
    assert.deepEqual([addBody.properties.shortCodeLength.minimum, addBody.properties.shortCodeLength.maximum], [4, 32]);
    assert.deepEqual([...put.responses['200'].content['application/json'].schema.required].sort(), [
      'domain',
      'isGlobal',
      'isPrimary',
      'randomCodeLength',
      'verified',
    ]);
    const patch = operation('/v3/shorten/domains/{domain}', 'patch');
    const settings = patch.requestBody.content['application/json'].schema.properties;
    assert.deepEqual(Object.keys(settings).sort(), ['homePageRedirectUrl', 'notFoundPageRedirectUrl', 'randomCodeLength']);
    assert.deepEqual(settings.randomCodeLength.type, ['integer', 'null']);
    assert.deepEqual(settings.homePageRedirectUrl.type, ['string', 'null']);
    for (const op of [patch, operation('/v3/shorten/domains/{domain}', 'delete')]) {
      assert.equal(param(op, 'domain').in, 'path');
      assert.equal(param(op, 'workspaceId').in, 'query');
      assert.deepEqual(exampleValues(op.responses['200'].content['application/json']), [{ success: true }]);
    }
    const home = operation('/', 'get');
    assert.equal(home.responses['302'].headers.Location.schema.type, 'string');
    assert.equal(home.responses['404'].content['text/html'].schema.type, 'string');
  });

  it("documents the app-link calls: the file as the body, the answers, and the domain's own /.well-known/ paths", () => {
    const put = operation('/v3/shorten/domains/{domain}/well-known/{name}', 'put');
    assert.deepEqual(
      put.parameters.filter((p: Json) => p.in === 'path').map((p: Json) => p.name),
      ['domain', 'name'],
    );
    const body = put.requestBody.content['application/json'];
    assert.match(body.schema.description, /65,536 bytes/);
    const [android, apple] = exampleValues(body);
    assert.ok(Array.isArray(android) && typeof apple === 'object' && 'applinks' in apple);
    assert.deepEqual([...put.responses['200'].content['application/json'].schema.required].sort(), ['bytes', 'name', 'updatedAt']);
    assert.deepEqual(
      exampleValues(put.responses['422'].content['application/json']).map((e: Json) => e.errors[0].rule),
      ['maxBytes', 'json', 'array'],
    );
    assert.equal(operation('/v3/shorten/domains/{domain}/well-known', 'get').responses['200'].content['application/json'].schema.type, 'array');
    for (const name of ['apple-app-site-association', 'assetlinks.json']) {
      const served = operation(`/.well-known/${name}`, 'get');
      assert.ok(served.responses['200'].content['application/json'], name);
      assert.equal(served.responses['404'].content['text/html'].schema.type, 'string');
      assert.equal(served.security.length, 0);
    }
  });

  it('documents the success bodies with examples', () => {
    const link = operation('/v2/shorten', 'get').responses['200'].content['application/json'];
    assert.deepEqual([...link.schema.required].sort(), ['code', 'domain', 'hostname', 'shortened', 'status', 'tally', 'url', 'urlPrefix']);
    assert.ok('slug' in link.schema.properties && 'title' in link.schema.properties);
    assert.equal(exampleValues(link)[0].shortened, 'https://go.example.com/launch');
    const page = operation('/v2/shorten-domains', 'get').responses['200'].content['application/json'];
    assert.deepEqual(Object.keys(exampleValues(page)[0]).sort(), ['data', 'meta']);
    const deleted = operation('/v2/links/{link}', 'delete').responses['200'].content['application/json'];
    assert.deepEqual(exampleValues(deleted), [{ success: true }]);
  });

  for (const path of ['/docs', '/docs/']) {
    it(`serves the reference page at ${path} with nothing from another host`, async () => {
      const res = await ctx.t.app.inject({ url: path });
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, /^text\/html/);
      const html = res.body;
      const refs = [
        ...[...html.matchAll(/<script\b[^>]*\bsrc\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1]!),
        ...[...html.matchAll(/<link\b[^>]*\bhref\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1]!),
        ...[...html.matchAll(/url\(\s*["']?([^"')]+)/gi)].map((m) => m[1]!),
        ...[...html.matchAll(/@import\s+(?:url\()?\s*["']?([^"');\s]+)/gi)].map((m) => m[1]!),
      ];
      const scripts = refs.filter((ref) => html.includes(`src="${ref}"`));
      assert.ok(scripts.length > 0, 'the page loads its script');
      for (const ref of refs) assert.ok(!isForeign(ref), `${ref} is same-origin`);
      assert.doesNotMatch(html, /https?:\/\//, 'no absolute URL anywhere in the page');
      assert.match(html, /<title>Brief API reference<\/title>/);
      let initializer = '';
      for (const src of scripts) {
        const asset = await ctx.t.app.inject({ url: new URL(src, `http://localhost${path}`).pathname });
        assert.equal(asset.statusCode, 200, src);
        assert.match(asset.headers['content-type'] as string, /^(application|text)\/javascript/, src);
        assert.ok(asset.body.length > 1000, src);
        if (src.endsWith('swagger-initializer.js')) initializer = asset.body;
      }
      // The page reads ./json next to it (so /docs/json), asks no validator elsewhere, and that
      // document is the API document itself.
      assert.match(initializer, /url: resolveUrl\('\.\/json'\)/);
      assert.match(initializer, /validatorUrl: null/);
      const json = await ctx.t.app.inject({ url: '/docs/json' });
      assert.equal(json.statusCode, 200);
      assert.deepEqual(json.json(), doc);
    });
  }

  it('serves the reference page’s styles from here, under its page headers', async () => {
    const html = (await ctx.t.app.inject({ url: '/docs' })).body;
    const styles = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/gi)].map((m) => m[1]!);
    assert.ok(styles.length > 0);
    for (const href of styles) {
      const css = await ctx.t.app.inject({ url: href });
      assert.equal(css.statusCode, 200, href);
      assert.match(css.headers['content-type'] as string, /^text\/css/, href);
      assert.doesNotMatch(css.body, /@import|url\(\s*["']?https?:/i, `${href} loads nothing from another host`);
      assert.match(String(css.headers['content-security-policy']), /script-src 'self';/);
    }
  });

  it('keeps the reference page’s own routes out of the document', () => {
    for (const path of Object.keys(doc.paths)) {
      assert.ok(!path.startsWith('/docs') && !path.includes('openapi'), path);
    }
  });
});
