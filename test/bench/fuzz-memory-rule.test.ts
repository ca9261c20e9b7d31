// The fuzz's memory rule (harness/hostile/fuzz-run.ts): medians of RSS windows, not single samples,
// so a sample taken before the plateau does not fail a flat run, and real growth still does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FuzzReport, median, rssWindows, verdict } from '../../harness/hostile/fuzz-run.js';

/** A passing report but for its memory figures. */
function report(samples: number[]): FuzzReport {
  const { warmMb, endMb } = rssWindows(samples);
  return {
    seed: 1,
    requests: 100_000,
    raw: 0,
    routes: 29,
    byStatus: {},
    dropped: {},
    problems: [],
    problemCount: 0,
    durationSeconds: 1,
    rssStartMb: samples[0]!,
    rssWarmMb: warmMb ?? samples[0]!,
    rssEndMb: endMb,
    rssSamplesMb: samples,
    alive: true,
  };
}

describe('the fuzz memory rule', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([]), undefined);
  });

  it('passes a run whose one sample at a fifth fell before the plateau (seed 765097, RSS every 10,000 requests)', () => {
    const samples = [158.4, 175.8, 225.4, 228.9, 236.2, 227.4, 228.1, 230.1, 230.3, 229.8];
    const { warmMb, endMb } = rssWindows(samples);
    assert.equal(warmMb, (225.4 + 228.9) / 2);
    assert.equal(endMb, (230.3 + 229.8) / 2);
    assert.deepEqual(verdict(report(samples)), []);
  });

  it('fails a run whose memory keeps growing after warm-up', () => {
    const samples = Array.from({ length: 21 }, (_, i) => 160 + i * 5);
    const failures = verdict(report(samples));
    assert.equal(failures.length, 1);
    assert.match(failures[0]!, /RSS grew .*% after warm-up/);
  });
});
