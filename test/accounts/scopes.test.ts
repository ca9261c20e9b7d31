import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forbiddenFor, knownScopes, missingScopes, parseScopes, SCOPES, scopesHeld } from '../../src/accounts/scopes.js';
import type { BriefError } from '../../src/errors.js';

describe('scopes', () => {
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

  it('finds what a token lacks: none without a token, all it lacks for "every"', () => {
    assert.deepEqual(missingScopes(undefined, 'domains:write'), []);
    assert.deepEqual(missingScopes(['links:read'], 'none'), []);
    assert.deepEqual(missingScopes(['links:read'], 'links:read'), []);
    assert.deepEqual(missingScopes(['links:read'], 'links:write'), ['links:write']);
    assert.deepEqual(missingScopes(['links:read', 'links:write'], 'every'), ['analytics:read', 'domains:write']);
    assert.equal(forbiddenFor(['links:write'], 'links:write').code, 'E_FORBIDDEN');
    assert.match(forbiddenFor(['links:write'], 'links:write').message, /scope links:write/);
  });

  it('leaves out a stored scope this version does not know (a narrower token, never a wider one)', () => {
    assert.deepEqual(knownScopes(['links:read', 'members:write']), ['links:read']);
    assert.deepEqual(knownScopes(['members:write']), []);
    assert.equal(knownScopes(null), null);
  });
});
