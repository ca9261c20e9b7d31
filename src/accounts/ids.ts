import { v5 as uuidv5 } from 'uuid';

// The v3 interface names links, users and workspaces by UUID. Brief's rows have numeric ids;
// each gets a stable name-based UUID (RFC 9562 version 5) in a namespace of its kind, so no
// column, index or migration is needed and the same row always has the same UUID.
const LINKS = '6f6e1f2a-3c1e-5b0e-9a57-4b7a2f1c8d01';
const USERS = '0c3b5d8e-7a41-5f26-8e19-2d4c6b8a9f02';
const WORKSPACES = '9a1d4e7c-2b58-5c63-b0f4-7e2a1c9d3b03';

export const linkUuid = (linkId: number): string => uuidv5(String(linkId), LINKS);
/** An account is the user of the v3 interface… */
export const userUuid = (accountId: number): string => uuidv5(String(accountId), USERS);
/** …and has one workspace. */
export const workspaceUuid = (accountId: number): string => uuidv5(String(accountId), WORKSPACES);
