// What instances share: the change bus, in-process and over Redis, and what happens
// when Redis cannot be reached (nothing throws where it must not).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Log } from '../../src/log.js';
import { LocalChangeBus } from '../../src/shared-state/change-bus.js';
import { RedisChangeBus } from '../../src/shared-state/redis-change-bus.js';
import { openSharedState } from '../../src/shared-state/shared-state.js';
import { eventually, freePort, sleep } from '../scale-support/server-process.js';
import { TEST_REDIS_URL, uniqueName } from '../scale-support/test-services.js';

function recordingLog(): Log & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => {}, warn: (_details, message) => warnings.push(message) };
}

describe('shared state without Redis', () => {
  it('uses in-process equivalents when REDIS_URL is not set', async () => {
    const shared = openSharedState({ redisUrl: undefined, redisPrefix: 'x:' }, recordingLog());
    assert.ok(shared.changes instanceof LocalChangeBus);
    await shared.close();
  });

  it('keeps the password counters apart from the others, locally and in the fall-back while Redis is down', async () => {
    for (const redisUrl of [undefined, `redis://127.0.0.1:${await freePort()}`]) {
      const shared = openSharedState({ redisUrl, redisPrefix: 'x:' }, recordingLog(), { maxLocalCounters: 3 });
      try {
        await shared.passwordCounters.add('password:192.0.2.1', 1, 60_000);
        // Ten other keys: three fit, so each pushes an older one out of the API's counters.
        for (let i = 0; i < 10; i++) await shared.counters.add(`reads:addr:198.51.100.${i}`, 1, 60_000);
        assert.equal((await shared.counters.add('reads:addr:198.51.100.0', 1, 60_000)).current, 1, `evicted (${redisUrl ?? 'local'})`);
        assert.equal((await shared.passwordCounters.add('password:192.0.2.1', 1, 60_000)).current, 2, `kept (${redisUrl ?? 'local'})`);
      } finally {
        await shared.close();
      }
    }
  });

  it('keeps going when Redis cannot be reached: publishes are dropped', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const log = recordingLog();
    const bus = new RedisChangeBus(url, 'unreachable:', log);
    bus.publish('short.test', 'abc'); // must not throw, now or later
    await bus.subscribe(() => assert.fail('no message can arrive'));
    await bus.close();
    assert.ok(log.warnings.length > 0, 'the outage was not logged');
  });
});

if (TEST_REDIS_URL) {
  const redisUrl = TEST_REDIS_URL;

  describe('shared state over Redis', () => {
    const prefix = `${uniqueName('brief_test')}:`;
    const log = recordingLog();
    const closers: Array<() => Promise<void>> = [];
    after(async () => {
      await Promise.all(closers.map((close) => close()));
    });

    it('delivers link changes to every other process, not back to the sender', async () => {
      const [one, two] = [new RedisChangeBus(redisUrl, prefix, log), new RedisChangeBus(redisUrl, prefix, log)];
      const other = new RedisChangeBus(redisUrl, `${prefix}other:`, log);
      closers.push(
        () => one.close(),
        () => two.close(),
        () => other.close(),
      );
      const heardByOne: string[] = [];
      const heardByTwo: string[] = [];
      const heardByOther: string[] = [];
      await one.subscribe((d, k) => heardByOne.push(`${d}/${k}`));
      await two.subscribe((d, k) => heardByTwo.push(`${d}/${k}`));
      await other.subscribe((d, k) => heardByOther.push(`${d}/${k}`));

      one.publish('short.test', 'abc');
      assert.ok(await eventually(async () => heardByTwo.length === 1, 1_000));
      await sleep(100);
      assert.deepEqual(heardByTwo, ['short.test/abc']);
      assert.deepEqual(heardByOne, [], 'the sender heard its own notice');
      assert.deepEqual(heardByOther, [], 'another REDIS_PREFIX heard the notice');
    });
  });
}
