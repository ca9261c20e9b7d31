// GET /metrics, the analytics figures: visits written, dropped when the buffer is full, and the
// time of each flush, read after real visits through the redirect, on both dialects.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASE_HOST, eventually, qs, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

/** The value of one series in a scrape, 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

for (const dialect of dialects) {
  describe(`GET /metrics: analytics (${dialect})`, () => {
    const ctx = useTestApp(dialect, { CLICK_FLUSH_MS: '20' });
    const scrape = async () => (await ctx.t.app.inject({ url: '/metrics', headers: { host: BASE_HOST } })).body;

    it('counts the visits written and times each flush that wrote some', async () => {
      const made = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/metrics-written' })}`, headers: { host: BASE_HOST } });
      const code: string = made.json().code;
      const before = await scrape();
      assert.match(before, /^# TYPE brief_analytics_visits_written_total counter$/m);
      assert.match(before, /^# TYPE brief_analytics_flush_duration_seconds histogram$/m);
      for (let i = 0; i < 5; i++) assert.equal((await ctx.t.app.inject({ url: `/${code}`, headers: { host: BASE_HOST } })).statusCode, 301);
      let after = before;
      const written = await eventually(async () => {
        after = await scrape();
        return sample(after, 'brief_analytics_visits_written_total') - sample(before, 'brief_analytics_visits_written_total') === 5;
      });
      assert.ok(written, `five visits written: ${sample(after, 'brief_analytics_visits_written_total')}`);
      const flushes = sample(after, 'brief_analytics_flush_duration_seconds_count') - sample(before, 'brief_analytics_flush_duration_seconds_count');
      assert.ok(flushes >= 1, 'at least one flush timed');
      assert.ok(sample(after, 'brief_analytics_flush_duration_seconds_sum') > 0);
      assert.equal(
        sample(after, 'brief_analytics_flush_duration_seconds_bucket{le="+Inf"}'),
        sample(after, 'brief_analytics_flush_duration_seconds_count'),
      );
      assert.equal(sample(after, 'brief_analytics_visits_buffered'), 0);
      assert.equal(sample(after, 'brief_analytics_visits_dropped_total'), 0);
      // A quiet server times no flush: only flushes with visits to write are observed.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const quiet = await scrape();
      assert.equal(sample(quiet, 'brief_analytics_flush_duration_seconds_count'), sample(after, 'brief_analytics_flush_duration_seconds_count'));
      // Each flush is observed once, however often the metrics are read.
      assert.equal(
        sample(await scrape(), 'brief_analytics_flush_duration_seconds_count'),
        sample(after, 'brief_analytics_flush_duration_seconds_count'),
      );
    });
  });
}

describe('GET /metrics: analytics visits dropped and written', () => {
  const ctx = useTestApp('sqlite', { ANALYTICS_BUFFER_MAX: '2', CLICK_FLUSH_MS: '600000' });

  it('counts what the full buffer turned away apart from what it holds, and writes nothing before a flush', async () => {
    const made = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.com/metrics-dropped' })}`, headers: { host: BASE_HOST } });
    const code: string = made.json().code;
    for (let i = 0; i < 5; i++) assert.equal((await ctx.t.app.inject({ url: `/${code}`, headers: { host: BASE_HOST } })).statusCode, 301);
    const text = (await ctx.t.app.inject({ url: '/metrics', headers: { host: BASE_HOST } })).body;
    assert.equal(sample(text, 'brief_analytics_visits_buffered'), 2);
    assert.equal(sample(text, 'brief_analytics_visits_dropped_total'), 3);
    assert.equal(sample(text, 'brief_analytics_visits_written_total'), 0);
    assert.equal(sample(text, 'brief_analytics_flush_duration_seconds_count'), 0);
  });
});
