// The visits counted against links' limits, in one instance (decision 0039): visits noted in memory (bots not),
// added to the database's total at a flush and the total read back (the other instances' visits with it); a visit
// made while a flush is under way stays pending; a failed flush keeps every visit for the next one.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { VisitLimits } from '../../src/redirect/visit-limits.js';
import type { LinkTarget } from '../../src/storage/stores/links.js';
import type { VisitLimitStore } from '../../src/storage/stores/visit-limits.js';

const quietLog = () => ({ info: () => {}, warn: () => {} }) as never;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const request = (userAgent: string) => ({ headers: { 'user-agent': userAgent } }) as IncomingMessage;

/** A database's totals, with what each add was given, and a switch to make the next add fail. */
function fakeStore(totals: Map<number, number>) {
  const adds: Array<ReadonlyArray<readonly [number, number]>> = [];
  let failNext = false;
  let during: (() => void) | undefined;
  const store: VisitLimitStore = {
    async add(visits, ids) {
      if (failNext) {
        failNext = false;
        throw new Error('the database is down');
      }
      adds.push(visits);
      during?.();
      for (const [id, n] of visits) totals.set(id, (totals.get(id) ?? 0) + n);
      return new Map(ids.filter((id) => totals.has(id)).map((id) => [id, totals.get(id)!]));
    },
  };
  return { store, adds, failNext: () => (failNext = true), during: (run: () => void) => (during = run) };
}

describe('visit limits', () => {
  const target: LinkTarget = { id: 1, url: 'https://example.com/', blocked: false, visitLimit: { max: 10, counted: 2 } };

  it('counts visits but not bots nor links without a limit, and learns the total at a flush', async () => {
    const totals = new Map([[1, 2]]);
    const fake = fakeStore(totals);
    const limits = new VisitLimits(fake.store, quietLog());
    const visits = limits.of(1, target.visitLimit!);
    limits.observe(target, request(BROWSER));
    limits.observe(target, request(BROWSER));
    limits.observe(target, request(BOT));
    limits.observe({ id: 2, url: 'https://example.com/', blocked: false }, request(BROWSER));
    assert.equal(visits.total, 4);
    // Another instance's visits, in the database.
    totals.set(1, 5);
    await limits.flush();
    assert.deepEqual(fake.adds, [[[1, 2]]]);
    assert.deepEqual({ counted: visits.counted, pending: visits.pending }, { counted: 7, pending: 0 });
  });

  it('keeps a visit made during a flush pending, and every visit after a failed flush', async () => {
    const fake = fakeStore(new Map([[1, 2]]));
    const limits = new VisitLimits(fake.store, quietLog());
    const visits = limits.of(1, target.visitLimit!);
    limits.observe(target, request(BROWSER));
    fake.failNext();
    await limits.flush();
    assert.equal(limits.failedWrites, 1);
    assert.deepEqual({ counted: visits.counted, pending: visits.pending }, { counted: 2, pending: 1 });
    fake.during(() => limits.observe(target, request(BROWSER)));
    await limits.flush();
    assert.deepEqual({ counted: visits.counted, pending: visits.pending }, { counted: 3, pending: 1 });
    assert.equal(visits.total, 4, 'the visit made during the flush is still known');
  });

  it('takes a fresher count read with a target, and forgets a link the database no longer has', async () => {
    const fake = fakeStore(new Map());
    const limits = new VisitLimits(fake.store, quietLog());
    const visits = limits.of(1, { max: 10, counted: 2 });
    assert.equal(limits.of(1, { max: 10, counted: 6 }), visits);
    assert.equal(visits.counted, 6);
    await limits.flush();
    assert.notEqual(limits.of(1, { max: 10, counted: 0 }), visits, 'made anew');
  });
});
