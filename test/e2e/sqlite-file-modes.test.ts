// The SQLite database holds URLs, comments, password hashes and click events: the server creates
// its folder 0700 and its files 0600, and warns at start of what other users may open (issue 31, item 6).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request, ServerProcess } from '../scale-support/server-process.js';

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);
const WARNING = 'other users of this machine can open the database here';

describe('the SQLite files', () => {
  let root: string;
  let folder: string;
  let file: string;

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-modes-'));
    folder = path.join(root, 'data', 'brief');
    file = path.join(folder, 'brief.db');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('are created private (folder 0700; database, WAL and shared memory 0600), with no warning', async () => {
    const server = await ServerProcess.start({ DATABASE_URL: `sqlite:${file}`, BASE_URL: 'http://short.test' });
    try {
      const created = await request(server.port, 'GET', `/v2/shorten?${new URLSearchParams({ url: 'https://example.com/private' })}`);
      assert.equal(created.status, 200, created.body);
      // The link is durable once acknowledged: the WAL holds it, beside its shared-memory index.
      assert.ok(fs.existsSync(`${file}-wal`) && fs.existsSync(`${file}-shm`));
      assert.deepEqual([folder, path.dirname(folder), file, `${file}-wal`, `${file}-shm`].map(modeOf), ['700', '700', '600', '600', '600']);
      assert.doesNotMatch(server.log, new RegExp(WARNING));
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('warn at start when an existing folder or file is open to others, and are left as they are', async () => {
    fs.chmodSync(folder, 0o755);
    fs.chmodSync(file, 0o644);
    // The WAL and its index are gone after a clean stop; left behind (a crash), they keep their mode.
    fs.writeFileSync(`${file}-shm`, '');
    fs.chmodSync(`${file}-shm`, 0o640);
    const server = await ServerProcess.start({ DATABASE_URL: `sqlite:${file}`, BASE_URL: 'http://short.test' });
    try {
      const warnings = server.log
        .split('\n')
        .filter((line) => line.includes(WARNING))
        .map((line) => JSON.parse(line) as { level: number; path: string; mode: string });
      assert.deepEqual(
        warnings.map(({ level, path, mode }) => ({ level, path, mode })),
        [
          { level: 40, path: folder, mode: '755' },
          { level: 40, path: file, mode: '644' },
          { level: 40, path: `${file}-shm`, mode: '640' },
        ],
      );
      assert.equal(modeOf(file), '644');
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
