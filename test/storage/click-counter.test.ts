// Click batches on every dialect: additive, and applied at most once per writer and
// number, so a flush retried after an unclear failure never counts a click twice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClickCounter } from '../../src/redirect/click-counter.js';
import type { ClickBatch, ClickStore } from '../../src/storage/stores/clicks.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';

const quiet = { info: () => {}, warn: () => {} };

for (const dialect of dialects) {
  describe(`click batches (${dialect})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(dialect);
    });
    after(async () => {
      await t.cleanup();
    });

    // link_clicks has no foreign key, so plain numbers serve as link ids here.
    const stored = async (ids: number[]) => {
      const rows = await t.database.db.selectFrom('link_clicks').select(['link_id', 'clicks']).where('link_id', 'in', ids).execute();
      const byId = new Map(rows.map((r) => [Number(r.link_id), Number(r.clicks)]));
      return ids.map((id) => byId.get(id) ?? 0);
    };

    /** The database's click store, except that add fails as `failure` says: after committing, or instead of it. */
    const failing = (failure: (call: number) => 'after-commit' | 'before-commit' | undefined): ClickStore => {
      let calls = 0;
      return {
        add: async (batch: ClickBatch) => {
          const how = failure(++calls);
          if (how === 'before-commit') throw new Error('Connection terminated unexpectedly');
          await t.database.clicks.add(batch);
          if (how === 'after-commit') throw new Error('Connection terminated unexpectedly');
        },
      };
    };

    it('applies a batch once per writer and number, and adds up across writers', async () => {
      await t.database.clicks.add({
        writer: 'w1',
        seq: 1,
        clicks: [
          [9001, 3],
          [9002, 1],
        ],
      });
      await t.database.clicks.add({
        writer: 'w1',
        seq: 1,
        clicks: [
          [9001, 3],
          [9002, 1],
        ],
      });
      assert.deepEqual(await stored([9001, 9002]), [3, 1]);
      await t.database.clicks.add({ writer: 'w1', seq: 2, clicks: [[9001, 2]] });
      await t.database.clicks.add({ writer: 'w1', seq: 1, clicks: [[9001, 3]] });
      assert.deepEqual(await stored([9001, 9002]), [5, 1]);
      await t.database.clicks.add({ writer: 'w2', seq: 1, clicks: [[9001, 10]] });
      assert.deepEqual(await stored([9001, 9002]), [15, 1]);
    });

    it('does not count clicks twice when a flush committed but reported a failure', async () => {
      const counter = new ClickCounter(
        failing((call) => (call === 1 ? 'after-commit' : undefined)),
        quiet,
      );
      for (let i = 0; i < 4; i++) counter.count(9101);
      await counter.flush(); // committed, but the instance cannot know
      counter.count(9101);
      await counter.flush(); // the unclear batch again, then the new click
      assert.deepEqual(await stored([9101]), [5]);
    });

    it('keeps the counts of a flush that failed before committing, in every chunk', async () => {
      // 450 links make three chunks; the second fails, the third is never sent.
      const ids = Array.from({ length: 450 }, (_, i) => 9200 + i);
      const counter = new ClickCounter(
        failing((call) => (call === 2 ? 'before-commit' : undefined)),
        quiet,
      );
      for (const id of ids) counter.count(id);
      await counter.flush();
      for (const id of ids) counter.count(id);
      await counter.flush();
      assert.deepEqual(
        await stored(ids),
        ids.map(() => 2),
      );
    });

    it('writes what is left when stopped, after an unclear failure too', async () => {
      const counter = new ClickCounter(
        failing((call) => (call === 1 ? 'after-commit' : undefined)),
        quiet,
      );
      counter.count(9701);
      await counter.flush();
      counter.count(9701);
      await counter.stop();
      assert.deepEqual(await stored([9701]), [2]);
    });
  });
}
