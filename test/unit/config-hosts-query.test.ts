// STRICT_HOSTS and FORWARD_QUERY (issue 25 items 1 and 7, decision 0015).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

function fails(env: Record<string, string>, variable: string) {
  assert.throws(
    () => loadConfig(env),
    (e: unknown) => e instanceof ConfigError && e.message.includes(variable) && !e.message.includes('\n'),
    `${JSON.stringify(env)} should fail naming ${variable}`,
  );
}

describe('loadConfig: hosts and query forwarding (decision 0015)', () => {
  it('has the documented defaults: any Host answers as the default domain, query strings forwarded', () => {
    const config = loadConfig({});
    assert.equal(config.strictHosts, false);
    assert.equal(config.forwardQuery, true);
  });

  it('reads on and off', () => {
    assert.equal(loadConfig({ STRICT_HOSTS: 'on' }).strictHosts, true);
    assert.equal(loadConfig({ STRICT_HOSTS: ' off ' }).strictHosts, false);
    assert.equal(loadConfig({ FORWARD_QUERY: 'off' }).forwardQuery, false);
    assert.equal(loadConfig({ FORWARD_QUERY: 'on' }).forwardQuery, true);
  });

  it('throws a one-line ConfigError naming the variable for any other value', () => {
    for (const value of ['yes', 'true', '1', 'ON', 'strict']) fails({ STRICT_HOSTS: value }, 'STRICT_HOSTS');
    for (const value of ['no', 'false', '0', 'Off']) fails({ FORWARD_QUERY: value }, 'FORWARD_QUERY');
  });
});
