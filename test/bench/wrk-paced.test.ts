// bench/wrk-paced.lua, run by wrk (harness/paced-load.ts) against a server of this test that notes what
// arrives when: the requests come at the rate asked, spread over the run rather than as fast as possible,
// to links' keys, and what it reports is what the server saw.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { runPacedLoad } from '../../harness/paced-load.js';

const arrivals: { at: number; path: string; host: string }[] = [];
const server = http.createServer((req, res) => {
  arrivals.push({ at: performance.now(), path: req.url ?? '', host: req.headers.host ?? '' });
  res.writeHead(301, { location: 'https://example.com/' }).end();
});
let port = 0;

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('400 visits a second for 2 s: about 800 sent, all answered, spread over the run, each to one of the links', {
  timeout: 30_000,
}, async () => {
  arrivals.length = 0;
  const links = 50;
  const result = await runPacedLoad({ port, host: 'brief.bench', links, distribution: 'link', rate: 400, seconds: 2, connections: 20 });
  // wrk stops on its next 100 ms check after the 2 s: the rate holds over the time it really ran.
  const due = 400 * result.seconds;
  assert.ok(result.seconds >= 2 && result.seconds < 2.5, `ran ${result.seconds} s`);
  assert.ok(result.sent >= due * 0.85 && result.sent <= due * 1.05, `sent ${result.sent} in ${result.seconds} s`);
  assert.equal(result.errors, 0);
  assert.ok(result.answered <= result.sent && result.answered >= result.sent - 20, `answered ${result.answered} of ${result.sent}`);
  assert.ok(Math.abs(arrivals.length - result.sent) <= 20, `the server saw ${arrivals.length}, wrk sent ${result.sent}`);
  assert.ok(result.generatorCpuShare >= 0 && result.generatorCpuShare < 1.5);
  // Paced, not a burst: the first and the second half of the run each got about half the requests.
  const start = arrivals[0]!.at;
  const firstHalf = arrivals.filter((a) => a.at - start < 1000).length;
  assert.ok(firstHalf >= arrivals.length * 0.35 && firstHalf <= arrivals.length * 0.65, `${firstHalf} of ${arrivals.length} in the first second`);
  // Keys of bench/link-keys.ts: 7 base62 characters, one per link.
  assert.ok(
    arrivals.every((a) => /^\/[0-9A-Za-z]{7}$/.test(a.path) && a.host === 'brief.bench'),
    'every request is GET /<key> with the Host asked',
  );
  const distinct = new Set(arrivals.map((a) => a.path)).size;
  assert.ok(distinct > links / 2 && distinct <= links, `random links of the ${links}, not one: ${distinct} distinct`);
});

test('the Zipf variant sends about 1 / H(1000) of the visits to its hottest link', { timeout: 30_000 }, async () => {
  arrivals.length = 0;
  const result = await runPacedLoad({ port, host: 'brief.bench', links: 1000, distribution: 'zipf', rate: 500, seconds: 1, connections: 20 });
  assert.ok(result.sent > 0);
  const counts = new Map<string, number>();
  for (const a of arrivals) counts.set(a.path, (counts.get(a.path) ?? 0) + 1);
  const [hottest, second] = [...counts.values()].sort((a, b) => b - a);
  // s = 1 over 1,000 ranks: rank 1 gets 1 / H(1000) ≈ 13% of the visits, rank 2 half that.
  const share = hottest! / arrivals.length;
  assert.ok(share > 0.07 && share < 0.2, `the hottest link got ${share}`);
  assert.ok(second! < hottest!, 'one link is the hottest');
});
