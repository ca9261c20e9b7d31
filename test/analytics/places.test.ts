// The places of addresses: only public unicast addresses have one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ipaddr from 'ipaddr.js';
import { bundledCountries, isUnicastV4 } from '../../src/analytics/places.js';

/** ipaddr.js's own IPv4 ranges, which the fast check must agree with (they are not in its types). */
const SPECIAL = (ipaddr.IPv4.prototype as unknown as { SpecialRanges: Record<string, [ipaddr.IPv4, number] | [ipaddr.IPv4, number][]> })
  .SpecialRanges;

const v4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

describe('places', () => {
  it("tells IPv4 unicast addresses as ipaddr.js's range() does, at every special range's edges", () => {
    const addresses = new Set(['1.1.1.1', '8.8.8.8', '80.187.0.1', '126.255.255.255', '128.0.0.0', '223.255.255.255']);
    for (const ranges of Object.values(SPECIAL)) {
      for (const [network, prefix] of (Array.isArray(ranges[0]) ? ranges : [ranges]) as [ipaddr.IPv4, number][]) {
        const first = network.toByteArray().reduce((value, byte) => value * 256 + byte, 0);
        const last = first + 2 ** (32 - prefix) - 1;
        for (const n of [first - 1, first, first + 1, last - 1, last, last + 1]) if (n >= 0 && n <= 0xffffffff) addresses.add(v4(n));
      }
    }
    assert.ok(addresses.size > 80);
    for (const address of addresses) assert.equal(isUnicastV4(address), ipaddr.parse(address).range() === 'unicast', address);
  });

  it('places public addresses, v4-mapped ones as IPv4, and no private, documentation or malformed one', () => {
    const country = bundledCountries();
    assert.match(country('8.8.8.8') ?? '', /^[A-Z]{2}$/);
    assert.equal(country('::ffff:8.8.8.8'), country('8.8.8.8'));
    for (const address of ['192.168.1.1', '203.0.113.9', '10.1.2.3', '127.0.0.1', '::1', 'fe80::1', 'not an address', '']) {
      assert.equal(country(address), null, address);
    }
  });
});
