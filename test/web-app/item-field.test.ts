// The shorten form's link made by a one-item bulk call: the API's problem shown under the form's field it is about.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { itemField } from '../../web/src/item-field.js';

describe('itemField (the shorten form with a password, an expiry or tags)', () => {
  it('names the field of the first item of a request refused as a whole', () => {
    assert.equal(itemField('0.password'), 'password');
    assert.equal(itemField('[0].expiredAt'), 'expiredAt');
    assert.equal(itemField('/0/url'), 'url');
    assert.equal(itemField('slug'), 'slug');
    assert.equal(itemField('0.tags'), 'tags');
    assert.equal(itemField('/0/tags/3'), 'tags');
  });

  it("names the field of an item refused on its own from the API's message", () => {
    assert.equal(itemField('The password field must be at least 6 characters'), 'password');
    assert.equal(itemField('The expiredAt field must be a date in the future'), 'expiredAt');
    assert.equal(itemField('The slug has already been taken'), 'slug');
    assert.equal(itemField('The selected domain is invalid'), 'domain');
    assert.equal(itemField('The tags field names the tag "a" twice (tag names ignore case)'), 'tags');
  });

  it('names none for anything else (shown above the button)', () => {
    assert.equal(itemField('Too many requests'), undefined);
    assert.equal(itemField('1.password'), undefined);
    assert.equal(itemField('The urls field'), undefined);
  });
});
