// The bulk rule (issue 25 item 6, decision 0017): an item that fails its field checks refuses
// the whole request (422, the field named by its path, nothing made); what can fail only at
// write time refuses that item alone, with the item's URL. Every 200 answer is checked against
// the rules the u301 SDK applies to it (restated below), which throw on a `url` that is not a URL.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BASE_HOST, type TestAccount, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

const UUID = /^[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i;

function parsesAsUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the u301 SDK (u301-shortener/u301-js, its `ShortenResult`) requires of a bulk answer,
 * restated: an array; each element either a success (`id` a UUID, `url` parsed by the URL
 * constructor, `slug`, `domain`, `shortLink`, `comment` strings, `isCustomSlug`, `isReused`
 * booleans) or an error (`url` parsed by the URL constructor, `error` a string, `message` a
 * string when present). Other keys are ignored. Returns the problems; none means it parses.
 */
function sdkResultProblems(body: unknown): string[] {
  if (!Array.isArray(body)) return ['not an array'];
  const problems: string[] = [];
  body.forEach((element, i) => {
    if (typeof element !== 'object' || element === null || Array.isArray(element)) {
      problems.push(`${i}: not an object`);
      return;
    }
    const item = element as Record<string, unknown>;
    const success: string[] = [];
    if (typeof item.id !== 'string' || !UUID.test(item.id)) success.push('id is not a UUID');
    if (!parsesAsUrl(item.url)) success.push('url is not a URL');
    for (const key of ['slug', 'domain', 'shortLink', 'comment']) if (typeof item[key] !== 'string') success.push(`${key} is not a string`);
    for (const key of ['isCustomSlug', 'isReused']) if (typeof item[key] !== 'boolean') success.push(`${key} is not a boolean`);
    const failure: string[] = [];
    if (!parsesAsUrl(item.url)) failure.push('url is not a URL');
    if (typeof item.error !== 'string') failure.push('error is not a string');
    if (item.message !== undefined && typeof item.message !== 'string') failure.push('message is not a string');
    if (success.length > 0 && failure.length > 0) problems.push(`${i}: as a success: ${success.join(', ')}; as an error: ${failure.join(', ')}`);
  });
  return problems;
}

// A blocked host, from BLOCKLIST_FILE as an operator sets it.
const blockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-bulk-'));
const BLOCKED_HOST = 'phish.bulk.example';
fs.writeFileSync(path.join(blockDir, 'blocklist.txt'), `${BLOCKED_HOST}\n`);
after(() => fs.rmSync(blockDir, { recursive: true, force: true }));

let counter = 0;
const freshUrl = (label = 'bulk') => `https://example.com/${label}/${Date.now()}-${++counter}`;

describe("the SDK's result rules, as restated here", () => {
  it('take a success and a per-item error with a URL, and refuse the error element Brief used to answer', () => {
    const success = {
      id: '1b4e28ba-2fa1-51d2-883f-0016d3cca427',
      url: 'https://example.com/a',
      slug: 'x4Tq9Zb',
      isCustomSlug: false,
      domain: 'short.test',
      isReused: false,
      shortLink: 'http://short.test/x4Tq9Zb',
      comment: '',
    };
    assert.deepEqual(sdkResultProblems([success, { url: 'https://example.com/b', error: 'E_VALIDATION_ERROR', message: 'taken' }]), []);
    assert.equal(sdkResultProblems([{ url: 'not a url', error: 'E_VALIDATION_ERROR', message: 'The url field must be a valid URL' }]).length, 1);
    assert.equal(sdkResultProblems([{ url: '', error: 'E_VALIDATION_ERROR' }]).length, 1);
    assert.equal(sdkResultProblems([{ ...success, id: 42 }]).length, 1);
    assert.equal(sdkResultProblems([{ ...success, comment: null }]).length, 1);
    assert.equal(sdkResultProblems({}).length, 1);
  });
});

for (const dialect of dialects) {
  describe(`bulk validation (${dialect})`, () => {
    const ctx = useTestApp(dialect, { BLOCKLIST_FILE: path.join(blockDir, 'blocklist.txt') });

    /** POST /v3/shorten/bulk; every 200 answer must parse under the SDK's rules. */
    async function bulk(items: unknown, account: TestAccount) {
      const res = await ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', payload: items as object, headers: account.headers });
      if (res.statusCode === 200) assert.deepEqual(sdkResultProblems(res.json()), [], res.body);
      return res;
    }
    const linksOf = async (account: TestAccount) =>
      (await ctx.t.app.inject({ url: '/v3/shorten/list?perPage=500', headers: account.headers })).json().links as Array<{ originalUrl: string }>;

    it('refuses the whole request when any item fails a field check, naming it by its path, and makes nothing', async () => {
      const account = await ctx.t.account();
      // [bad item, the field named, the rule]
      const cases: Array<[unknown, string, string]> = [
        [{ url: 'not a url' }, '1.url', 'url'],
        [{ url: 'ftp://example.com/file' }, '1.url', 'url'],
        [{ url: '' }, '1.url', 'required'],
        [{ slug: 'no-url' }, '1.url', 'required'],
        [{ url: 42 }, '1.url', 'string'],
        [{ url: 'https://user:pass@example.com/' }, '1.url', 'credentials'],
        [{ url: 'https://user@example.com/' }, '1.url', 'credentials'],
        [{ url: freshUrl(), slug: 'bad slug!' }, '1.slug', 'regex'],
        [{ url: freshUrl(), slug: 'docs' }, '1.slug', 'reserved'],
        [{ url: freshUrl(), slug: 'x'.repeat(65) }, '1.slug', 'maxLength'],
        [{ url: freshUrl(), password: 'short' }, '1.password', 'minLength'],
        [{ url: freshUrl(), expiredAt: 'tomorrow' }, '1.expiredAt', 'date'],
        [{ url: freshUrl(), expiredAt: '2001-01-01T00:00:00Z' }, '1.expiredAt', 'future'],
        [{ url: freshUrl(), expiredAt: '2027-02-30T00:00:00Z' }, '1.expiredAt', 'calendar'],
        [{ url: freshUrl(), expiredAt: '2099-06-31T12:00:00Z' }, '1.expiredAt', 'calendar'],
        [{ url: freshUrl(), expiredAt: '2099-01-01T24:00:00Z' }, '1.expiredAt', 'calendar'],
        [{ url: freshUrl(), comment: 'x'.repeat(1025) }, '1.comment', 'maxLength'],
        [{ url: freshUrl(), reuseExisting: 'yes' }, '1.reuseExisting', 'boolean'],
        [7, '1', 'object'],
        [null, '1', 'object'],
        [['https://example.com/'], '1', 'object'],
      ];
      for (const [bad, field, rule] of cases) {
        const good = freshUrl('good');
        const res = await bulk([{ url: good }, bad, { url: freshUrl('good') }], account);
        assert.equal(res.statusCode, 422, `${JSON.stringify(bad)}: ${res.body}`);
        const body = res.json();
        assert.equal(body.code, 'E_VALIDATION_ERROR');
        assert.equal(body.errors.length, 1, res.body);
        assert.deepEqual([body.errors[0].field, body.errors[0].rule], [field, rule], res.body);
        assert.equal(body.message, body.errors[0].message);
        assert.ok(body.message.includes(field === '1' ? 'Item 1' : `The ${field} `), body.message);
      }
      assert.deepEqual(await linksOf(account), [], 'no item of a refused request is made');
    });

    it('refuses a title that is not a string with a 422 naming it, not a 500 (a fuzz find)', async () => {
      const account = await ctx.t.account();
      const res = await bulk([{ url: freshUrl() }, { url: freshUrl(), title: 3.3e-244 }], account);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().errors[0].field, '1.title');
    });

    it('names every failed field of every item in one answer', async () => {
      const account = await ctx.t.account();
      const res = await bulk(
        [{ url: 'nope', password: '123' }, { url: freshUrl() }, { url: freshUrl(), slug: '../x', expiredAt: '2027-13-01T00:00:00Z' }],
        account,
      );
      assert.equal(res.statusCode, 422);
      assert.deepEqual(
        res.json().errors.map((e: { field: string }) => e.field),
        ['0.url', '0.password', '2.slug', '2.expiredAt'],
      );
      assert.equal(res.json().message, 'The 0.url field must be a valid URL');
      assert.deepEqual(await linksOf(account), []);
    });

    it('refuses only the item for what fails at write time, with the item’s URL, and makes the others', async () => {
      const account = await ctx.t.account();
      const other = await ctx.t.account();
      const theirDomain = await ctx.t.privateDomain(other.id);
      const taken = `taken-${Date.now()}-${++counter}`;
      const [theirs] = (await bulk([{ url: freshUrl(), slug: taken }], other)).json();
      const [a, b] = [freshUrl('made'), freshUrl('made')];
      const res = await bulk(
        [
          { url: a },
          { url: 'HTTPS://Example.COM/taken', slug: taken },
          { url: `https://${BLOCKED_HOST}/login` },
          { url: 'https://example.com/theirs', domain: theirDomain },
          { url: `http://${BASE_HOST}/loop` },
          { url: b, comment: 'kept' },
        ],
        account,
      );
      assert.equal(res.statusCode, 200, res.body);
      const items = res.json();
      assert.deepEqual(items.slice(1, 5), [
        { url: 'https://example.com/taken', error: 'E_VALIDATION_ERROR', message: 'The slug has already been taken' },
        { url: `https://${BLOCKED_HOST}/login`, error: 'E_VALIDATION_ERROR', message: 'The url field points to a blocked host' },
        { url: 'https://example.com/theirs', error: 'E_VALIDATION_ERROR', message: 'The selected domain is invalid' },
        { url: `http://${BASE_HOST}/loop`, error: 'E_VALIDATION_ERROR', message: 'The url field must not point to a short link domain' },
      ]);
      assert.deepEqual([items[0].url, items[5].url, items[5].comment], [a, b, 'kept']);
      assert.deepEqual((await linksOf(account)).map((link) => link.originalUrl).sort(), [a, b].sort(), 'the good items are made, only they');
      const visit = await ctx.t.app.inject({ url: `/${taken}`, headers: { host: BASE_HOST } });
      assert.equal(visit.headers.location, theirs.url, 'the slug still goes where its owner pointed it');
    });
  });
}
