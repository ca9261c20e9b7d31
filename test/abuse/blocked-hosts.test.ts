// The blocklist's matching (abuse/blocked-hosts.ts): a host covers its subdomains, addresses
// only themselves; the host is read from stored URLs of every shape; answers follow changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlockedHosts, hostOf } from '../../src/abuse/blocked-hosts.js';

describe('BlockedHosts', () => {
  it('covers a host and its subdomains, not names that merely end the same', () => {
    const hosts = new BlockedHosts();
    assert.equal(hosts.covers('phish.example'), false);
    hosts.setStored(['phish.example', '10.0.0.1', '[2001:db8::1]']);
    for (const name of ['phish.example', 'www.phish.example', 'a.b.c.phish.example', 'phish.example.']) assert.equal(hosts.covers(name), true, name);
    for (const name of ['notphish.example', 'phish.example.com', 'example', '0.1', '110.0.0.1', '[2001:db8::2]']) {
      assert.equal(hosts.covers(name), false, name);
    }
    assert.equal(hosts.covers('10.0.0.1'), true);
    assert.equal(hosts.covers('[2001:db8::1]'), true);
    // An address is not a "subdomain": blocking 0.0.1 blocks no 10.0.0.1.
    hosts.setStored(['0.0.1']);
    assert.equal(hosts.covers('10.0.0.1'), false);
  });

  it('reads the host of every shape of stored URL', () => {
    assert.equal(hostOf('https://a.example/p?q#f'), 'a.example');
    assert.equal(hostOf('https://a.example'), 'a.example');
    assert.equal(hostOf('http://user:pw@a.example:8080/x'), 'a.example');
    assert.equal(hostOf('http://a.example?x=1'), 'a.example');
    assert.equal(hostOf('http://[2001:db8::1]:8080/'), '[2001:db8::1]');
    assert.equal(hostOf('https://u@[::1]/'), '[::1]');
    assert.equal(hostOf('https://a.example/@evil.example'), 'a.example');
  });

  it('answers for URLs as the list is now: the file and the database together, and again after each change', () => {
    const hosts = new BlockedHosts();
    const url = 'https://login.bank.example/verify';
    assert.equal(hosts.coversUrl(url), false);
    hosts.setListed(['bank.example']);
    assert.equal(hosts.size, 1);
    assert.equal(hosts.coversUrl(url), true);
    assert.equal(hosts.coversUrl(url), true, 'the remembered answer');
    hosts.setStored(['other.example']);
    assert.equal(hosts.coversUrl(url), true, 'the file still lists it');
    hosts.setListed([]);
    assert.equal(hosts.coversUrl(url), false, 'forgotten with the change');
    assert.equal(hosts.coversUrl('https://x.other.example/'), true);
  });
});
