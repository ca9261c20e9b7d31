// The SQLite write turns (storage/sqlite/write-turns.ts): a server write waits for a background
// thread transaction under way with the event loop free, never inside the driver's lock wait.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inThreadTurn, newWriteTurns, serverTurns } from '../../src/storage/sqlite/write-turns.js';

const THREAD = 1;
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('SQLite write turns', () => {
  it('a server write waits for the thread’s transaction without holding the event loop', async () => {
    const turns = newWriteTurns();
    const server = serverTurns(turns);
    Atomics.store(turns, THREAD, 1); // the thread is in a transaction
    let entered = false;
    const entering = server.enter().then(() => (entered = true));
    let timers = 0;
    for (let i = 0; i < 3; i++) {
      await tick();
      timers++;
    }
    assert.equal(timers, 3, 'timers ran while the write waited');
    assert.equal(entered, false, 'the write waits for the thread');
    Atomics.store(turns, THREAD, 0);
    Atomics.notify(turns, THREAD);
    await entering;
    server.leave();
  });

  it('a server write waiting for the thread keeps the process alive (a timer while it waits)', async () => {
    // A pending Atomics.waitAsync is no handle of the event loop: a process with nothing else to
    // do (the admin CLI) would exit in the middle of its write (exit code 13, unsettled await).
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const turns = newWriteTurns();
    const server = serverTurns(turns);
    const before = timers();
    Atomics.store(turns, THREAD, 1);
    const entering = server.enter();
    assert.equal(timers(), before + 1, 'a timer holds the event loop while the write waits');
    Atomics.store(turns, THREAD, 0);
    Atomics.notify(turns, THREAD);
    await entering;
    assert.equal(timers(), before, 'and is cleared once the write may go');
    server.leave();
  });

  it('a thread that died in a transaction does not hold the server’s writes', async () => {
    const turns = newWriteTurns();
    const server = serverTurns(turns);
    Atomics.store(turns, THREAD, 1);
    const entering = server.enter();
    await tick();
    server.threadGone();
    await entering;
    server.leave();
  });

  it('the thread’s turn raises its flag for the work and lowers it after, even when the work throws', async () => {
    const turns = newWriteTurns();
    assert.equal(await inThreadTurn(turns, () => Atomics.load(turns, THREAD)), 1);
    assert.equal(Atomics.load(turns, THREAD), 0);
    await assert.rejects(
      inThreadTurn(turns, () => {
        throw new Error('failed write');
      }),
      /failed write/,
    );
    assert.equal(Atomics.load(turns, THREAD), 0);
  });
});
