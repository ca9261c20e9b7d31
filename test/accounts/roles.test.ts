// The four roles, weakest first: what each may do, how two compare, and that storage holds the same four.
// What each role may do over HTTP is roles.http.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { atLeast, lowerRole, mayDo, ROLES } from '../../src/accounts/roles.js';
import { ROLE_NAMES } from '../../src/storage/stores/people.js';

describe('mayDo', () => {
  it('gives each role what the roles below it have, and more', () => {
    assert.deepEqual(
      ROLES.map((role) => [
        role,
        mayDo(role, 'links:write'),
        mayDo(role, 'domains:write'),
        mayDo(role, 'webhooks:write'),
        mayDo(role, 'members:write'),
        mayDo(role, 'workspace:write'),
      ]),
      [
        ['viewer', false, false, false, false, false],
        ['member', true, false, false, false, false],
        ['admin', true, true, true, true, false],
        ['owner', true, true, true, true, true],
      ],
    );
  });
});

describe('roles', () => {
  it('are the same four, weakest first, here and in storage (which compares them for invitations)', () => {
    assert.deepEqual(ROLES, ROLE_NAMES);
  });

  it('rank and cap: a token acts with the weaker of its role and its maker’s', () => {
    assert.equal(atLeast('owner', 'admin'), true);
    assert.equal(atLeast('admin', 'admin'), true);
    assert.equal(atLeast('member', 'admin'), false);
    assert.equal(lowerRole('owner', 'member'), 'member');
    assert.equal(lowerRole('viewer', 'admin'), 'viewer');
  });
});
