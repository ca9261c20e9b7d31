// A link's redirect rules through the v3 API (issue 39, decision 0039): made with bulk, read with GET and in the
// list, replaced and removed with PATCH; every bad rule a 422 naming the rule and condition by their path (prefixed
// by the item in a bulk request); a rule's target refused exactly as a link's url is.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BASE_HOST, type TestAccount, type TestApp, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

const blockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-rules-'));
const BLOCKED_HOST = 'phish.rules.example';
fs.writeFileSync(path.join(blockDir, 'blocklist.txt'), `${BLOCKED_HOST}\n`);
after(() => fs.rmSync(blockDir, { recursive: true, force: true }));

let counter = 0;
const fresh = (label = 'rules') => `https://example.com/${label}/${Date.now()}-${++counter}`;

const RULES = [
  { url: 'https://example.com/news', conditions: [{ type: 'query', key: 'utm_source', value: 'news' }] },
  { url: 'https://example.com/ref', conditions: [{ type: 'query-any', key: 'ref' }] },
];

type Rule = { url?: string; split?: unknown; conditions?: unknown[] };

async function bulk(t: TestApp, account: TestAccount, items: unknown[]) {
  return t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload: items });
}

async function made(t: TestApp, account: TestAccount, rules: Rule[] = RULES, url = fresh()) {
  const res = await bulk(t, account, [{ url, rules }]);
  assert.equal(res.statusCode, 200, res.body);
  const [item] = res.json();
  assert.ok(item.slug, res.body);
  return item as { slug: string; domain: string; url: string };
}

const one = (t: TestApp, account: TestAccount, slug: string) =>
  t.app.inject({ url: `/v3/shorten/${encodeURIComponent(BASE_HOST)}/${slug}`, headers: account.headers });
const patch = (t: TestApp, account: TestAccount, slug: string, payload: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: `/v3/shorten/${encodeURIComponent(BASE_HOST)}/${slug}`,
    headers: account.headers,
    payload: payload as object,
  });

/** The fields a 422 names, in order. */
function fieldsOf(res: { statusCode: number; body: string; json(): any }): string[] {
  assert.equal(res.statusCode, 422, res.body);
  const body = res.json();
  assert.equal(body.code, 'E_VALIDATION_ERROR');
  assert.equal(body.message, body.errors[0].message);
  return body.errors.map((error: { field: string }) => error.field);
}

for (const dialect of dialects) {
  describe(`v3 link rules (${dialect})`, () => {
    const ctx = useTestApp(dialect, { BLOCKLIST_FILE: path.join(blockDir, 'blocklist.txt') });

    it('makes a link with rules, reads them back in order, lists them, and answers [] for a link without', async () => {
      const account = await ctx.t.account('rules');
      const link = await made(ctx.t, account);
      const got = await one(ctx.t, account, link.slug);
      assert.equal(got.statusCode, 200, got.body);
      assert.deepEqual(got.json().rules, RULES);
      const plain = await bulk(ctx.t, account, [{ url: fresh() }]);
      const plainGot = await one(ctx.t, account, plain.json()[0].slug);
      assert.deepEqual(plainGot.json().rules, []);
      const list = await ctx.t.app.inject({ url: '/v3/shorten/list?perPage=10', headers: account.headers });
      const bySlug = new Map(list.json().links.map((l: { slug: string; rules: unknown }) => [l.slug, l.rules]));
      assert.deepEqual(bySlug.get(link.slug), RULES);
      assert.deepEqual(bySlug.get(plain.json()[0].slug), []);
    });

    it('normalizes a rule’s target as a link’s url, and never reuses a link with rules for another request', async () => {
      const account = await ctx.t.account('rules');
      const url = fresh();
      const link = await made(ctx.t, account, [{ url: 'HTTPS://Example.COM/News', conditions: [{ type: 'query-any', key: 'x' }] }], url);
      assert.equal((await one(ctx.t, account, link.slug)).json().rules[0].url, 'https://example.com/News');
      const again = await bulk(ctx.t, account, [{ url, reuseExisting: true }]);
      assert.notEqual(again.json()[0].slug, link.slug, 'a link with rules is a link of its own');
    });

    it('replaces the rules with PATCH, removes them with [], and leaves them when rules is absent', async () => {
      const account = await ctx.t.account('rules');
      const link = await made(ctx.t, account);
      const swapped = await patch(ctx.t, account, link.slug, { rules: [RULES[1]] });
      assert.equal(swapped.statusCode, 200, swapped.body);
      assert.deepEqual(swapped.json().rules, [RULES[1]]);
      const other = await patch(ctx.t, account, link.slug, { comment: 'kept' });
      assert.deepEqual(other.json().rules, [RULES[1]]);
      const removed = await patch(ctx.t, account, link.slug, { rules: [] });
      assert.deepEqual(removed.json().rules, []);
      assert.deepEqual((await one(ctx.t, account, link.slug)).json().rules, []);
    });

    it('names each bad rule and condition by its path in a PATCH, and changes nothing', async () => {
      const account = await ctx.t.account('rules');
      const link = await made(ctx.t, account);
      const cases: Array<[Rule[], string[]]> = [
        [[RULES[0]!, RULES[1]!, { url: 'https://example.com/x', conditions: [{ type: 'query', key: 'a' }] }], ['rules.2.conditions.0.value']],
        [[{ url: 'https://example.com/x', conditions: [{ type: 'nonsense', key: 'a' }] }], ['rules.0.conditions.0.type']],
        [[{ url: 'https://example.com/x', conditions: [{ key: 'a' }] }], ['rules.0.conditions.0.type']],
        [[{ url: 'https://example.com/x', conditions: [{ type: 'query-any' }] }], ['rules.0.conditions.0.key']],
        [[{ url: 'https://example.com/x', conditions: [] }], ['rules.0.conditions']],
        [[{ url: 'https://example.com/x' }], ['rules.0.conditions']],
        [[{ conditions: [{ type: 'query-any', key: 'a' }] }], ['rules.0.url']],
        [[{ url: 'javascript:alert(1)', conditions: [{ type: 'query-any', key: 'a' }] }], ['rules.0.url']],
        [[{ url: 'https://user:pw@example.com/', conditions: [{ type: 'query-any', key: 'a' }] }], ['rules.0.url']],
        [
          [
            { url: 'https://example.com/x', conditions: Array.from({ length: 11 }, () => ({ type: 'query-any', key: 'a' })) },
            { url: 'ftp://example.com/', conditions: [{ type: 'query', key: 'k' }] },
          ],
          ['rules.0.conditions', 'rules.1.url', 'rules.1.conditions.0.value'],
        ],
        [Array.from({ length: 21 }, () => RULES[0]!), ['rules']],
      ];
      for (const [rules, fields] of cases) {
        assert.deepEqual(fieldsOf(await patch(ctx.t, account, link.slug, { rules })), fields, JSON.stringify(rules).slice(0, 200));
      }
      assert.deepEqual((await one(ctx.t, account, link.slug)).json().rules, RULES, 'nothing changed');
    });

    it('takes a split of 2 to 10 targets whose whole-number weights sum to 100, and names what is wrong with one', async () => {
      const account = await ctx.t.account('rules');
      const when = [{ type: 'query-any', key: 'ab' }];
      const split = [
        { url: 'https://example.com/a', weight: 70 },
        { url: 'https://example.com/b', weight: 30 },
      ];
      const link = await made(ctx.t, account, [{ split, conditions: when }]);
      assert.deepEqual((await one(ctx.t, account, link.slug)).json().rules, [{ split, conditions: when }]);
      const cases: Array<[Rule, string[]]> = [
        [{ split: [{ url: 'https://example.com/a', weight: 100 }], conditions: when }, ['rules.0.split']],
        [{ split: split.map((t) => ({ ...t, weight: 40 })), conditions: when }, ['rules.0.split']],
        [
          { split: Array.from({ length: 11 }, () => ({ url: 'https://example.com/a', weight: 9 })), conditions: when },
          ['rules.0.split', 'rules.0.split'],
        ],
        [
          {
            split: [
              { url: 'https://example.com/a', weight: 0 },
              { url: 'https://example.com/b', weight: 100 },
            ],
            conditions: when,
          },
          ['rules.0.split.0.weight'],
        ],
        [
          {
            split: [
              { url: 'javascript:alert(1)', weight: 50 },
              { url: 'https://example.com/b', weight: 50 },
            ],
            conditions: when,
          },
          ['rules.0.split.0.url'],
        ],
        [{ url: 'https://example.com/c', split, conditions: when }, ['rules.0.url']],
      ];
      for (const [rule, fields] of cases) {
        assert.deepEqual(fieldsOf(await patch(ctx.t, account, link.slug, { rules: [rule] })), fields, JSON.stringify(rule).slice(0, 200));
      }
      const res = await bulk(ctx.t, account, [{ url: fresh() }, { url: fresh(), rules: [cases[1]![0]] }]);
      assert.deepEqual(fieldsOf(res), ['1.rules.0.split']);
      // A split's target is refused as a link's url is: here, on a blocked host.
      const blocked = { split: [split[0], { url: `https://${BLOCKED_HOST}/b`, weight: 30 }], conditions: when };
      assert.deepEqual(fieldsOf(await patch(ctx.t, account, link.slug, { rules: [blocked] })), ['rules.0.split.1.url']);
      assert.deepEqual((await one(ctx.t, account, link.slug)).json().rules, [{ split, conditions: when }], 'nothing changed');
    });

    it('names bad rules in a bulk request by item, and makes nothing', async () => {
      const account = await ctx.t.account('rules');
      const before = (await ctx.t.app.inject({ url: '/v3/shorten/list', headers: account.headers })).json().metadata.total;
      const res = await bulk(ctx.t, account, [
        { url: fresh(), rules: RULES },
        { url: fresh(), rules: [RULES[0], RULES[1], { url: 'https://example.com/x', conditions: [{ type: 'query', key: 'a' }] }] },
        { url: fresh(), rules: [{ url: 'https://example.com/x', conditions: [{ type: 'nonsense' }] }] },
      ]);
      assert.deepEqual(fieldsOf(res), ['1.rules.2.conditions.0.value', '2.rules.0.conditions.0.type']);
      assert.match(res.json().errors[0].message, /^The 1\.rules\.2\.conditions\.0\.value field/);
      const after = (await ctx.t.app.inject({ url: '/v3/shorten/list', headers: account.headers })).json().metadata.total;
      assert.equal(after, before);
    });

    it('refuses a rule’s target on a blocked host or on a short domain, as a link’s url', async () => {
      const account = await ctx.t.account('rules');
      const link = await made(ctx.t, account);
      const own = await ctx.t.privateDomain(account.id, 'ruled');
      const targets = [`https://${BLOCKED_HOST}/login`, `https://sub.${BLOCKED_HOST}/`, `http://${BASE_HOST}/abc`, `https://${own}/x`];
      for (const url of targets) {
        const rules = [RULES[0], { url, conditions: [{ type: 'query-any', key: 'a' }] }];
        const res = await patch(ctx.t, account, link.slug, { rules });
        assert.deepEqual(fieldsOf(res), ['rules.1.url'], url);
        // In a bulk request, as a link's url on a blocked host or a short domain: that item alone is refused.
        const items = await bulk(ctx.t, account, [{ url: fresh(), rules }, { url: fresh() }]);
        assert.equal(items.statusCode, 200, items.body);
        const [refused, madeToo] = items.json();
        assert.equal(refused.error, 'E_VALIDATION_ERROR', url);
        assert.match(refused.message, /^The rules\.1\.url field/, url);
        assert.ok(madeToo.slug, 'the other item is made');
      }
      assert.deepEqual((await one(ctx.t, account, link.slug)).json().rules, RULES, 'nothing changed');
    });
  });
}
