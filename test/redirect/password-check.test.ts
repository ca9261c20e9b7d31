// The bound on password checks (issue 31, item 3): however many attempts arrive at once, at most
// CHECKS_AT_ONCE hashes run and CHECKS_WAITING wait; the rest are answered busy without a hash.
// Counted through an injected check that holds each hash until released: no timing involved.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundedPasswordCheck, CHECKS_AT_ONCE, CHECKS_WAITING } from '../../src/redirect/password-check.js';
import { heldChecks } from '../support/held-checks.js';

describe('bounded password checks', () => {
  it('runs 2 at once and lets 16 wait (the defaults), answering busy to the rest without a hash', async () => {
    assert.deepEqual([CHECKS_AT_ONCE, CHECKS_WAITING], [2, 16]);
    const { verify, counts, held, drain } = heldChecks('right');
    const check = boundedPasswordCheck({ verify });
    const answers = Array.from({ length: 30 }, (_, i) => check(i === 5 ? 'right' : 'wrong', 'stored'));
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
    const again = check('right', 'stored');
    await drain();
    assert.equal(await again, true);
  });

  it('keeps its bounds as given', async () => {
    const { verify, counts, drain } = heldChecks('right');
    const check = boundedPasswordCheck({ verify, atOnce: 1, waiting: 3 });
    const answers = Array.from({ length: 10 }, () => check('wrong', 'stored'));
    await drain();
    const results = await Promise.all(answers);
    assert.equal(counts.most, 1);
    assert.equal(results.filter((r) => r === 'busy').length, 6);
  });
});
