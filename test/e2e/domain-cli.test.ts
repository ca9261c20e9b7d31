// The domain and link commands an administrator needs against squatting (issue 31, decision 0019),
// as real processes beside a running server: `brief domain verify`, `brief domain remove
// --with-links`, `brief link delete`, and `brief domain add` making a verified domain.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eventually, request, serverSuite } from '../scale-support/server-process.js';

const SHORT_HOST = 'short.test';

describe('domains and links from the CLI', () => {
  const suite = serverSuite('brief-domain-cli-', () => ({ BASE_URL: `http://${SHORT_HOST}`, CHANGE_POLL_MS: '100' }));
  const { cli, cliFails } = suite;
  let auth: Record<string, string>;

  const api = (method: string, url: string, body?: unknown) =>
    request(
      suite.server.port,
      method,
      url,
      { ...auth, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body === undefined ? undefined : JSON.stringify(body),
    );
  const linksOn = async (domain: string, n: number): Promise<Array<{ slug: string }>> => {
    const items = Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${domain}/${i}`, domain }));
    const res = await api('POST', '/v3/shorten/bulk', items);
    assert.equal(res.status, 200, res.body);
    return res.json();
  };
  const visit = (host: string, key: string) => request(suite.server.port, 'GET', `/${key}`, { host });
  const listed = async (domain: string) => (await cli('domain', 'list')).split('\n').find((line) => line.startsWith(`${domain} `));

  before(async () => {
    await cli('account', 'create', 'alice');
    const token = (await cli('token', 'create', 'alice')).trim().split('\n').at(-1)!;
    auth = { authorization: `Bearer ${token}` };
  });

  it('verifies a claim made through the API: its links are served from then on', async () => {
    const claimed = await api('PUT', '/v3/shorten/domains', { domain: 'claimed.example' });
    assert.equal(claimed.status, 200, claimed.body);
    assert.equal(claimed.json().verified, false);
    const [link] = await linksOn('claimed.example', 1);
    assert.equal((await visit('claimed.example', link!.slug)).status, 404);
    assert.match((await listed('claimed.example')) ?? '', /\bprivate\s+alice\s+no\b/);

    assert.equal(await cli('domain', 'verify', 'Claimed.example'), 'verified domain claimed.example: it serves its links now\n');
    assert.ok(await eventually(async () => (await visit('claimed.example', link!.slug)).status === 301, 3_000), suite.server.log);
    assert.match((await listed('claimed.example')) ?? '', /\bprivate\s+alice\s+yes\b/);
    assert.equal(await cli('domain', 'verify', 'claimed.example'), 'claimed.example was verified already\n');
    await cliFails(/^brief: No domain nope\.example$/, 'domain', 'verify', 'nope.example');
    await cliFails(/comes from the configuration/, 'domain', 'verify', SHORT_HOST);
  });

  it('adds domains verified: an administrator added them', async () => {
    await cli('domain', 'add', 'added.example', '--account', 'alice');
    assert.match((await listed('added.example')) ?? '', /\bprivate\s+alice\s+yes\b/);
    const [link] = await linksOn('added.example', 1);
    // The server hears of a domain another process added within CHANGE_POLL_MS (its links are in the database at once).
    assert.ok(await eventually(async () => (await visit('added.example', link!.slug)).status === 301, 3_000), suite.server.log);
  });

  it('removes a domain with its links only when asked, saying how many', async () => {
    await cli('domain', 'add', 'busy.example', '--account', 'alice');
    const links = await linksOn('busy.example', 2);
    for (const link of links) {
      assert.ok(await eventually(async () => (await visit('busy.example', link.slug)).status === 301, 3_000), suite.server.log);
    }
    await cliFails(
      /^brief: Domain busy\.example still has 2 live link\(s\); delete them first, or remove it with --with-links$/,
      'domain',
      'remove',
      'busy.example',
    );
    assert.equal(await cli('domain', 'remove', 'busy.example', '--with-links'), 'removed domain busy.example and its 2 live links\n');
    for (const link of links) {
      assert.ok(await eventually(async () => (await visit('busy.example', link.slug)).status === 404, 3_000), suite.server.log);
    }
    assert.equal(await listed('busy.example'), undefined);
    const mine = await api('GET', '/v3/shorten/list');
    assert.ok(!mine.body.includes('busy.example'), 'the links are deleted, not only unreachable');
    // Its name is free again, and a domain without links goes with --with-links too.
    await cli('domain', 'add', 'busy.example', '--public');
    assert.equal(await cli('domain', 'remove', 'busy.example', '--with-links'), 'removed domain busy.example and its 0 live links\n');
    await cliFails(/^brief: No domain busy\.example$/, 'domain', 'remove', 'busy.example', '--with-links');
  });

  it('deletes a single link, whoever owns it', async () => {
    const made = await request(suite.server.port, 'GET', `/v2/shorten?${new URLSearchParams({ url: 'https://example.com/to-delete' })}`);
    const { code, shortened } = made.json();
    assert.equal((await visit(SHORT_HOST, code)).status, 301);
    assert.equal(await cli('link', 'delete', shortened), `deleted ${shortened}\n`);
    assert.ok(await eventually(async () => (await visit(SHORT_HOST, code)).status === 404, 3_000), suite.server.log);
    await cliFails(new RegExp(`^brief: No live link "${code}"$`), 'link', 'delete', code);
    await cliFails(/^brief: No live link "show-me"$/, 'link', 'show', 'show-me');
  });
});
