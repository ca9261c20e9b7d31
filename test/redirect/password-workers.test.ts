// Password checks on threads of their own (issue 31, item 3): right and wrong answers, at the lowest
// CPU priority (so the event loop keeps its core however many checks run), and on libuv's pool when a
// thread cannot run.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { hashPassword } from '../../src/links/passwords.js';
import { PasswordWorkers } from '../../src/redirect/password-workers.js';

/** The nice values of this process's threads (Linux: field 19 of /proc/self/task/TID/stat). */
function threadNiceValues(): number[] {
  return fs.readdirSync('/proc/self/task').map((tid) => {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('password checks on threads of their own', () => {
  it('tells a right password from a wrong one, on at most `size` threads at the lowest priority', async () => {
    const stored = await hashPassword('right horse');
    const workers = new PasswordWorkers(2);
    try {
      const before = threadNiceValues().filter((nice) => nice === 19).length;
      assert.deepEqual(await Promise.all([workers.verify('right horse', stored), workers.verify('wrong horse', stored)]), [true, false]);
      assert.equal(await workers.verify('right horse', stored), true, 'an idle thread is used again');
      assert.equal(await workers.verify('right horse', 'not a hash'), false);
      assert.equal(await workers.verify('right horse', 'scrypt$99$8$5$c2FsdA$aGFzaA'), false, 'parameters out of range match nothing');
      assert.equal(threadNiceValues().filter((nice) => nice === 19).length - before, 2, 'two threads, both at nice 19');
    } finally {
      await workers.close();
    }
  });

  it('checks on libuv’s pool when its thread fails', async () => {
    const stored = await hashPassword('right horse');
    const broken = new URL(`data:text/javascript,${encodeURIComponent('throw new Error("no thread today")')}`);
    const workers = new PasswordWorkers(2, broken);
    try {
      assert.equal(await workers.verify('right horse', stored), true);
      assert.equal(await workers.verify('wrong', stored), false);
    } finally {
      await workers.close();
    }
  });
});
