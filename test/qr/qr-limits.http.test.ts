// QR codes and the event loop (issue 37, item 5): each code counts its weight against RATE_LIMIT_QR
// (longer URLs and larger images weigh more), so a flood of large codes from one address is refused
// while a few hundred small ones a minute are not; codes are drawn on QR threads with a queue bound,
// and a full queue answers 503 with Retry-After in the error shape.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { QrService } from '../../src/qr/qr-service.js';
import { qrWeight } from '../../src/qr/qr-weight.js';
import { QR_REFUSAL_DELAY_MS } from '../../src/qr/routes.js';
import { qs, TEST_ENV, useTestApp } from '../support/app.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';

/** The issue's flood: a 1,900-character URL at 2,048 pixels, as SVG. */
const LONG_URL = `https://example.com/${'a'.repeat(1880)}`;
const LARGE = `/v2/qrcode?${qs({ url: LONG_URL, width: '2048', format: 'svg' })}`;
let counter = 0;
const small = () => `/v2/qrcode?${qs({ url: `https://example.com/s/${++counter}` })}`;

describe('the weight of a QR code (RATE_LIMIT_QR)', () => {
  it('is 1 for a short URL at the default width, and grows with the URL and the width', () => {
    assert.equal(loadConfig({}).rateLimitQr, 1200, 'the default');
    assert.equal(LONG_URL.length, 1900);
    assert.equal(qrWeight({ url: 'https://example.com/launch', width: 256 }), 1);
    assert.equal(qrWeight({ url: 'https://example.com/launch', width: 1023 }), 1);
    assert.equal(qrWeight({ url: 'https://example.com/launch', width: 1024 }), 2);
    assert.equal(qrWeight({ url: 'https://example.com/launch', width: 2048 }), 3);
    assert.equal(qrWeight({ url: `https://example.com/${'b'.repeat(108)}`, width: 256 }), 2, '128 characters');
    assert.equal(qrWeight({ url: LONG_URL, width: 256 }), 15);
    assert.equal(qrWeight({ url: LONG_URL, width: 2048 }), 17);
    // What the code encodes counts: the normalized URL, where each non-ASCII character is 6 or 9.
    assert.equal(qrWeight({ url: `https://example.com/${'é'.repeat(100)}`, width: 256 }), 1 + Math.floor(620 / 128));
    assert.equal(qrWeight({ url: 'not a url', width: 256 }), 1);
  });
});

for (const dialect of dialects) {
  describe(`RATE_LIMIT_QR weighs each code (${dialect})`, () => {
    const ctx = useTestApp(dialect, { RATE_LIMIT_QR: '1200' });

    it("refuses the issue's flood of large codes from one address after 1200 / 17 of them", async () => {
      const remoteAddress = '192.0.2.170';
      const statuses: number[] = [];
      for (let i = 0; i < 75; i++) {
        const started = performance.now();
        const res = await ctx.t.app.inject({ url: LARGE, remoteAddress });
        const ms = performance.now() - started;
        statuses.push(res.statusCode);
        assert.equal(res.headers['ratelimit-limit'], '1200');
        if (i === 0) {
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.headers['content-type'], 'image/svg+xml');
          assert.equal(res.headers['ratelimit-remaining'], String(1200 - 17));
        }
        if (res.statusCode === 429) {
          assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'message']);
          assert.equal(res.json().code, 'E_TOO_MANY_REQUESTS');
          const retryAfter = Number(res.headers['retry-after']);
          assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${res.headers['retry-after']}`);
          assert.equal(res.headers['ratelimit-remaining'], '0');
          assert.equal(res.headers['cache-control'], undefined, 'a refusal is not cacheable');
          // Held before it is sent, so a client that ignores Retry-After cannot make refusals a flood of their own.
          assert.ok(ms >= QR_REFUSAL_DELAY_MS - 10, `a refusal after ${ms} ms`);
        }
      }
      assert.deepEqual(statuses, [...Array(70).fill(200), ...Array(5).fill(429)]);
      // Another address has its own count.
      assert.equal((await ctx.t.app.inject({ url: LARGE, remoteAddress: '192.0.2.171' })).statusCode, 200);
    });

    it('lets a few hundred small codes a minute through from one address', async () => {
      const remoteAddress = '192.0.2.172';
      for (let i = 0; i < 300; i++) {
        const res = await ctx.t.app.inject({ url: small(), remoteAddress });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['ratelimit-remaining'], String(1200 - (i + 1)));
      }
    });

    it('counts a token by the token, as the other limits do', async () => {
      const account = await ctx.t.account();
      const first = await ctx.t.app.inject({ url: LARGE, remoteAddress: '192.0.2.170', headers: account.headers });
      assert.equal(first.statusCode, 200, 'the address is over its count, the token is not');
      assert.equal(first.headers['ratelimit-remaining'], String(1200 - 17));
    });

    it('documents the weighting and the 503 in the API document', async () => {
      const document = (await ctx.t.app.inject({ url: '/v2/openapi.json' })).json();
      const operation = document.paths['/v2/qrcode'].get;
      assert.match(operation.description, /RATE_LIMIT_QR/);
      assert.match(operation.description, /128 characters/);
      assert.ok(operation.responses['429'], '429 documented');
      assert.ok(operation.responses['503'].headers['Retry-After'], '503 documented with Retry-After');
    });
  });
}

describe('refusals of QR codes are held', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_READ: '2', RATE_LIMIT_QR: '0' });

  it("holds the read limit's 429 on this route too, and no other route's", async () => {
    const remoteAddress = '192.0.2.174';
    for (let i = 0; i < 2; i++) assert.equal((await ctx.t.app.inject({ url: small(), remoteAddress })).statusCode, 200);
    let started = performance.now();
    const refused = await ctx.t.app.inject({ url: small(), remoteAddress });
    assert.equal(refused.statusCode, 429);
    assert.ok(performance.now() - started >= QR_REFUSAL_DELAY_MS - 10);
    started = performance.now();
    const other = await ctx.t.app.inject({ url: '/v2/shorten-domains', remoteAddress });
    assert.equal(other.statusCode, 429);
    assert.ok(performance.now() - started < QR_REFUSAL_DELAY_MS, 'other routes answer their 429 at once');
  });
});

describe('RATE_LIMIT_QR=0', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_QR: '0' });

  it('does not limit QR codes (nor answer RateLimit headers for them)', async () => {
    for (let i = 0; i < 80; i++) {
      const res = await ctx.t.app.inject({ url: LARGE, remoteAddress: '192.0.2.173' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-limit'], undefined);
    }
  });
});

describe('QR threads with a full queue', () => {
  let db: TestDatabase;
  let app: ReturnType<typeof buildApp>;
  before(async () => {
    db = await openTestDatabase('sqlite');
    // One thread, one code waiting, nothing cached: the third code asked for at once has no place.
    app = buildApp(loadConfig(TEST_ENV), { database: db.database, qr: new QrService({ threads: 1, waiting: 1, cacheBytes: 0 }) });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.cleanup();
  });

  it('answers 503 with Retry-After in the error shape when every thread draws and the queue is full, then draws again', async () => {
    const urls = Array.from({ length: 8 }, (_, i) => `/v2/qrcode?${qs({ url: `${LONG_URL.slice(0, -2)}${i}`, width: '2048' })}`);
    const answers = await Promise.all(urls.map((url) => app.inject({ url })));
    const drawn = answers.filter((res) => res.statusCode === 200);
    const busy = answers.filter((res) => res.statusCode === 503);
    assert.equal(drawn.length + busy.length, 8, answers.map((res) => res.statusCode).join());
    assert.ok(drawn.length >= 2, 'the code drawn and the one that waited');
    assert.ok(busy.length >= 1, 'the rest refused at once');
    for (const res of busy) {
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { message: 'The service is temporarily unavailable, try again shortly', code: 'E_SERVICE_UNAVAILABLE' });
      assert.equal(res.headers['retry-after'], '1');
      assert.equal(res.headers.etag, undefined, 'a refusal carries no validator');
      assert.equal(res.headers['cache-control'], undefined, 'a refusal is not cacheable');
    }
    for (const res of drawn) assert.match(res.body, /^<svg /);
    // Once the queue has drained, the refused codes are drawn.
    for (const url of urls) assert.equal((await app.inject({ url })).statusCode, 200);
  });
});
