import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { missingScopes, SCOPES } from '../../src/accounts/scopes.js';
import type { BriefError } from '../../src/errors.js';
import { checkScopesForRole, knownScopes, parseScopes, scopesHeld } from '../../src/tokens/token-scopes.js';

describe("a token's scopes", () => {
  it('reads no scopes as every scope, and keeps the known order without duplicates', () => {
    assert.equal(parseScopes(undefined), null);
    assert.deepEqual(scopesHeld(null), SCOPES);
    assert.deepEqual(parseScopes(['analytics:read', 'links:read', 'analytics:read']), ['links:read', 'analytics:read']);
  });

  it('refuses an unknown scope and an empty list, naming the field', () => {
    assert.throws(
      () => parseScopes(['links:read', 'Links:Write'], 'scope'),
      (error: BriefError) => error.code === 'E_VALIDATION_ERROR' && error.errors?.[0]?.field === 'scope' && /Links:Write/.test(error.message),
    );
    assert.throws(() => parseScopes([]), /at least one scope/);
  });

  it('gives members:read to admin and owner tokens only, whatever the token was made with', () => {
    assert.deepEqual(scopesHeld(null, 'owner'), SCOPES);
    assert.deepEqual(scopesHeld(null, 'admin'), SCOPES);
    const belowAdmin = SCOPES.filter((scope) => scope !== 'members:read');
    assert.deepEqual(scopesHeld(null, 'member'), belowAdmin);
    assert.deepEqual(scopesHeld(null, 'viewer'), belowAdmin);
    assert.deepEqual(scopesHeld(['links:read', 'members:read'], 'member'), ['links:read']);
    // So a member's token never has every scope: it neither manages tokens nor people.
    assert.deepEqual(missingScopes(scopesHeld(null, 'member'), 'every'), ['members:read']);
    assert.throws(
      () => checkScopesForRole(['links:read', 'members:read'], 'member'),
      (error: BriefError) => error.code === 'E_VALIDATION_ERROR' && error.errors?.[0]?.field === 'scopes' && /admin role/.test(error.message),
    );
    checkScopesForRole(['members:read'], 'admin');
    checkScopesForRole(null, 'viewer');
  });

  it('leaves out a stored scope this version does not know (a narrower token, never a wider one)', () => {
    assert.deepEqual(knownScopes(['links:read', 'members:write']), ['links:read']);
    assert.deepEqual(knownScopes(['members:write']), []);
    assert.deepEqual(knownScopes(['members:read']), ['members:read']);
    assert.equal(knownScopes(null), null);
  });
});
