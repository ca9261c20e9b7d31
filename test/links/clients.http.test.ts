// The README's Clients section, checked against the routes the clients call (issue 25 item 5): the SDK's
// baseURL as the README writes it reaches the v3 routes once the SDK adds `/v3`, while the "/v3" the
// README used to suggest gives /v3/v3 and a 404; the MCP server's DOMAIN, empty as the README says,
// puts links on the default domain, while its default `u301.co` fails every item.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BASE_HOST, BASE_PREFIX, type TestAccount, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

const README = fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md'), 'utf8');

/** The js block after the README's sdk-snippet marker. */
function sdkSnippet(): string {
  const at = README.indexOf('<!-- sdk-snippet:');
  assert.ok(at >= 0, 'the README has the SDK snippet');
  const block = /```js\n([\s\S]*?)\n```/.exec(README.slice(at));
  assert.ok(block);
  return block[1]!;
}

/** The path the SDK requests: `${baseURL}/v${apiVersion}` then the call's path, with its workspaceId query (u301-js's index.ts). */
function sdkPath(baseURL: string, call: string, workspaceId: string): string {
  const url = new URL(`${baseURL}/v3${call}`);
  url.searchParams.set('workspaceId', workspaceId);
  return `${url.pathname}${url.search}`;
}

for (const dialect of dialects) {
  describe(`the README's clients (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    let alice: TestAccount;
    before(async () => {
      alice = await ctx.t.account('alice');
    });
    const bulk = (url: string, items: unknown[]) =>
      ctx.t.app.inject({ method: 'POST', url, headers: { ...alice.headers, 'content-type': 'application/json' }, payload: items });

    it('the SDK snippet gives the server root as baseURL, which reaches /v3', async () => {
      const baseURL = /baseURL:\s*'([^']+)'/.exec(sdkSnippet())?.[1];
      assert.ok(baseURL, 'the snippet sets baseURL');
      assert.equal(new URL(baseURL).pathname, '/', 'the root, without /v3');
      assert.match(sdkSnippet(), /workspaceId: ''/);
      const made = await bulk(sdkPath(BASE_PREFIX, '/shorten/bulk', ''), [{ url: 'https://example.com/from-the-sdk', comment: 'made by u301-js' }]);
      assert.equal(made.statusCode, 200);
      assert.equal(made.json()[0].shortLink.startsWith(`${BASE_PREFIX}/`), true);
      const listed = await ctx.t.app.inject({ url: sdkPath(BASE_PREFIX, '/shorten/list', ''), headers: alice.headers });
      assert.equal(listed.statusCode, 200);
      assert.equal(listed.json().links[0].comment, 'made by u301-js');
    });

    it('a baseURL ending in /v3 gives /v3/v3 and a JSON 404, as the README warns', async () => {
      assert.match(README, /Given `http:\/\/your-host\/v3` it calls\s+`\/v3\/v3\/shorten\/bulk`/);
      const wrong = await bulk(sdkPath(`${BASE_PREFIX}/v3`, '/shorten/bulk', ''), [{ url: 'https://example.com/x' }]);
      assert.equal(wrong.statusCode, 404);
      assert.equal(wrong.json().code, 'E_ROUTE_NOT_FOUND');
    });

    it('the MCP server: DOMAIN empty puts links on the default domain; unset (u301.co) fails each item', async () => {
      assert.match(README, /`DOMAIN=` \(empty\) puts links on the `BASE_URL` domain/);
      // What the MCP server sends: every item with `domain`, and workspaceId=undefined when WORKSPACE_ID is unset.
      const url = '/v3/shorten/bulk?workspaceId=undefined';
      const empty = await bulk(url, [{ url: 'https://example.com/from-mcp', domain: '' }]);
      assert.equal(empty.statusCode, 200);
      assert.equal(empty.json()[0].domain, BASE_HOST);
      const unset = await bulk(url, [{ url: 'https://example.com/from-mcp', domain: 'u301.co' }]);
      assert.equal(unset.statusCode, 200);
      assert.deepEqual(unset.json()[0], {
        url: 'https://example.com/from-mcp',
        error: 'E_VALIDATION_ERROR',
        message: 'The selected domain is invalid',
      });
      const named = await bulk(url, [{ url: 'https://example.com/from-mcp', domain: BASE_HOST, slug: 'mcp-named' }]);
      assert.equal(named.json()[0].shortLink, `${BASE_PREFIX}/mcp-named`);
    });
  });
}
