// The one written form of a host (the loop check's first step, decision 0015's addendum): every spelling
// of one server compares equal, and a host that is no host is undefined.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalHost, canonicalHostname, endpointOf } from '../../src/net/host-names.js';

describe('canonicalHostname', () => {
  it('lower-cases and drops the trailing dot(s) of a fully qualified name', () => {
    for (const raw of ['localhost', 'LOCALHOST', 'localhost.', 'LocalHost..', ' localhost. ']) assert.equal(canonicalHostname(raw), 'localhost', raw);
    assert.equal(canonicalHostname('Go.Example.COM.'), 'go.example.com');
  });

  it('writes an IDN in punycode, whichever way it came', () => {
    for (const raw of ['bücher.example', 'BÜCHER.example.', 'xn--bcher-kva.example', 'XN--BCHER-KVA.EXAMPLE.']) {
      assert.equal(canonicalHostname(raw), 'xn--bcher-kva.example', raw);
    }
  });

  it('writes every form of an IPv4 address in dotted decimal', () => {
    for (const raw of ['127.0.0.1', '127.0.0.1.', '127.1', '0x7f.0.0.1', '0x7F.1', '0177.0.0.1', '2130706433', '0x7f000001']) {
      assert.equal(canonicalHostname(raw), '127.0.0.1', raw);
    }
  });

  it('compresses IPv6 in brackets and writes an IPv4-mapped address as IPv4', () => {
    for (const raw of ['::1', '[::1]', '[0:0:0:0:0:0:0:1]', '[0000::0001]']) assert.equal(canonicalHostname(raw), '[::1]', raw);
    for (const raw of ['[::ffff:127.0.0.1]', '[::FFFF:7f00:1]', '::ffff:127.0.0.1']) assert.equal(canonicalHostname(raw), '127.0.0.1', raw);
    assert.equal(canonicalHostname('[2001:DB8::0:1]'), '[2001:db8::1]');
  });

  it('is undefined for what cannot be a host', () => {
    for (const raw of ['', '.', '...', 'exa mple.com', '[::1', '[nope]', '1.2.3.4.5.6']) assert.equal(canonicalHostname(raw), undefined, raw);
  });
});

describe('endpointOf and canonicalHost', () => {
  it("give the scheme's default port when the URL writes none, or writes the default out", () => {
    assert.deepEqual(endpointOf(new URL('http://Example.COM./x')), { hostname: 'example.com', port: 80 });
    assert.deepEqual(endpointOf(new URL('http://example.com:80/x')), { hostname: 'example.com', port: 80 });
    assert.deepEqual(endpointOf(new URL('https://example.com:443/x')), { hostname: 'example.com', port: 443 });
    assert.deepEqual(endpointOf(new URL('https://example.com:80/x')), { hostname: 'example.com', port: 80 });
    assert.deepEqual(endpointOf(new URL('http://[::ffff:127.0.0.1]:3000/')), { hostname: '127.0.0.1', port: 3000 });
    assert.deepEqual(endpointOf(new URL('http://0x7f.1:3000/')), { hostname: '127.0.0.1', port: 3000 });
  });

  it('key a domain by host and the port it names', () => {
    assert.equal(canonicalHost(new URL('http://LOCALHOST.:3000')), 'localhost:3000');
    assert.equal(canonicalHost(new URL('https://go.example.com:443')), 'go.example.com');
    assert.equal(canonicalHost(new URL('http://go.example.com:443')), 'go.example.com:443');
    assert.equal(canonicalHost(new URL('http://[::ffff:7f00:1]:8080')), '127.0.0.1:8080');
  });
});
