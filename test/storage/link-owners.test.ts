// The background thread's accounts of visited links (storage/sqlite/link-owners.ts): read a block
// of links at a time, held once read, and never wrong about a link made or found later.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { LinkOwners, OWNER_BLOCK } from '../../src/storage/sqlite/link-owners.js';

function linksTable() {
  const sqlite = new SQLite(':memory:');
  sqlite.exec('create table links (id integer primary key autoincrement, account_id integer not null)');
  const add = sqlite.prepare<[number, number]>('insert into links (id, account_id) values (?, ?)');
  return { sqlite, add: (id: number, accountId: number) => add.run(id, accountId) };
}

describe("a link's account on the background thread", () => {
  it('reads the whole block of the first link asked for, and answers its other links from memory', () => {
    const { sqlite, add } = linksTable();
    for (let id = 1; id <= 5; id++) add(id, 10 + id);
    add(OWNER_BLOCK - 1, 7); // the last id of block 0
    add(OWNER_BLOCK, 8); // the first of block 1
    const owners = new LinkOwners(sqlite);
    assert.equal(owners.of(3), 13);
    // Gone from the table (links are never removed; this only shows nothing is read again).
    sqlite.exec(`delete from links where id in (1, 5, ${OWNER_BLOCK - 1})`);
    assert.equal(owners.of(1), 11);
    assert.equal(owners.of(5), 15);
    assert.equal(owners.of(OWNER_BLOCK - 1), 7);
    // Block 1 was not read with block 0.
    assert.equal(owners.of(OWNER_BLOCK), 8);
  });

  it('finds a link made after its block was read, and a link that did not exist when first asked for', () => {
    const { sqlite, add } = linksTable();
    add(1, 1);
    const owners = new LinkOwners(sqlite);
    assert.equal(owners.of(1), 1);
    add(2, 2);
    assert.equal(owners.of(2), 2);
    assert.equal(owners.of(40_000), undefined);
    add(40_000, 3);
    assert.equal(owners.of(40_000), 3);
  });

  it('looks up links past what it holds, and ids that are not links', () => {
    const { sqlite, add } = linksTable();
    const far = 2 ** 24 + 5;
    add(far, 4);
    const owners = new LinkOwners(sqlite);
    assert.equal(owners.of(far), 4);
    assert.equal(owners.of(0), undefined);
    assert.equal(owners.of(-1), undefined);
    assert.equal(owners.of(1.5), undefined);
  });
});
