// The bound on password hashes (issue 31, item 3; issue 37, item 4): however many arrive at once, at most
// HASHES_AT_ONCE run and HASHES_WAITING wait; the rest are answered busy without a hash: `check` says so,
// `hash` and `verify` throw E_SERVICE_UNAVAILABLE with a retry-after. Counted through an injected job
// runner that holds each check until released: no timing involved.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BriefError } from '../../src/errors.js';
import { BUSY_RETRY_SECONDS, HASHES_AT_ONCE, HASHES_WAITING, PasswordPool } from '../../src/passwords/password-pool.js';
import { hashPasswordInProcess } from '../../src/passwords/scrypt.js';
import { heldChecks } from '../support/held-checks.js';

describe('the bounded password pool', () => {
  it('runs 2 at once and lets 16 wait (the defaults), answering busy to the rest without a hash', async () => {
    assert.deepEqual([HASHES_AT_ONCE, HASHES_WAITING], [2, 16]);
    const { run, counts, held, drain } = heldChecks('right');
    const pool = new PasswordPool({ run });
    const answers = Array.from({ length: 30 }, (_, i) => pool.check('link', i === 5 ? 'right' : 'wrong', 'stored'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(counts.running, 2, 'two hashes started');
    assert.equal(held.length, 2);
    await drain();
    const results = await Promise.all(answers);
    assert.equal(counts.most, 2, 'never more than two at once');
    assert.equal(counts.ran, 18, 'the busy ones cost no hash');
    assert.deepEqual(
      results.map((r) => (r === 'busy' ? 'busy' : r ? 'right' : 'wrong')),
      Array.from({ length: 30 }, (_, i) => (i >= 18 ? 'busy' : i === 5 ? 'right' : 'wrong')),
    );
    // Once the queue is empty again, a check runs.
    const again = pool.check('person', 'right', 'stored');
    await drain();
    assert.equal(await again, true);
  });

  it('throws E_SERVICE_UNAVAILABLE with a retry-after from verify and hash when full, on the same queue', async () => {
    const { run, held, drain } = heldChecks('right');
    const pool = new PasswordPool({ run, atOnce: 1, waiting: 1 });
    const first = pool.verify('person', 'right', null);
    const second = pool.verify('link', 'wrong', 'stored');
    const busy = (error: BriefError) => {
      assert.equal(error.code, 'E_SERVICE_UNAVAILABLE');
      assert.equal(error.retryAfterSeconds, BUSY_RETRY_SECONDS);
      assert.match(error.message, /Too many passwords are being checked right now/);
      return true;
    };
    await assert.rejects(pool.verify('person', 'right', null), busy);
    await assert.rejects(pool.hash('person', 'a new password'), busy);
    assert.equal(held.length, 1);
    await drain();
    assert.deepEqual(await Promise.all([first, second]), [true, false]);
    assert.match(await pool.hash('link', 'a new password'), /^scrypt\$16384\$8\$5\$/);
  });

  it('keeps its bounds as given', async () => {
    const { run, counts, drain } = heldChecks('right');
    const pool = new PasswordPool({ run, atOnce: 1, waiting: 3 });
    const answers = Array.from({ length: 10 }, () => pool.check('link', 'wrong', 'stored'));
    await drain();
    const results = await Promise.all(answers);
    assert.equal(counts.most, 1);
    assert.equal(results.filter((r) => r === 'busy').length, 6);
  });

  it('hashes and checks both kinds on its threads by default', async () => {
    const pool = new PasswordPool();
    try {
      const person = await pool.hash('person', 'a person’s password');
      assert.match(person, /^scrypt\$32768\$8\$3\$/);
      assert.equal(await pool.verify('person', 'a person’s password', person), true);
      assert.equal(await pool.verify('person', 'another password', person), false);
      assert.equal(await pool.verify('person', 'any password', null), false, 'nobody’s: hashed anyway, never right');
      const link = await hashPasswordInProcess('link', 'sesame-1');
      assert.equal(await pool.check('link', 'sesame-1', link), true);
    } finally {
      await pool.close();
    }
  });
});
