// Password hashes on threads of their own (issue 31, item 3; issue 37, item 4): right and wrong answers and
// new hashes, at the lowest CPU priority (so the event loop keeps its core however many run), and on
// libuv's pool when a thread cannot run.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { PasswordThreads } from '../../src/passwords/password-threads.js';
import { hashPasswordInProcess, verifyPasswordSync } from '../../src/passwords/scrypt.js';

const hashPassword = (password: string) => hashPasswordInProcess('link', password);

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
    const workers = new PasswordThreads(2);
    const verify = (password: string, stored: string) => workers.run({ op: 'verify', kind: 'link', password, stored });
    try {
      const before = threadNiceValues().filter((nice) => nice === 19).length;
      assert.deepEqual(await Promise.all([verify('right horse', stored), verify('wrong horse', stored)]), [true, false]);
      assert.equal(await verify('right horse', stored), true, 'an idle thread is used again');
      assert.equal(await verify('right horse', 'not a hash'), false);
      assert.equal(await verify('right horse', 'scrypt$99$8$5$c2FsdA$aGFzaA'), false, 'parameters out of range match nothing');
      const person = await workers.run({ op: 'hash', kind: 'person', password: 'a person’s password' });
      assert.equal(verifyPasswordSync('person', 'a person’s password', person), true, 'a hash made on a thread');
      assert.equal(threadNiceValues().filter((nice) => nice === 19).length - before, 2, 'two threads, both at nice 19');
    } finally {
      await workers.close();
    }
  });

  it('checks on libuv’s pool when its thread fails', async () => {
    const stored = await hashPassword('right horse');
    const broken = new URL(`data:text/javascript,${encodeURIComponent('throw new Error("no thread today")')}`);
    const workers = new PasswordThreads(2, broken);
    const verify = (password: string, stored: string) => workers.run({ op: 'verify', kind: 'link', password, stored });
    try {
      assert.equal(await verify('right horse', stored), true);
      assert.equal(await verify('wrong', stored), false);
      assert.match(await workers.run({ op: 'hash', kind: 'link', password: 'x' }), /^scrypt\$/);
    } finally {
      await workers.close();
    }
  });
});
