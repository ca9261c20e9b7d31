// Multi-row statements come in a few shapes (storage/sql/batch-shapes.ts), and the prepared-statement
// cache keeps a bounded number of the long ones: the soak found a thousand shapes, one per batch
// size, holding a server at 1 GB (decision 0009).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { inPowersOfTwo, paddedList } from '../../src/storage/sql/batch-shapes.js';
import { MAX_CACHED_SQL_LENGTH, MAX_LONG_STATEMENTS, withStatementCache } from '../../src/storage/sqlite/statement-cache.js';

const rows = (n: number) => `insert into events (a, b, c, d) values ${Array.from({ length: n }, () => '(?, ?, ?, ?)').join(', ')}`;

describe('batch shapes', () => {
  it('cut any batch into power-of-two chunks, in order, at most 512 rows each', () => {
    for (const n of [0, 1, 2, 3, 7, 100, 500, 511, 512, 513, 1500]) {
      const items = Array.from({ length: n }, (_, i) => i);
      const chunks = inPowersOfTwo(items);
      assert.deepEqual(chunks.flat(), items);
      for (const chunk of chunks) assert.ok(chunk.length <= 512 && (chunk.length & (chunk.length - 1)) === 0, `${chunk.length} in ${n}`);
    }
  });

  it('pad an in-list to a power of two with its last value', () => {
    assert.deepEqual(paddedList([]), []);
    assert.deepEqual(paddedList([5]), [5]);
    assert.deepEqual(paddedList([1, 2, 3]), [1, 2, 3, 3]);
    assert.equal(paddedList(Array.from({ length: 300 }, (_, i) => i)).length, 512);
  });
});

describe('the SQLite statement cache', () => {
  it('reuses the statement of a query shape, short or multi-row', () => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec('create table events (a, b, c, d)');
    const cache = withStatementCache(sqlite);
    const short = 'select a from events where b = ?';
    assert.equal(cache.prepare(short), cache.prepare(short));
    assert.ok(rows(128).length > MAX_CACHED_SQL_LENGTH);
    assert.equal(cache.prepare(rows(128)), cache.prepare(rows(128)));
    sqlite.close();
  });

  it('keeps a bounded number of long statements, however many batch sizes come', () => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec('create table events (a, b, c, d)');
    const cache = withStatementCache(sqlite);
    for (let n = 1; n <= 500; n++) (cache.prepare(rows(n)) as unknown as SQLite.Statement).run(Array.from({ length: n * 4 }, (_, i) => i));
    const short = [...Array(500).keys()].filter((i) => rows(i + 1).length <= MAX_CACHED_SQL_LENGTH).length;
    assert.ok(cache.cachedStatements <= short + MAX_LONG_STATEMENTS, `${cache.cachedStatements} statements kept`);
    assert.equal((sqlite.prepare('select count(*) as n from events').get() as { n: number }).n, (500 * 501) / 2);
    sqlite.close();
  });
});
