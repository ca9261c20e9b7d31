// Every route's query, path and body schema against machine-made requests, in process
// (app.inject), on every dialect: whatever is sent, the answer is a success or a documented
// error — never a 5xx, and under /v2 and /v3 always `{message, code}` JSON with the status
// its code maps to. The operations come from the API document, so a new route is covered
// the day it is documented.
import assert from 'node:assert/strict';
import http from 'node:http';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { answerProblem } from '../../harness/hostile/error-shape.js';
import { type FuzzTargets, type HostileRequest, type Operation, operationsOf, requestsFor } from '../../harness/hostile/requests.js';
import { ERROR_STATUS } from '../../src/http/error-status.js';
import { BASE_HOST, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

const RUNS_PER_ROUTE = Number(process.env.RUNS_PER_ROUTE ?? 60);

/**
 * What app.inject can carry: a method node:http knows, and a target its URL parser takes (it
 * resolves `/\\` and dot segments itself; the fuzz over real HTTP sends those as they are).
 */
function injectable(request: HostileRequest): boolean {
  if (request.raw || !http.METHODS.includes(request.method) || request.method === 'CONNECT') return false;
  try {
    injectedPath(request.target);
    return true;
  } catch {
    return false;
  }
}

/** The path the app receives from app.inject: light-my-request's URL parser has resolved it. */
function injectedPath(target: string): string {
  return new URL(target.startsWith('//') ? `http://localhost${target}` : target, 'http://localhost').pathname;
}

function headersOf(request: HostileRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) headers[name.toLowerCase()] = value;
  return headers;
}

for (const dialect of dialects) {
  describe(`every route's schemas against generated requests (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    let operations: Operation[] = [];
    let targets: FuzzTargets;

    before(async () => {
      const { t } = ctx;
      operations = operationsOf((await t.app.inject('/v2/openapi.json')).json());
      const owner = await t.account('prop');
      const other = await t.account('prop-other');
      const domain = await t.privateDomain(owner.id);
      const links: Array<{ domain: string; key: string }> = [];
      for (const [query, account] of [
        [{ url: 'https://example.com/a' }, owner],
        [{ url: 'https://example.com/b', slug: 'launch' }, owner],
        [{ url: 'https://example.com/c', domain, slug: 'mine' }, owner],
        [{ url: 'https://example.com/d' }, other],
      ] as const) {
        const made = (await t.app.inject({ url: `/v3/shorten?${new URLSearchParams(query)}`, headers: account.headers })).json();
        links.push({ domain: made.domain, key: made.slug });
      }
      targets = { host: BASE_HOST, tokens: [owner.token, other.token], links, domains: [domain] };
    });

    it('lists every route of the API document', () => {
      const routes = operations.map((op) => `${op.method} ${op.path}`);
      for (const route of [
        'GET /v2/shorten',
        'DELETE /v2/links/{link}',
        'GET /v2/qrcode',
        'POST /v3/shorten/bulk',
        'PATCH /v3/shorten/{domain}/{slug}',
        'GET /{key}',
      ]) {
        assert.ok(routes.includes(route), `${route} is not in ${routes.join(', ')}`);
      }
    });

    it('answers every generated request with a success or a documented error', { timeout: 300_000 }, async () => {
      for (const op of operations) {
        await fc.assert(
          fc.asyncProperty(requestsFor(op, targets).filter(injectable), async (request) => {
            const response = await ctx.t.app.inject({
              method: request.method as 'GET',
              url: request.target,
              headers: headersOf(request),
              payload: request.body,
            });
            const path = injectedPath(request.target);
            const contentType = response.headers['content-type'] as string | undefined;
            const problem = answerProblem(request.method, path, response.statusCode, contentType, response.body);
            assert.equal(problem, null, `${op.method} ${op.path}: ${problem}`);
            if (response.statusCode >= 400 && request.method !== 'HEAD' && /^application\/json/.test(contentType ?? '')) {
              // A domain error's status is the one its code maps to (E_BAD_REQUEST covers every 4xx the parser refuses with).
              const { code } = response.json() as { code: keyof typeof ERROR_STATUS };
              if (code !== 'E_BAD_REQUEST' && code in ERROR_STATUS)
                assert.equal(response.statusCode, ERROR_STATUS[code], `${code} answered ${response.statusCode}`);
            }
          }),
          { numRuns: RUNS_PER_ROUTE, includeErrorInReport: true },
        );
      }
    });
  });
}
