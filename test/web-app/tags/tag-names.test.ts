// The tag editor's rules (web/src/tags/tag-names.ts): what typed text adds to a link's tags, the suggestions for it,
// and what a form holds on submit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addNames, MAX_TAGS, sameNames, suggestions, tagsOfForm, typedNames } from '../../../web/src/tags/tag-names.js';

describe('typedNames', () => {
  it('splits at commas, trims, and drops empty pieces', () => {
    assert.deepEqual(typedNames(' launch , ,news,'), ['launch', 'news']);
    assert.deepEqual(typedNames('   '), []);
  });
});

describe('addNames', () => {
  it("adds typed names after the chips, in the workspace's spelling when it has the tag", () => {
    assert.deepEqual(addNames(['a'], 'LAUNCH, brand new', ['Launch', 'News']), { tags: ['a', 'Launch', 'brand new'] });
  });

  it('adds a name already there (in any case) only once, and typed twice only once', () => {
    assert.deepEqual(addNames(['Launch'], 'launch', []), { tags: ['Launch'] });
    assert.deepEqual(addNames([], 'x, X', []), { tags: ['x'] });
  });

  it('refuses a name over 50 characters (counted in characters, not UTF-16 units), adding none of the text', () => {
    const fifty = '😀'.repeat(50);
    assert.deepEqual(addNames([], fifty, []), { tags: [fifty] });
    const added = addNames(['a'], `ok, ${'x'.repeat(51)}`, []);
    assert.deepEqual(added.tags, ['a']);
    assert.match(added.problem ?? '', /at most 50 characters: “x{20}…” has 51/);
  });

  it(`refuses a tag past the ${MAX_TAGS}th, adding none of the text`, () => {
    const nineteen = Array.from({ length: 19 }, (_, i) => `t${i}`);
    assert.equal(addNames(nineteen, 'last', []).tags.length, 20);
    const refused = addNames(nineteen, 'one, two', []);
    assert.deepEqual(refused.tags, nineteen);
    assert.match(refused.problem ?? '', /at most 20 tags/);
  });
});

describe('suggestions', () => {
  const known = ['Archive', 'launch', 'Prelaunch', 'Newsletter', 'LAUNCH-2'];

  it('offers the names that start with the text first, then those that have it elsewhere, ignoring case', () => {
    assert.deepEqual(suggestions(known, 'LAU', []), ['launch', 'LAUNCH-2', 'Prelaunch']);
    assert.deepEqual(suggestions(known, ' ch ', []), ['Archive', 'launch', 'Prelaunch', 'LAUNCH-2']);
  });

  it('leaves out the tags already chosen (in any case), and offers all for empty text, at most 8', () => {
    assert.deepEqual(suggestions(known, 'launch', ['Launch']), ['LAUNCH-2', 'Prelaunch']);
    assert.deepEqual(suggestions(known, '', ['archive']), ['launch', 'Prelaunch', 'Newsletter', 'LAUNCH-2']);
    const many = Array.from({ length: 12 }, (_, i) => `tag${i}`);
    assert.equal(suggestions(many, 'tag', []).length, 8);
  });

  it('offers nothing when no tag has the text', () => {
    assert.deepEqual(suggestions(known, 'zzz', []), []);
  });
});

describe('tagsOfForm and sameNames', () => {
  const form = (chips: string, typed: string) => {
    const data = new FormData();
    data.set('tags', chips);
    data.set('tagsTyped', typed);
    return data;
  };

  it('reads the chips and adds what is still typed in the box', () => {
    assert.deepEqual(tagsOfForm(form('["a","b"]', ' c '), 'tags'), { tags: ['a', 'b', 'c'] });
    assert.deepEqual(tagsOfForm(form('[]', ''), 'tags'), { tags: [] });
    assert.deepEqual(tagsOfForm(new FormData(), 'tags'), { tags: [] });
  });

  it('says why a name still typed cannot be added', () => {
    assert.match(tagsOfForm(form('["a"]', 'y'.repeat(60)), 'tags').problem ?? '', /at most 50 characters/);
  });

  it('compares lists whatever their order and case', () => {
    assert.ok(sameNames(['a', 'B'], ['b', 'A']));
    assert.ok(!sameNames(['a'], ['a', 'b']));
    assert.ok(!sameNames(['a', 'c'], ['a', 'b']));
  });
});
