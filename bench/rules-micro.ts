// `node --import tsx bench/rules-micro.ts [iterations] [rounds]`: the CPU a rule of 5 mixed conditions costs a redirect
// beyond reading the request, in one process without the network: each evaluation makes the visitor of a request's
// real headers (as the redirect will, once per request) and runs the 5 compiled tests on it, all of them matching so
// that none is skipped; the first touch of each lazy field is in every evaluation. The agent is one of a few
// (remembered, as a busy link's are); a second figure gives an agent never seen before each time (parsed).
import { bundledCountries } from '../src/analytics/places.js';
import { compileCondition, compileConditions, conditionProblem } from '../src/redirect/rules/conditions.js';
import type { Condition } from '../src/redirect/rules/rule-types.js';
import { type Visitor, type VisitorInput, visitorOf } from '../src/visitors/visitor.js';

const iterations = Number(process.argv[2] ?? 200_000);
const ROUNDS = Number(process.argv[3] ?? 30);

const CONDITIONS: Condition[] = [
  { type: 'device', value: 'mobile' },
  { type: 'language', value: 'de' },
  { type: 'country', value: 'DE' },
  { type: 'query', key: 'utm_source', value: 'newsletter' },
  { type: 'hours', key: 'Europe/Berlin', value: '06-23' },
];
for (const condition of CONDITIONS) if (conditionProblem(condition)) throw new Error(`invalid: ${JSON.stringify(condition)}`);
const tests = CONDITIONS.map(compileCondition);
const rule = compileConditions(CONDITIONS);
const countries = bundledCountries();

const AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
];
// A Berlin daytime hour, so that the hours condition matches; the visitor's address is a German one in the bundled database.
const AT = Date.parse('2026-11-27T11:00:00Z');
const inputs: VisitorInput[] = AGENTS.map((userAgent) => ({
  userAgent,
  acceptLanguage: 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7',
  ip: '80.187.0.1',
  query: 'utm_source=newsletter&utm_medium=email&utm_campaign=winter',
  referrer: 'https://mail.example.com/',
  at: AT,
}));
for (const input of inputs) {
  const visitor = visitorOf(input, countries);
  if (!rule(visitor)) throw new Error(`no match for ${input.userAgent}: country ${visitor.country}`);
}

let sink = 0;
/**
 * CPU ns per evaluation of `test` on a new visitor of input(i) (no test: the visitor's making alone): the process's
 * CPU time, not the wall clock's, so that time the machine gives other work is not counted.
 */
function time(count: number, input: (i: number) => VisitorInput, test?: (visitor: Visitor) => boolean): number {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const visitor = visitorOf(input(i), countries);
    if (test === undefined || test(visitor)) sink++;
  }
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / count;
}

const known = (i: number) => inputs[i % inputs.length]!;
// Rounds alternate the rule and its parts, so that a loaded machine disturbs them alike.
const rounds: number[][] = [];
for (let round = 0; round < ROUNDS; round++)
  rounds.push([time(iterations, known, rule), time(iterations, known), ...tests.map((test) => time(iterations / 5, known, test))]);
// Each agent new: a version no one sends twice, so the agent is parsed each time.
const fresh: number[] = [];
let version = 0;
for (let round = 0; round < 5; round++) fresh.push(time(2_000, () => ({ ...inputs[0]!, userAgent: `${AGENTS[0]!} Brief/${version++}` }), rule));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const column = (index: number) => median(rounds.map((round) => round[index]!));
console.log(`5 mixed conditions (${CONDITIONS.map((c) => c.type).join(', ')}), all matching, a new visitor each time from real headers:`);
console.log(
  `  CPU ns per evaluation, known agents: ${column(0).toFixed(0)} (median of ${ROUNDS} rounds; fastest ${Math.min(...rounds.map((r) => r[0]!)).toFixed(0)})`,
);
console.log(`  of which the visitor's making and the loop: ${column(1).toFixed(0)}`);
console.log(`  each condition alone, first touch included: ${CONDITIONS.map((c, i) => `${c.type} ${column(i + 2).toFixed(0)}`).join(', ')}`);
console.log(`  CPU ns per evaluation, an agent never seen before: ${median(fresh).toFixed(0)}`);
if (sink === 0) console.log('(no evaluation matched)');
