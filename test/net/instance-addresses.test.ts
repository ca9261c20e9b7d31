// Which endpoints reach this instance itself (the loop check with STRICT_HOSTS off, decision 0015's
// addendum): its names and addresses on the port it listens on, and nothing on another port.
import assert from 'node:assert/strict';
import type { NetworkInterfaceInfo } from 'node:os';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { endpointOf } from '../../src/net/host-names.js';
import { InstanceAddresses, type MachineInfo } from '../../src/net/instance-addresses.js';

const iface = (address: string, family: 'IPv4' | 'IPv6') => ({ address, family }) as NetworkInterfaceInfo;

function machine(addresses: string[] = ['127.0.0.1', '::1', '192.168.1.20', 'fe80::1a2b', '2001:db8::20']): MachineInfo & { reads: number } {
  const info = {
    reads: 0,
    hostname: () => 'BuildBox',
    networkInterfaces() {
      info.reads++;
      return { eth0: addresses.map((a) => iface(a, a.includes(':') ? 'IPv6' : 'IPv4')) };
    },
  };
  return info;
}

const reaches = (instance: InstanceAddresses, url: string) => instance.reaches(endpointOf(new URL(url)));

describe('InstanceAddresses', () => {
  const everywhere = new InstanceAddresses(
    loadConfig({ PORT: '3000', BASE_URL: 'https://go.example.com', PUBLIC_DOMAINS: 'pub.example:8443' }),
    machine(),
  );

  it('knows localhost, loopback and unspecified addresses however written, on its port', () => {
    for (const url of [
      'http://localhost:3000/x',
      'http://LOCALHOST.:3000/x',
      'http://app.localhost:3000/x',
      'http://127.0.0.1:3000/x',
      'http://127.0.0.2:3000/x',
      'http://127.1:3000/x',
      'http://2130706433:3000/x',
      'http://0x7f.0.0.1:3000/x',
      'http://[::1]:3000/x',
      'http://[0:0:0:0:0:0:0:1]:3000/x',
      'http://[::ffff:127.0.0.1]:3000/x',
      'http://0.0.0.0:3000/x',
      'http://[::]:3000/x',
      'https://localhost:3000/x',
    ]) {
      assert.equal(reaches(everywhere, url), true, url);
    }
  });

  it('knows its interface addresses when it listens on every one, its machine name, and the configured hosts on its port', () => {
    for (const url of [
      'http://192.168.1.20:3000/',
      'http://[2001:db8::20]:3000/',
      'http://[fe80::1a2b]:3000/',
      'http://[::ffff:192.168.1.20]:3000/',
      'http://buildbox:3000/',
      'http://BuildBox.:3000/',
      'http://go.example.com:3000/',
      'http://pub.example:3000/',
    ]) {
      assert.equal(reaches(everywhere, url), true, url);
    }
  });

  it('leaves other ports and other hosts alone', () => {
    for (const url of [
      'http://localhost:3001/',
      'http://127.0.0.1/',
      'https://127.0.0.1/',
      'http://[::1]:8080/',
      'http://192.168.1.21:3000/',
      'http://example.com:3000/',
      'http://localhost.example.com:3000/',
      'http://10.0.0.1:3000/',
    ]) {
      assert.equal(reaches(everywhere, url), false, url);
    }
  });

  it("uses the scheme's default port when the URL names none", () => {
    const onEighty = new InstanceAddresses(loadConfig({ PORT: '80' }), machine());
    assert.equal(reaches(onEighty, 'http://127.0.0.1/x'), true);
    assert.equal(reaches(onEighty, 'http://127.0.0.1:80/x'), true);
    assert.equal(reaches(onEighty, 'https://127.0.0.1/x'), false, 'https is port 443');
    const onTls = new InstanceAddresses(loadConfig({ PORT: '443' }), machine());
    assert.equal(reaches(onTls, 'https://[::1]/x'), true);
  });

  it('with one listen address, knows that one and loopback, not the other interfaces', () => {
    const lan = new InstanceAddresses(loadConfig({ PORT: '3000', HOST: '192.168.1.20' }), machine());
    assert.equal(reaches(lan, 'http://192.168.1.20:3000/'), true);
    assert.equal(reaches(lan, 'http://127.0.0.1:3000/'), true);
    assert.equal(reaches(lan, 'http://[2001:db8::20]:3000/'), false);
    const named = new InstanceAddresses(loadConfig({ PORT: '3000', HOST: 'brief.lan' }), machine());
    assert.equal(reaches(named, 'http://BRIEF.LAN.:3000/'), true);
  });

  it('reads the interfaces at most every ten seconds, and only for an address', () => {
    const counted = machine();
    const instance = new InstanceAddresses(loadConfig({ PORT: '3000', HOST: '::' }), counted);
    for (let i = 0; i < 100; i++) reaches(instance, `http://192.168.1.${i}:3000/`);
    reaches(instance, 'http://example.com:3000/');
    assert.equal(counted.reads, 1);
  });
});
