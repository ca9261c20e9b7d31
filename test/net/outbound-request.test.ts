// The guarded outbound client (decision 0044): what it refuses before connecting, that it connects only to
// the address it checked (rebinding), and that a receiver cannot hold it or flood it. Every server here is
// on loopback; the "public" host of the rebinding test is 127.0.0.2, made reachable by the test's own rule.
import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, describe, it } from 'node:test';
import ipaddr from 'ipaddr.js';
import { isPublicAddress, OutboundClient, type Resolver, refusalOf } from '../../src/net/outbound-request.js';
import { startReceiver } from '../support/webhook-receiver.js';

const USER_AGENT = 'Brief-Webhooks/1 (+https://brief.example)';

/** A receiver on a loopback address; `answer` decides each reply; what it received is kept. */
const receiver = (host: string, answer: (response: http.ServerResponse) => void, port = 0) =>
  startReceiver({ host, port, answer: (_request, response) => answer(response) });

const ok = (response: http.ServerResponse) => response.end('thanks');

describe('isPublicAddress', () => {
  it('refuses private, loopback, link-local (metadata), unique-local, CGNAT, multicast, unspecified and reserved addresses', () => {
    for (const raw of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1',
      '127.9.9.9',
      '169.254.169.254',
      '100.64.0.1',
      '100.100.100.200',
      '224.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '192.0.2.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      '::10.0.0.1',
      '2001:db8::1',
    ]) {
      assert.equal(isPublicAddress(ipaddr.parse(raw)), false, raw);
    }
  });

  it('takes public IPv4 and global unicast IPv6, an IPv4-mapped public address too', () => {
    for (const raw of ['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8']) {
      assert.equal(isPublicAddress(ipaddr.parse(raw)), true, raw);
    }
  });
});

describe('refusalOf (checked when an endpoint is added)', () => {
  it('refuses http, credentials and literal private addresses unless the host is allowed', () => {
    assert.match(refusalOf(new URL('http://hooks.example/x'), []) ?? '', /only https/);
    assert.match(refusalOf(new URL('https://u:p@hooks.example/x'), []) ?? '', /user name/);
    assert.match(refusalOf(new URL('https://127.0.0.1/x'), []) ?? '', /not a public address/);
    assert.match(refusalOf(new URL('https://[::ffff:10.0.0.1]/x'), []) ?? '', /not a public address/);
    assert.equal(refusalOf(new URL('https://hooks.example/x'), []), undefined);
    assert.equal(refusalOf(new URL('http://127.0.0.1:8080/x'), ['127.0.0.1']), undefined);
    assert.match(refusalOf(new URL('ftp://127.0.0.1/x'), ['127.0.0.1']) ?? '', /only https/);
  });
});

describe('OutboundClient', () => {
  let inside: Awaited<ReturnType<typeof receiver>>;
  before(async () => {
    inside = await receiver('127.0.0.1', ok);
  });
  after(() => inside.close());

  const client = (options: Partial<ConstructorParameters<typeof OutboundClient>[0]> = {}) =>
    new OutboundClient({ allowHosts: [], userAgent: USER_AGENT, ...options });

  it('refuses 127.0.0.1, ::1, 169.254.169.254 and ::ffff:10.0.0.1 without connecting', async () => {
    const before = inside.received.length;
    for (const url of [
      `https://127.0.0.1:${inside.port}/hook`,
      `https://[::1]:${inside.port}/hook`,
      'https://169.254.169.254/latest/meta-data/',
      'https://[::ffff:10.0.0.1]/hook',
      `http://127.0.0.1:${inside.port}/hook`,
    ]) {
      const outcome = await client().post(url, {}, '{}');
      assert.equal(outcome.kind, 'refused', url);
    }
    assert.equal(inside.received.length, before);
  });

  it('refuses a name whose DNS answer is private, or holds any private address among public ones', async () => {
    const asked: string[] = [];
    const hostile: Resolver = async (hostname) => {
      asked.push(hostname);
      return hostname === 'mixed.example'
        ? [
            { address: '93.184.215.14', family: 4 },
            { address: '10.0.0.1', family: 4 },
          ]
        : [{ address: '127.0.0.1', family: 4 }];
    };
    const before = inside.received.length;
    const outcome = await client({ resolve: hostile }).post(`https://evil.example:${inside.port}/hook`, {}, '{}');
    assert.equal(outcome.kind, 'refused');
    assert.match(outcome.kind === 'refused' ? outcome.reason : '', /127\.0\.0\.1, which is not a public address/);
    const mixed = await client({ resolve: hostile }).post('https://mixed.example/hook', {}, '{}');
    assert.equal(mixed.kind, 'refused');
    assert.deepEqual(asked, ['evil.example', 'mixed.example']);
    assert.equal(inside.received.length, before);
  });

  it('connects to the address it checked: a rebinding answer (public, then private) is never asked for', async () => {
    // 127.0.0.2 stands for a public host (the test's own rule of what is reachable), 127.0.0.1 on the same port
    // for the inside network. Neither speaks TLS, so the https request fails after connecting: what counts is
    // where it connected, and how often DNS was asked.
    const outside = await receiver('127.0.0.2', ok);
    const inward = await receiver('127.0.0.1', ok, outside.port);
    try {
      let answers = 0;
      const rebinding: Resolver = async () => {
        answers += 1;
        return [{ address: answers === 1 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
      };
      const guarded = client({ resolve: rebinding, isReachable: (address) => address.toString() === '127.0.0.2' });
      const outcome = await guarded.post(`https://rebind.example:${outside.port}/hook`, {}, '{}');
      assert.equal(outcome.kind, 'error');
      assert.equal(answers, 1);
      assert.equal(outside.connections(), 1);
      assert.equal(inward.connections(), 0);
      // The same resolver's second answer, asked first, is refused: the check and the connection use one answer.
      const second = await guarded.post(`https://rebind.example:${outside.port}/hook`, {}, '{}');
      assert.equal(second.kind, 'refused');
      assert.equal(inward.connections(), 0);
    } finally {
      await outside.close();
      await inward.close();
    }
  });

  it('sends to an allowed host over http, with the fixed User-Agent and no cookie', async () => {
    const outcome = await client({ allowHosts: ['127.0.0.1'] }).post(
      `http://127.0.0.1:${inside.port}/hook?x=1`,
      { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
      '{"a":1}',
    );
    assert.deepEqual(outcome, { kind: 'response', status: 200, body: 'thanks', truncated: false });
    const last = inside.received.at(-1);
    assert.equal(last?.path, '/hook?x=1');
    assert.equal(last?.body, '{"a":1}');
    assert.equal(last?.headers['user-agent'], USER_AGENT);
    assert.equal(last?.headers['webhook-id'], 'msg_1');
    assert.equal(last?.headers.cookie, undefined);
    // An allowed name is resolved and pinned like any other.
    const named = await client({ allowHosts: ['hooks.test'], resolve: async () => [{ address: '127.0.0.1', family: 4 }] }).post(
      `http://hooks.test:${inside.port}/named`,
      {},
      '{}',
    );
    assert.equal(named.kind, 'response');
    assert.equal(inside.received.at(-1)?.headers.host, `hooks.test:${inside.port}`);
  });

  it('does not follow a redirect: a 302 is the outcome, and its target gets nothing', async () => {
    const target = await receiver('127.0.0.1', ok);
    const redirecting = await receiver('127.0.0.1', (response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${target.port}/elsewhere` }).end();
    });
    try {
      const outcome = await client({ allowHosts: ['127.0.0.1'] }).post(`http://127.0.0.1:${redirecting.port}/hook`, {}, '{}');
      assert.equal(outcome.kind === 'response' && outcome.status, 302);
      assert.equal(target.received.length, 0);
    } finally {
      await target.close();
      await redirecting.close();
    }
  });

  it('gives up on a receiver that does not answer, or drips its answer, at the timeout', async () => {
    const silent = await receiver('127.0.0.1', () => {});
    const dripping = await receiver('127.0.0.1', (response) => {
      response.writeHead(200);
      const timer = setInterval(() => response.write('.'), 20);
      response.on('close', () => clearInterval(timer));
    });
    try {
      for (const server of [silent, dripping]) {
        const started = Date.now();
        const outcome = await client({ allowHosts: ['127.0.0.1'], timeoutMs: 300 }).post(`http://127.0.0.1:${server.port}/hook`, {}, '{}');
        assert.deepEqual(outcome, { kind: 'timeout' });
        assert.ok(Date.now() - started < 3000);
      }
      // A resolver that never answers is within the same timeout.
      const hung = await client({ timeoutMs: 200, resolve: () => new Promise(() => {}) }).post('https://hung.example/hook', {}, '{}');
      assert.deepEqual(hung, { kind: 'timeout' });
    } finally {
      await silent.close();
      await dripping.close();
    }
  });

  it('reads at most 64 KB of an answer', async () => {
    const huge = await receiver('127.0.0.1', (response) => {
      response.writeHead(200);
      const block = 'x'.repeat(16 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 1024 && response.write(block)) sent += 1; // up to 16 MB, unless the reader stops
        if (sent < 1024) response.once('drain', more);
        else response.end();
      };
      more();
    });
    const exact = await receiver('127.0.0.1', (response) => response.end('y'.repeat(64 * 1024)));
    try {
      const outcome = await client({ allowHosts: ['127.0.0.1'] }).post(`http://127.0.0.1:${huge.port}/hook`, {}, '{}');
      assert.equal(outcome.kind, 'response');
      assert.equal(outcome.kind === 'response' && outcome.body.length, 64 * 1024);
      assert.equal(outcome.kind === 'response' && outcome.truncated, true);
      const whole = await client({ allowHosts: ['127.0.0.1'] }).post(`http://127.0.0.1:${exact.port}/hook`, {}, '{}');
      assert.equal(whole.kind === 'response' && whole.body.length, 64 * 1024);
      assert.equal(whole.kind === 'response' && whole.truncated, false);
    } finally {
      await huge.close();
      await exact.close();
    }
  });

  it('says why when the name does not resolve or nothing listens', async () => {
    const unresolved = await client({ resolve: async () => [] }).post('https://nowhere.example/hook', {}, '{}');
    assert.equal(unresolved.kind, 'error');
    const closed = await receiver('127.0.0.1', ok);
    await closed.close();
    const refused = await client({ allowHosts: ['127.0.0.1'] }).post(`http://127.0.0.1:${closed.port}/hook`, {}, '{}');
    assert.equal(refused.kind, 'error');
    assert.match(refused.kind === 'error' ? refused.reason : '', /ECONNREFUSED/);
    assert.deepEqual(await client().post('not a url', {}, ''), { kind: 'refused', reason: 'not a URL' });
  });
});
