// `node --import tsx bench/pipeline-micro.ts OTHER_CHECKOUT [iterations]`: the redirect pipeline's fast-path answer
// (RedirectPipeline.answerNow, a cached link) of this checkout against another's, in one process, alternating rounds —
// the code a plain redirect runs beyond node:http, timed without the network, so a loaded machine disturbs both alike.
// What it measured for decision 0015 is in docs/benchmarks-history.md.
import path from 'node:path';
import { loadConfig } from '../src/config.js';

const other = path.resolve(process.argv[2] ?? '.');
const iterations = Number(process.argv[3] ?? 200_000);
const ROUNDS = Number(process.argv[4] ?? 200);
const config = loadConfig({ BASE_URL: 'http://short.test', PUBLIC_DOMAINS: 'pub.test', LOG_LEVEL: 'silent' });
const target = { id: 1, url: 'https://example.com/some/long/page', blocked: false };
const quiet = { info: () => {}, warn: () => {} };

async function pipelineFrom(root: string) {
  const { RedirectPipeline } = await import(path.join(root, 'src/redirect/redirect-pipeline.ts'));
  const { DomainRedirects } = await import(path.join(root, 'src/redirect/domain-redirects.ts'));
  const { redirectAnswers } = await import(path.join(root, 'src/redirect/redirect-answer.ts'));
  const { LinkResolver } = await import(path.join(root, 'src/redirect/link-resolver.ts'));
  const domains = new DomainRedirects({ all: async () => [] }, quiet, {
    defaultHost: config.defaultDomain.hostname,
    configuredHosts: config.publicDomains.map((d) => d.hostname),
    strict: false,
  });
  await domains.refresh();
  // Each checkout's resolver over a cache that holds the link, as for a hot one.
  const resolver = new LinkResolver({ syncReads: undefined }, { get: () => target });
  return new RedirectPipeline(resolver, redirectAnswers(config), [], domains);
}

const request = { method: 'GET', url: '/abc1234', headers: { host: 'short.test' } };
function time(pipeline: { answerNow(r: unknown): unknown }): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) if (pipeline.answerNow(request) === undefined) throw new Error('no answer');
  return Number(process.hrtime.bigint() - start) / iterations;
}

const here = await pipelineFrom(path.resolve(import.meta.dirname, '..'));
const there = await pipelineFrom(other);
const rounds: { here: number; there: number }[] = [];
for (let round = 0; round < ROUNDS; round++)
  rounds.push(round % 2 === 0 ? { there: time(there), here: time(here) } : { here: time(here), there: time(there) });
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const h = median(rounds.slice(ROUNDS / 10).map((r) => r.here));
const t = median(rounds.slice(ROUNDS / 10).map((r) => r.there));
const least = (values: number[]) => Math.min(...values);
console.log(
  `ns per answerNow, fastest round: this checkout ${least(rounds.map((r) => r.here)).toFixed(1)}, other ${least(rounds.map((r) => r.there)).toFixed(1)}`,
);
console.log(
  `ns per answerNow, median of the rounds after the first tenth: this checkout ${h.toFixed(1)}, ${other} ${t.toFixed(1)}, ratio ${(h / t).toFixed(3)}`,
);
