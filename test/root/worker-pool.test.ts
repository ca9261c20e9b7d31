// WorkerPool (src/worker-pool.ts): tasks on a bounded number of niced threads, a bounded queue, and
// `busy` beyond it at once; a failing task or thread rejects only its own task.
import assert from 'node:assert/strict';
import os from 'node:os';
import { after, describe, it } from 'node:test';
import { threadScript } from '../../src/thread-scripts.js';
import { WorkerPool } from '../../src/worker-pool.js';
import type { PoolTestTask } from './worker-pool-thread.js';

const SCRIPT = threadScript(import.meta.url, 'worker-pool-thread');

/** A gate a `hold` task waits on until `open()`. */
function gate() {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  return {
    cell,
    open() {
      Atomics.store(cell, 0, 1);
      Atomics.notify(cell, 0);
    },
  };
}

describe('WorkerPool', () => {
  const pools: Array<WorkerPool<PoolTestTask, number>> = [];
  const pool = (threads: number, waiting: number) => {
    const made = new WorkerPool<PoolTestTask, number>(SCRIPT, threads, waiting);
    pools.push(made);
    return made;
  };
  after(() => Promise.all(pools.map((p) => p.close())));

  it("answers each task with the thread's value, and a thrown error as a rejection with its message", async () => {
    const p = pool(2, 4);
    assert.deepEqual(await Promise.all([1, 2, 3, 4, 5].map((value) => p.run({ kind: 'double', value }))), [2, 4, 6, 8, 10]);
    await assert.rejects(p.run({ kind: 'throw', message: 'no such code' }), /no such code/);
    assert.equal(await p.run({ kind: 'double', value: 21 }), 42, 'the thread still serves after a task threw');
  });

  it('runs at most `threads` tasks at once and queues `waiting`; any more is busy at once, without work', async () => {
    const p = pool(2, 3);
    const held = gate();
    const running = [1, 2].map((value) => p.run({ kind: 'hold', gate: held.cell, value }));
    const queued = [3, 4, 5].map((value) => p.run({ kind: 'double', value }));
    assert.deepEqual(p.load, { running: 2, waiting: 3 });
    assert.equal(await p.run({ kind: 'double', value: 6 }), 'busy');
    assert.equal(await p.run({ kind: 'double', value: 7 }), 'busy');
    assert.deepEqual(p.load, { running: 2, waiting: 3 }, 'a busy answer takes no place');
    held.open();
    assert.deepEqual(await Promise.all(running), [1, 2]);
    assert.deepEqual(await Promise.all(queued), [6, 8, 10], 'the waiting tasks ran, in order');
    assert.deepEqual(p.load, { running: 0, waiting: 0 });
    assert.equal(await p.run({ kind: 'double', value: 8 }), 16, 'not busy once the queue has drained');
  });

  it('refuses at once with no queue: `waiting` 0', async () => {
    const p = pool(1, 0);
    const held = gate();
    const running = p.run({ kind: 'hold', gate: held.cell, value: 9 });
    assert.equal(await p.run({ kind: 'double', value: 1 }), 'busy');
    held.open();
    assert.equal(await running, 9);
  });

  it('rejects the task of a thread that ends, and starts another for the next', async () => {
    const p = pool(1, 2);
    const ended = p.run({ kind: 'exit' });
    const next = p.run({ kind: 'double', value: 5 });
    await assert.rejects(ended);
    assert.equal(await next, 10);
  });

  it('runs its threads at the lowest CPU priority (nice 19), and leaves the main thread as it was', async () => {
    const before = os.getPriority(0);
    assert.equal(await pool(1, 0).run({ kind: 'priority' }), 19);
    assert.equal(os.getPriority(0), before);
  });

  it('rejects what waits when closed', async () => {
    const p = pool(1, 1);
    const held = gate();
    const running = p.run({ kind: 'hold', gate: held.cell, value: 1 });
    const waiting = assert.rejects(p.run({ kind: 'double', value: 1 }), /closed/);
    const cut = assert.rejects(running);
    await p.close();
    await Promise.all([waiting, cut]);
  });
});
