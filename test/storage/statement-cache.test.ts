// The prepared-statement cache keeps the fixed query shapes and not the multi-row ones, whose
// SQL (and native memory) grows with each batch size: the soak found a thousand of them holding
// a server at 1 GB (decision 0009).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { MAX_CACHED_SQL_LENGTH, withStatementCache } from '../../src/storage/sqlite/statement-cache.js';

const rows = (n: number) => `insert into events (a, b, c, d) values ${Array.from({ length: n }, () => '(?, ?, ?, ?)').join(', ')}`;

describe('the SQLite statement cache', () => {
  it('reuses the statement of a short query and prepares a long multi-row one afresh each time', () => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec('create table events (a, b, c, d)');
    const cache = withStatementCache(sqlite);
    const short = 'select a from events where b = ?';
    assert.equal(cache.prepare(short), cache.prepare(short));
    assert.ok(rows(100).length > MAX_CACHED_SQL_LENGTH);
    assert.notEqual(cache.prepare(rows(100)), cache.prepare(rows(100)));
    sqlite.close();
  });

  it('holds no multi-row shape past the length bound, however many batch sizes come', () => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec('create table events (a, b, c, d)');
    const cache = withStatementCache(sqlite);
    for (let n = 1; n <= 500; n++) (cache.prepare(rows(n)) as unknown as SQLite.Statement).run(Array.from({ length: n * 4 }, (_, i) => i));
    const kept = [...Array(500).keys()].filter((i) => rows(i + 1).length <= MAX_CACHED_SQL_LENGTH).length;
    assert.equal(cache.cachedStatements, kept);
    assert.ok(kept < 100, `${kept} shapes kept`);
    assert.equal((sqlite.prepare('select count(*) as n from events').get() as { n: number }).n, (500 * 501) / 2);
    sqlite.close();
  });
});
