// The start's log lines (issue 25 item 1): the address to open, and a warning when BASE_URL was left at its default
// while HOST takes other machines' requests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { logStart } from '../../src/start-log.js';

function linesOf(env: Record<string, string>) {
  const lines: { level: string; message: string }[] = [];
  logStart(loadConfig(env), {
    info: (_details, message) => lines.push({ level: 'info', message }),
    warn: (_details, message) => lines.push({ level: 'warn', message }),
  });
  return lines;
}

describe('logStart', () => {
  it('names BASE_URL as the address to open', () => {
    assert.deepEqual(linesOf({ HOST: '127.0.0.1' }), [{ level: 'info', message: 'open http://localhost:3000' }]);
    assert.deepEqual(linesOf({ BASE_URL: 'https://brf.example', PORT: '8080' }), [{ level: 'info', message: 'open https://brf.example' }]);
  });

  it('warns when BASE_URL has its default while HOST is not loopback', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20']) {
      const lines = linesOf({ HOST: host, PORT: '4000' });
      assert.equal(lines.length, 2, host);
      assert.equal(lines[1]!.level, 'warn');
      assert.match(lines[1]!.message, /BASE_URL is not set: short URLs name http:\/\/localhost:4000/);
      assert.ok(lines[1]!.message.includes(`HOST ${host}`), lines[1]!.message);
    }
    assert.equal(linesOf({}).length, 2, 'HOST defaults to 0.0.0.0');
  });

  it('does not warn on a loopback HOST or with BASE_URL set', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) {
      assert.equal(linesOf({ HOST: host }).length, 1, host);
    }
    assert.equal(linesOf({ HOST: '0.0.0.0', BASE_URL: 'http://192.168.1.20:3000' }).length, 1);
  });
});
