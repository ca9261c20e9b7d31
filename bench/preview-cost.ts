// `node --import tsx bench/preview-cost.ts [iterations] [rounds]`: what a link's card for chat apps (decision 0041) adds
// to a person's redirect, through the pipeline's fast-path answer (RedirectPipeline.answerNow, a cached link): the same
// link without a card and with one, visited by a browser (the card step's one test of the user agent, and the Vary
// header), and, for scale, by a preview fetcher (the card page made). A new request each visit with a user agent made
// anew, as on the wire; alternating rounds, CPU time per answer.
import { loadConfig } from '../src/config.js';
import { DomainRedirects } from '../src/redirect/domain-redirects.js';
import { LinkResolver } from '../src/redirect/link-resolver.js';
import { redirectAnswers } from '../src/redirect/redirect-answer.js';
import type { RedirectCache } from '../src/redirect/redirect-cache.js';
import { RedirectPipeline } from '../src/redirect/redirect-pipeline.js';
import { withSteps } from '../src/redirect/steps/steps.js';
import type { LinkStore, LinkTarget } from '../src/storage/stores/links.js';

const iterations = Number(process.argv[2] ?? 50_000);
const ROUNDS = Number(process.argv[3] ?? 40);
const config = loadConfig({ BASE_URL: 'http://short.test', PUBLIC_DOMAINS: 'pub.test', LOG_LEVEL: 'silent' });
const quiet = { info: () => {}, warn: () => {} };
const CARD = { title: 'Spring sale', description: 'Until Sunday, everywhere.', image: 'https://img.example.com/sale.jpg' };

async function pipelineFor(target: LinkTarget) {
  const domains = new DomainRedirects({ all: async () => [] }, quiet, {
    defaultHost: config.defaultDomain.hostname,
    configuredHosts: config.publicDomains.map((d) => d.hostname),
    strict: false,
    urlPrefixes: config.publicDomains.map((d) => d.urlPrefix),
  });
  await domains.refresh();
  const loaded = withSteps(target, { origins: domains });
  // A resolver over a cache that holds the link, as for a hot one (the store is never asked).
  const resolver = new LinkResolver({ syncReads: undefined } as unknown as LinkStore, { get: () => loaded } as unknown as RedirectCache);
  return new RedirectPipeline(resolver, redirectAnswers(config), [], domains);
}

const url = 'https://example.com/some/long/page';
const plain = await pipelineFor({ id: 1, url, blocked: false });
const carded = await pipelineFor({ id: 1, url, blocked: false, preview: CARD });

const agents = {
  chrome: Buffer.from('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'),
  iphone: Buffer.from(
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ),
  slack: Buffer.from('Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'),
};
// The header made anew for each visit, as node:http makes it from the bytes of each request.
const visit = (agent: Buffer) => ({
  method: 'GET',
  url: '/abc1234',
  headers: { host: 'short.test', 'user-agent': agent.toString('latin1') },
});

function cpuPerAnswer(pipeline: RedirectPipeline, agent: Buffer): number {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) if (pipeline.answerNow(visit(agent) as never) === undefined) throw new Error('no answer');
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / iterations;
}

if (carded.answerNow(visit(agents.chrome) as never)?.status !== 301) throw new Error('a person must get the redirect');
if (carded.answerNow(visit(agents.slack) as never)?.status !== 200) throw new Error('a fetcher must get the card');

const arms = {
  'plain, Chrome': () => cpuPerAnswer(plain, agents.chrome),
  'card, Chrome': () => cpuPerAnswer(carded, agents.chrome),
  'plain, iPhone': () => cpuPerAnswer(plain, agents.iphone),
  'card, iPhone': () => cpuPerAnswer(carded, agents.iphone),
  'card, Slack (the page)': () => cpuPerAnswer(carded, agents.slack),
};
const names = Object.keys(arms) as (keyof typeof arms)[];
const samples = new Map<string, number[]>(names.map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? names : [...names].reverse();
  for (const name of order) samples.get(name)!.push(arms[name]());
}
const median = (values: number[]) => values.slice(ROUNDS / 10).sort((a, b) => a - b)[Math.floor((values.length - ROUNDS / 10) / 2)]!;
const figures = Object.fromEntries(names.map((name) => [name, median(samples.get(name)!)]));
for (const name of names) console.log(`${name}: ${figures[name]!.toFixed(0)} ns CPU per answerNow (median of ${ROUNDS - ROUNDS / 10} rounds)`);
console.log(
  `added by the card for a person: Chrome ${(figures['card, Chrome']! - figures['plain, Chrome']!).toFixed(0)} ns, iPhone ${(figures['card, iPhone']! - figures['plain, iPhone']!).toFixed(0)} ns`,
);
