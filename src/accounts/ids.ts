import { createHash } from 'node:crypto';

// The v3 interface names links, users and workspaces by UUID. Brief's rows have numeric ids;
// each gets a stable name-based UUID (RFC 9562 version 5) in a namespace of its kind, so no
// column, index or migration is needed and the same row always has the same UUID.
const LINKS = namespace('6f6e1f2a-3c1e-5b0e-9a57-4b7a2f1c8d01');
const USERS = namespace('0c3b5d8e-7a41-5f26-8e19-2d4c6b8a9f02');
const WORKSPACES = namespace('9a1d4e7c-2b58-5c63-b0f4-7e2a1c9d3b03');

function namespace(uuid: string): Buffer {
  return Buffer.from(uuid.replaceAll('-', ''), 'hex');
}

/**
 * Version 5: SHA-1 of the namespace's bytes and the name, version and variant bits set.
 * Written out (test/accounts/ids.test.ts checks it against the `uuid` package) because a bulk
 * create names 200 links at once and the package parses the namespace again on every call.
 */
function uuidV5(name: string, space: Buffer): string {
  const hash = createHash('sha1').update(space).update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const linkUuid = (linkId: number): string => uuidV5(String(linkId), LINKS);
/** An account is the user of the v3 interface… */
export const userUuid = (accountId: number): string => uuidV5(String(accountId), USERS);
/** …and has one workspace. */
export const workspaceUuid = (accountId: number): string => uuidV5(String(accountId), WORKSPACES);
