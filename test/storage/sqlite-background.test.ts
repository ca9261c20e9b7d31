// The SQLite background thread runs the typed click write (storage/click-writes.ts) on a
// connection of its own, so the server's event loop does not.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Connection, openConnection } from '../../src/storage/connection.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

describe('SQLite background thread', () => {
  let t: TestDatabase;
  let connection: Connection;
  before(async () => {
    t = await openTestDatabase('sqlite');
    connection = openConnection({ kind: 'sqlite', path: t.url.slice('sqlite:'.length) });
  });
  after(async () => {
    await connection.close();
    await t.cleanup();
  });

  it('runs for a file, and applies click batches once per writer and number', async () => {
    const background = connection.background;
    assert.ok(background, 'a SQLite file has a background thread');
    await background.addClicks({
      writer: 'bg',
      seq: 1,
      clicks: [
        [501, 2],
        [502, 1],
      ],
    });
    await background.addClicks({
      writer: 'bg',
      seq: 1,
      clicks: [
        [501, 2],
        [502, 1],
      ],
    });
    await background.addClicks({ writer: 'bg', seq: 2, clicks: [[501, 3]] });
    assert.equal(background.running, true, 'the thread is alive: the clicks were not applied by a fall-back');
    const rows = await t.database.db
      .selectFrom('link_clicks')
      .select(['link_id', 'clicks'])
      .where('link_id', 'in', [501, 502])
      .orderBy('link_id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [Number(r.link_id), Number(r.clicks)]),
      [
        [501, 5],
        [502, 1],
      ],
    );
  });

  it('starts no batch while a write of the server’s connection is under way, and starts it after', async () => {
    const background = connection.background!;
    background.priority.enter();
    let done = false;
    const applied = background.addClicks({ writer: 'bg-priority', seq: 1, clicks: [[601, 1]] }).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(done, false, 'the batch waits for the server’s write');
    background.priority.leave();
    await applied;
    const row = await t.database.db.selectFrom('link_clicks').select('clicks').where('link_id', '=', 601).executeTakeFirst();
    assert.equal(Number(row?.clicks), 1);
  });

  it('has none for an in-memory database', async () => {
    const memory = openConnection({ kind: 'sqlite', path: ':memory:' });
    assert.equal(memory.background, undefined);
    assert.equal(memory.reader, undefined);
    await memory.close();
  });
});
