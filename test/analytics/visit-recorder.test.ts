// The fold of a flush's visits into click events (analytics/visit-recorder.ts): visits alike within a second are one
// event with their count, and visits of one link that took different rules (decision 0039) stay apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOTHING, type RawVisit, type VisitProfile } from '../../src/analytics/enrich.js';
import { Fold } from '../../src/analytics/visit-recorder.js';

const SECOND = 1_800_000_000_000;

const visit = (linkId: number, rule: string | null, fields: Partial<RawVisit> = {}): RawVisit => ({
  time: SECOND,
  linkId,
  userAgent: undefined,
  referer: undefined,
  acceptLanguage: undefined,
  socketAddress: undefined,
  forwardedFor: undefined,
  optedOut: false,
  rule,
  visits: 1,
  ...fields,
});

/** The events of a fold, as `link rule ×clicks`, in a stable order. */
const folded = (visits: Array<[RawVisit, VisitProfile]>) => {
  const fold = new Fold();
  for (const [raw, profile] of visits) fold.add(raw, profile);
  return fold
    .events()
    .map((event) => `${event.linkId} ${event.rule} ×${event.clicks}`)
    .sort();
};

describe('Fold', () => {
  it('keeps the visits of one link that took different rules apart, and folds those that took the same', () => {
    const chrome: VisitProfile = { ...NOTHING, browser: 'Chrome' };
    assert.deepEqual(
      folded([
        [visit(7, 'rules.0'), chrome],
        [visit(7, 'rules.0.split.1'), chrome],
        [visit(7, 'rules.0', { visits: 2 }), chrome],
        [visit(7, 'url'), chrome],
        [visit(7, null), chrome],
        [visit(7, null), chrome],
        [visit(8, 'rules.0'), chrome],
        // The same rule of the same link in another second, or by another visitor: another event.
        [visit(7, 'rules.0', { time: SECOND + 1000 }), chrome],
        [visit(7, 'rules.0'), NOTHING],
      ]),
      ['7 null ×2', '7 rules.0 ×1', '7 rules.0 ×1', '7 rules.0 ×3', '7 rules.0.split.1 ×1', '7 url ×1', '8 rules.0 ×1'],
    );
  });

  it('gives each event the rule its visits took', () => {
    const fold = new Fold();
    fold.add(visit(3, 'rules.2.split.0', { visits: 4 }), NOTHING);
    assert.deepEqual(fold.events(), [{ time: SECOND, linkId: 3, ...NOTHING, rule: 'rules.2.split.0', clicks: 4 }]);
  });
});
