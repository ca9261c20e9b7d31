import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ClickTally } from '../../src/redirect/structures/click-tally.js';

const pairs = (tally: ClickTally) => {
  const { ids, counts } = tally.drain();
  return [...ids].map((id, i) => [id, counts[i]]);
};

describe('ClickTally', () => {
  it('adds clicks per id and drains them by ascending id, then starts empty', () => {
    const tally = new ClickTally();
    for (const id of [5, 3, 5, 2 ** 40, 5, 3]) tally.add(id);
    tally.add(7, 10);
    assert.equal(tally.size, 4);
    assert.deepEqual(pairs(tally), [
      [3, 2],
      [5, 3],
      [7, 10],
      [2 ** 40, 1],
    ]);
    assert.equal(tally.size, 0);
    assert.deepEqual(pairs(tally), []);
    tally.add(3);
    assert.deepEqual(pairs(tally), [[3, 1]]);
  });

  it('keeps every count while it grows to many ids', () => {
    const tally = new ClickTally();
    for (let round = 1; round <= 3; round++) for (let id = 1; id <= 50_000; id++) tally.add(id * 4096, id % 7 === 0 ? 2 : 1);
    const drained = pairs(tally);
    assert.equal(drained.length, 50_000);
    drained.forEach(([id, clicks], i) => {
      assert.equal(id, (i + 1) * 4096);
      assert.equal(clicks, (i + 1) % 7 === 0 ? 6 : 3);
    });
  });
});
