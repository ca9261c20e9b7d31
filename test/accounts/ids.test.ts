import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { v5 } from 'uuid';
import { linkUuid, userUuid, workspaceUuid } from '../../src/accounts/ids.js';

describe('v3 ids', () => {
  it('are the RFC 9562 version 5 UUIDs of the uuid package, as before', () => {
    const spaces = [
      [linkUuid, '6f6e1f2a-3c1e-5b0e-9a57-4b7a2f1c8d01'],
      [userUuid, '0c3b5d8e-7a41-5f26-8e19-2d4c6b8a9f02'],
      [workspaceUuid, '9a1d4e7c-2b58-5c63-b0f4-7e2a1c9d3b03'],
    ] as const;
    for (const [named, space] of spaces) {
      for (const id of [0, 1, 2, 9, 10, 99, 12_345, 1_000_000, 2 ** 31 - 1, Number.MAX_SAFE_INTEGER]) {
        assert.equal(named(id), v5(String(id), space), `${id} in ${space}`);
      }
    }
  });

  it('differ by kind for the same id', () => {
    assert.equal(new Set([linkUuid(7), userUuid(7), workspaceUuid(7)]).size, 3);
  });
});
