// Password attempts over the bound on checks (issue 31, item 3): while too many checks wait, the
// form answers 503 with a page and Retry-After, at once and without a hash; redirects go on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccountService } from '../../src/accounts/account-service.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { PasswordPool } from '../../src/passwords/password-pool.js';
import { TokenService } from '../../src/tokens/token-service.js';
import { BASE_HOST, eventually, passwordAttempt, passwordLink, qs, TEST_ENV, uniqueName } from '../support/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { asAnswered, heldChecks } from '../support/held-checks.js';

describe('password checks over the bound', () => {
  let db: TestDatabase;
  let app: ReturnType<typeof buildApp>;
  // Each check is held until the test releases it: what runs at once is counted, not timed.
  const { run, counts, held } = heldChecks('right horse');
  before(async () => {
    db = await openTestDatabase('sqlite');
    app = buildApp(loadConfig(TEST_ENV), { database: db.database, passwords: new PasswordPool({ run }) });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await db?.cleanup();
  });

  it('runs 2 checks at once, lets 16 wait, and answers the others 503 with a page, Retry-After and no hash', async () => {
    const accounts = new AccountService(db.database.accounts);
    const { token } = await new TokenService(db.database.accounts, accounts).createToken((await accounts.create(uniqueName('checks'))).name);
    const headers = { authorization: `Bearer ${token}` };
    const slug = await passwordLink(app, headers, 'https://example.com/protected');
    const plain = (await app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/plain' })}`, headers })).json();
    const { answers, all } = asAnswered(
      Array.from({ length: 20 }, (_, i) => passwordAttempt(app, slug, i === 0 ? 'right horse' : 'wrong', `192.0.2.${i + 1}`)),
    );
    // Two running, sixteen waiting: the last two are answered busy while the others are held.
    assert.ok(await eventually(async () => answers.length === 2 && held.length === 2));
    for (const busy of answers) {
      assert.equal(busy.statusCode, 503);
      assert.equal(busy.headers['retry-after'], '1');
      assert.equal(busy.headers['cache-control'], 'no-store');
      assert.match(String(busy.headers['content-type']), /^text\/html/);
      assert.match(String(busy.headers['content-security-policy']), /default-src 'none'/);
      assert.match(busy.body, /Too many passwords are being checked right now/);
    }
    // Redirects do not wait on the checks.
    const redirect = await app.inject({ url: `/${plain.code}`, headers: { host: BASE_HOST } });
    assert.equal(redirect.statusCode, 301);
    while (held.length > 0 || answers.length < 20) {
      held.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const statuses = (await all).map((res) => res.statusCode);
    assert.equal(counts.most, 2);
    assert.equal(counts.ran, 18);
    assert.deepEqual(statuses, [303, ...Array<number>(17).fill(403), 503, 503]);
    const doc = (await app.inject({ url: '/v2/openapi.json' })).json();
    assert.ok(doc.paths['/{key}'].post.responses['503'].content['text/html']);
  });
});
