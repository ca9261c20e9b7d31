import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forbiddenFor, missingScopes } from '../../src/accounts/scopes.js';

describe('scopes a call needs', () => {
  it('finds what a token lacks: none without a token, all it lacks for "every"', () => {
    assert.deepEqual(missingScopes(undefined, 'domains:write'), []);
    assert.deepEqual(missingScopes(['links:read'], 'none'), []);
    assert.deepEqual(missingScopes(['links:read'], 'links:read'), []);
    assert.deepEqual(missingScopes(['links:read'], 'links:write'), ['links:write']);
    assert.deepEqual(missingScopes(['links:read', 'links:write'], 'every'), ['analytics:read', 'domains:write', 'members:read', 'webhooks:write']);
    assert.equal(forbiddenFor(['links:write'], 'links:write').code, 'E_FORBIDDEN');
    assert.match(forbiddenFor(['links:write'], 'links:write').message, /scope links:write/);
  });
});
