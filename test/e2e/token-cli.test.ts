// `brief token create --scope` (repeatable) and `--role`, and `brief token list` with role, maker, scopes,
// last use and expiry (decision 0029, issue 37), as real processes beside a running server.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eventually, request, serverSuite } from '../scale-support/server-process.js';

describe('tokens with scopes from the CLI', () => {
  const suite = serverSuite('brief-token-cli-', () => ({ BASE_URL: 'http://short.test' }));
  const { cli, cliFails } = suite;

  const rowOf = async (id: string) => (await cli('token', 'list', 'alice')).split('\n').find((line) => line.startsWith(`${id} `));

  before(async () => {
    await cli('account', 'create', 'alice');
  });

  it('makes a token with the scopes given, which the server holds it to', async () => {
    const out = (await cli('token', 'create', 'alice', '--label', 'reader', '--scope', 'links:read', '--scope', 'analytics:read')).trim().split('\n');
    assert.match(out[0]!, /^created token (\d+) for alice \(owner; links:read, analytics:read\)$/);
    const id = /token (\d+)/.exec(out[0]!)![1]!;
    const auth = { authorization: `Bearer ${out.at(-1)}` };
    assert.equal((await request(suite.server.port, 'GET', '/v3/shorten/list', auth)).status, 200);
    const refused = await request(suite.server.port, 'GET', '/v3/shorten?url=https://example.com/x', auth);
    assert.equal(refused.status, 403);
    assert.equal(refused.json().code, 'E_FORBIDDEN');
    assert.match(refused.json().message, /links:write/);

    const header = (await cli('token', 'list', 'alice')).split('\n')[0]!;
    assert.match(header, /^id\s+label\s+role\s+made by\s+scopes\s+created\s+last used\s+expires\s+revoked$/);
    assert.ok(await eventually(async () => !/ - +- +-$/.test((await rowOf(id)) ?? ''), 5000), 'last used is shown once used');
    assert.match((await rowOf(id))!, new RegExp(`^${id}\\s+reader\\s+owner\\s+operator\\s+links:read,analytics:read\\s+\\S+Z\\s+\\S+Z\\s+-\\s+-$`));
  });

  it('makes a token with every scope without --scope, and shows its expiry', async () => {
    const out = (await cli('token', 'create', 'alice', '--expires-in', '30')).trim().split('\n');
    assert.match(out[0]!, /^created token (\d+) for alice \(owner; every scope\), expires \S+Z$/);
    const id = /token (\d+)/.exec(out[0]!)![1]!;
    assert.match((await rowOf(id))!, new RegExp(`^${id}\\s+-\\s+owner\\s+operator\\s+all\\s+\\S+Z\\s+-\\s+\\S+Z\\s+-$`));
  });

  it('makes a token that acts with the --role given, which the server holds it to', async () => {
    const out = (await cli('token', 'create', 'alice', '--role', 'viewer')).trim().split('\n');
    assert.match(out[0]!, /^created token (\d+) for alice \(viewer; every scope\)$/);
    const id = /token (\d+)/.exec(out[0]!)![1]!;
    const auth = { authorization: `Bearer ${out.at(-1)}` };
    assert.equal((await request(suite.server.port, 'GET', '/v3/shorten/list', auth)).status, 200);
    const refused = await request(suite.server.port, 'GET', '/v3/shorten?url=https://example.com/v', auth);
    assert.equal(refused.status, 403);
    assert.match(refused.json().message, /A viewer may not/);
    // A viewer's token holds every scope but members:read.
    assert.match(
      (await rowOf(id))!,
      new RegExp(`^${id}\\s+-\\s+viewer\\s+operator\\s+links:read,links:write,analytics:read,domains:write,webhooks:write\\s`),
    );
    await cliFails(/role field must be one of viewer, member, admin, owner/, 'token', 'create', 'alice', '--role', 'king');
    await cliFails(/cannot hold members:read/, 'token', 'create', 'alice', '--role', 'member', '--scope', 'members:read');
  });

  it('refuses an unknown scope with one clear line, and makes nothing', async () => {
    const before = (await cli('token', 'list', 'alice')).split('\n').length;
    await cliFails(
      /^brief: Unknown scope "links:delete": the scopes are links:read, links:write, analytics:read, domains:write, members:read, webhooks:write$/,
      'token',
      'create',
      'alice',
      '--scope',
      'links:read',
      '--scope',
      'links:delete',
    );
    await cliFails(/Unknown scope "admin"/, 'token', 'create', 'alice', '--scope', 'admin');
    assert.equal((await cli('token', 'list', 'alice')).split('\n').length, before);
  });
});
