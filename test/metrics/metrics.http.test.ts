// GET /metrics: Prometheus text on the default domain only, optionally behind METRICS_TOKEN; the
// default process metrics, redirects by status (both doors), links made, routed requests by template,
// link lookups by who answered, the link index, blocked refusals and database errors.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { BASE_HOST, PUBLIC_HOST, qs, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

const TOKEN = 'metrics-token-0123456789';

function get(port: number, path: string, host: string) {
  return new Promise<number>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The value of one series in a scrape, 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

for (const dialect of dialects) {
  describe(`GET /metrics (${dialect})`, () => {
    const ctx = useTestApp(dialect, { RATE_LIMIT_READ: '1' });
    let app: ReturnType<typeof buildApp>;
    let port: number;
    const scrape = async (host = BASE_HOST) => {
      const res = await app.inject({ url: '/metrics', headers: { host } });
      return res;
    };

    before(async () => {
      // A server of its own, listening: redirects through the fast path count too.
      app = buildApp(ctx.t.config, { database: ctx.db.database });
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as { port: number }).port;
    });
    after(() => app.close());

    it('answers Prometheus text with the default process metrics, not cached, unlimited', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await scrape();
        assert.equal(res.statusCode, 200, res.body);
        assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
        assert.equal(res.headers['cache-control'], 'no-store');
        for (const name of [
          'process_resident_memory_bytes',
          'nodejs_eventloop_lag_seconds',
          'nodejs_heap_size_used_bytes',
          'nodejs_gc_duration_seconds',
        ]) {
          assert.match(res.body, new RegExp(`^# TYPE ${name} `, 'm'), name);
        }
        for (const name of ['brief_redirects_total', 'brief_links_created_total', 'brief_http_requests_total']) {
          assert.match(res.body, new RegExp(`^# TYPE ${name} counter$`, 'm'), name);
        }
      }
    });

    it('answers on the default domain and on the instance’s address, never on another short domain’s name', async () => {
      for (const host of ['127.0.0.1:3000', '10.0.0.11', '[::1]:3000', 'LOCALHOST:3000']) assert.equal((await scrape(host)).statusCode, 200, host);
      for (const host of [PUBLIC_HOST, 'own.example', 'short.test.evil.example']) {
        const res = await scrape(host);
        assert.equal(res.statusCode, 404, host);
        assert.doesNotMatch(res.body, /brief_redirects_total/);
      }
    });

    it('counts links made (not those found again by dedupe), redirects by status on both doors, and requests by route template', async () => {
      const before = (await scrape()).body;
      const url = `https://example.com/metrics-${dialect}`;
      const made = await app.inject({ url: `/v2/shorten?${qs({ url })}`, headers: { host: BASE_HOST } });
      assert.equal(made.statusCode, 200, made.body);
      assert.equal((await app.inject({ url: `/v2/shorten?${qs({ url })}`, headers: { host: BASE_HOST } })).statusCode, 200);
      const code: string = made.json().code;
      // The fast path (a bare key), and the router (a query string), and an unknown key.
      for (let i = 0; i < 3; i++) assert.equal(await get(port, `/${code}`, BASE_HOST), 301);
      assert.equal(await get(port, `/${code}?via=router`, BASE_HOST), 301);
      assert.equal(await get(port, '/NoSuchKey1', BASE_HOST), 404);
      const after = (await scrape()).body;
      const delta = (series: string) => sample(after, series) - sample(before, series);
      assert.equal(delta('brief_links_created_total'), 1);
      assert.equal(delta('brief_redirects_total{status="301"}'), 4);
      assert.equal(delta('brief_redirects_total{status="404"}'), 1);
      assert.equal(delta('brief_http_requests_total{method="GET",route="/v2/shorten",status="200"}'), 2);
      // The query string always goes to the router; on PostgreSQL a cache miss does too (each counted once above).
      const routed = delta('brief_http_requests_total{method="GET",route="/:key",status="301"}');
      assert.ok(dialect === 'sqlite' ? routed === 1 : routed >= 1 && routed <= 4, `${routed}`);
      assert.equal(delta('brief_http_request_duration_seconds_count{method="GET",route="/v2/shorten"}'), 2);
      assert.ok(delta('brief_http_request_duration_seconds_sum{method="GET",route="/v2/shorten"}') > 0);
      // Redirects are not API calls: no duration series for them.
      assert.doesNotMatch(after, /brief_http_request_duration_seconds_count\{[^}]*route="\/:key"/);
      // Never a raw path as a label.
      assert.doesNotMatch(after, new RegExp(`route="[^"]*${code}`));
    });

    it('counts each link lookup once, by who answered it, and the link index’s size', async () => {
      const made = await app.inject({ url: `/v2/shorten?${qs({ url: `https://example.com/lookups-${dialect}` })}`, headers: { host: BASE_HOST } });
      const code: string = made.json().code;
      const before = (await scrape()).body;
      const lookups = (text: string) =>
        ['index', 'cache', 'cached_missing', 'store'].map((result) => sample(text, `brief_redirect_cache_lookups_total{result="${result}"}`));
      for (let i = 0; i < 3; i++) assert.equal(await get(port, `/${code}`, BASE_HOST), 301);
      for (let i = 0; i < 3; i++) assert.equal(await get(port, '/NoSuchKey2', BASE_HOST), 404);
      const after = (await scrape()).body;
      const [index, cached, missing, store] = lookups(after).map((n, i) => n - lookups(before)[i]!);
      // Six lookups, each counted once (on PostgreSQL a miss asks twice, the fast path and the router, and counts once).
      assert.equal(index! + cached! + missing! + store!, 6, `${index} ${cached} ${missing} ${store}`);
      // The first visit of the link and the first of the unknown key read the store; later ones are answered from memory.
      assert.ok(store! >= 2 && store! <= 4, `store ${store}`);
      assert.ok(index! + cached! >= 1, 'the link came from memory after its first visit');
      assert.ok(missing! >= 1, 'the unknown key came from memory after its second visit');
      const indexLinks = sample(after, 'brief_link_index_links');
      if (dialect === 'sqlite') assert.ok(indexLinks >= 1 && index! >= 1, `index holds ${indexLinks}`);
      else assert.equal(indexLinks, 0);
    });

    it('counts links refused and visits answered 410 because the destination host is blocked', async () => {
      const host = `blocked-metrics-${dialect}-${Date.now()}.example`;
      const made = await app.inject({ url: `/v2/shorten?${qs({ url: `https://${host}/a` })}`, headers: { host: BASE_HOST } });
      const code: string = made.json().code;
      const before = (await scrape()).body;
      await ctx.t.blocklist.add(host);
      const refused = async () =>
        (await app.inject({ url: `/v2/shorten?${qs({ url: `https://www.${host}/b` })}`, headers: { host: BASE_HOST } })).statusCode === 422;
      // The listening app reads the list every CHANGE_POLL_MS (10 ms here).
      for (let i = 0; !(await refused()); i++) {
        assert.ok(i < 200, 'the blocklist never reached the app');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const refusedCreates =
        sample((await scrape()).body, 'brief_blocked_refusals_total{action="create"}') -
        sample(before, 'brief_blocked_refusals_total{action="create"}');
      for (let i = 0; i < 2; i++) assert.equal(await get(port, `/${code}`, BASE_HOST), 410);
      const after = (await scrape()).body;
      assert.ok(refusedCreates >= 1);
      assert.equal(
        sample(after, 'brief_blocked_refusals_total{action="create"}') - sample(before, 'brief_blocked_refusals_total{action="create"}'),
        refusedCreates,
      );
      assert.equal(sample(after, 'brief_blocked_refusals_total{action="visit"}') - sample(before, 'brief_blocked_refusals_total{action="visit"}'), 2);
      await ctx.t.blocklist.remove(host);
    });

    it('counts requests refused by a rate limit, by the limit (RATE_LIMIT_READ is 1 a minute here)', async () => {
      const before = (await scrape()).body;
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await app.inject({ url: '/v2/shorten-domains', headers: { host: BASE_HOST } })).statusCode);
      assert.ok(statuses.includes(429), statuses.join());
      const after = (await scrape()).body;
      const refused = statuses.filter((status) => status === 429).length;
      assert.equal(sample(after, 'brief_rate_limited_total{limit="read"}') - sample(before, 'brief_rate_limited_total{limit="read"}'), refused);
    });
  });
}

describe('GET /metrics: the analytics buffer', () => {
  const ctx = useTestApp('sqlite', { ANALYTICS_BUFFER_MAX: '1', CLICK_FLUSH_MS: '600000' });

  it('shows the click events held and those dropped when the buffer is full', async () => {
    const made = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/buffered' })}`, headers: { host: BASE_HOST } });
    const code: string = made.json().code;
    for (let i = 0; i < 3; i++) assert.equal((await ctx.t.app.inject({ url: `/${code}`, headers: { host: BASE_HOST } })).statusCode, 301);
    const text = (await ctx.t.app.inject({ url: '/metrics', headers: { host: BASE_HOST } })).body;
    assert.equal(sample(text, 'brief_analytics_visits_buffered'), 1);
    assert.equal(sample(text, 'brief_analytics_visits_dropped_total'), 2);
  });
});

describe('GET /metrics: database errors', () => {
  const ctx = useTestApp('sqlite', { CLICK_FLUSH_MS: '20' });
  const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  it('counts requests answered 503 and click writes that failed while the database could not be reached', async () => {
    const owner = await ctx.t.account('metrics-db');
    const made = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/db-errors' })}`, headers: { host: BASE_HOST } });
    const code: string = made.json().code;
    const scrape = async () => (await ctx.t.app.inject({ url: '/metrics', headers: { host: BASE_HOST } })).body;
    const before = await scrape();
    const { accounts, clicks } = ctx.db.database;
    const tokenByHash = accounts.tokenByHash;
    const add = clicks.add;
    accounts.tokenByHash = async () => {
      throw unreachable();
    };
    clicks.add = async () => {
      throw unreachable();
    };
    try {
      const res = await ctx.t.app.inject({ url: '/v2/shorten-domains', headers: { host: BASE_HOST, ...owner.headers } });
      assert.equal(res.statusCode, 503, res.body);
      assert.equal((await ctx.t.app.inject({ url: `/${code}`, headers: { host: BASE_HOST } })).statusCode, 301);
      let after = before;
      for (let i = 0; sample(after, 'brief_database_errors_total{during="click_write"}') === 0; i++) {
        assert.ok(i < 100, 'no failed click write was counted');
        await new Promise((resolve) => setTimeout(resolve, 20));
        after = await scrape();
      }
      assert.equal(
        sample(after, 'brief_database_errors_total{during="request"}') - sample(before, 'brief_database_errors_total{during="request"}'),
        1,
      );
    } finally {
      accounts.tokenByHash = tokenByHash;
      clicks.add = add;
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const ctx = useTestApp('sqlite', { METRICS_TOKEN: TOKEN });

  it('answers 401 in the error shape without the token or with another, 200 with it', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN, `Bearer ${TOKEN}x`]) {
      const res = await ctx.t.app.inject({ url: '/metrics', headers: { host: BASE_HOST, ...(authorization ? { authorization } : {}) } });
      assert.equal(res.statusCode, 401, `${authorization}: ${res.body}`);
      assert.equal(res.json().code, 'E_UNAUTHORIZED_ACCESS');
      assert.equal(typeof res.json().message, 'string');
    }
    const res = await ctx.t.app.inject({ url: '/metrics', headers: { host: BASE_HOST, authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /brief_links_created_total/);
  });
});
