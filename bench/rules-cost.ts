// `node --import tsx bench/rules-cost.ts [iterations] [rounds]`: what a link's redirect rules add to a redirect's CPU,
// through the pipeline's fast-path answer (RedirectPipeline.answerNow, a cached link) as a visit runs it: the same link
// without rules and with five rules of mixed conditions (device, language and country, query, weekday and hours in a
// zone, country) that a visitor from the United States on Chrome for Windows matches none of, so every rule is tried
// and the visitor's user agent, languages and country are all read. A new request each visit, as on the wire (so
// nothing of one visit's visitor is kept for the next); alternating rounds, CPU time per answer. Issue 39's budget:
// at most 3 µs more than the link without rules.
import { loadConfig } from '../src/config.js';
import { clientAddress } from '../src/net/client-address.js';
import { DomainRedirects } from '../src/redirect/domain-redirects.js';
import { LinkResolver } from '../src/redirect/link-resolver.js';
import { redirectAnswers } from '../src/redirect/redirect-answer.js';
import type { RedirectCache } from '../src/redirect/redirect-cache.js';
import { RedirectPipeline } from '../src/redirect/redirect-pipeline.js';
import { requestVisitors } from '../src/redirect/request-visitor.js';
import type { Rule } from '../src/redirect/rules/rule-types.js';
import { withSteps } from '../src/redirect/steps/steps.js';
import { visitorCountries } from '../src/services.js';
import type { LinkStore, LinkTarget } from '../src/storage/stores/links.js';

const iterations = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 40);
const config = loadConfig({ BASE_URL: 'http://short.test', PUBLIC_DOMAINS: 'pub.test', LOG_LEVEL: 'silent' });
const quiet = { info: () => {}, warn: () => {} };

// Every weekday but today's in Tokyo: the weekday condition is read and fails, whenever the bench runs.
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const today = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', weekday: 'short' }).format(new Date()).toLowerCase();
const otherDays = DAYS.filter((day) => day !== today).join(',');

const RULES: Rule[] = [
  { url: 'https://apps.apple.com/app/brief', conditions: [{ type: 'device', value: 'ios' }] },
  {
    url: 'https://example.de/seite',
    conditions: [
      { type: 'language', value: 'de' },
      { type: 'country', value: 'DE' },
    ],
  },
  { url: 'https://example.com/newsletter', conditions: [{ type: 'query', key: 'utm_source', value: 'newsletter' }] },
  {
    url: 'https://example.com/office-hours',
    conditions: [
      { type: 'weekday', key: 'Asia/Tokyo', value: otherDays },
      { type: 'hours', key: 'Asia/Tokyo', value: '00-24' },
    ],
  },
  { url: 'https://example.fr/page', conditions: [{ type: 'country', value: 'FR' }] },
];

async function pipelineFor(target: LinkTarget) {
  const domains = new DomainRedirects({ all: async () => [] }, quiet, {
    defaultHost: config.defaultDomain.hostname,
    configuredHosts: config.publicDomains.map((d) => d.hostname),
    strict: false,
  });
  await domains.refresh();
  const loaded = withSteps(target);
  // A resolver over a cache that holds the link, as for a hot one (the store is never asked).
  const resolver = new LinkResolver({ syncReads: undefined } as unknown as LinkStore, { get: () => loaded } as unknown as RedirectCache);
  // As services.ts builds it: the visitor's address as analytics reads it, and its country from the bundled database.
  const visitors = requestVisitors(clientAddress(config.trustProxy), visitorCountries);
  return new RedirectPipeline(resolver, redirectAnswers(config), [], domains, undefined, undefined, config.forwardQuery, visitors);
}

const plain = await pipelineFor({ id: 1, url: 'https://example.com/some/long/page', blocked: false });
const ruled = await pipelineFor({ id: 1, url: 'https://example.com/some/long/page', blocked: false, rules: RULES } as LinkTarget);

const headers = {
  host: 'short.test',
  'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'accept-language': 'en-US,en;q=0.9',
  referer: 'https://news.example/today',
};
const visit = () => ({ method: 'GET', url: '/abc1234', headers, socket: { remoteAddress: '8.8.8.8' } });

function cpuPerAnswer(pipeline: RedirectPipeline): number {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) if (pipeline.answerNow(visit() as never) === undefined) throw new Error('no answer');
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / iterations;
}

const location = (answer: { headers: readonly string[] } | undefined) => answer?.headers[answer.headers.indexOf('location') + 1];
if (location(ruled.answerNow(visit() as never)) !== 'https://example.com/some/long/page')
  throw new Error('a rule matched: the bench would not try them all');

const rounds: { plain: number; ruled: number }[] = [];
for (let round = 0; round < ROUNDS; round++)
  rounds.push(
    round % 2 === 0 ? { plain: cpuPerAnswer(plain), ruled: cpuPerAnswer(ruled) } : { ruled: cpuPerAnswer(ruled), plain: cpuPerAnswer(plain) },
  );
const kept = rounds.slice(ROUNDS / 10);
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p = median(kept.map((r) => r.plain));
const r = median(kept.map((r) => r.ruled));
console.log(
  `CPU ns per answerNow, median of ${kept.length} rounds: without rules ${p.toFixed(0)}, with 5 rules ${r.toFixed(0)}, added ${(r - p).toFixed(0)}`,
);
