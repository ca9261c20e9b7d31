// `npm run build && node --import tsx bench/password-flood.ts [--seconds 4] [--rounds 3] [--server DIR]`: do wrong
// passwords slow the rest? One built server; redirects under load and the web app's script fetched one
// at a time, first quietly, then while 400 wrong passwords arrive on a protected link, evenly spread
// over the same time (the password limits off, as if from as many addresses as it takes: the
// flood this guards against was 400 in 36 s). Prints both and their ratios. `--server DIR`: another build (DIR/dist).
import { prepareDatabase } from '../harness/hostile/fuzz-server.js';
import {
  type Answer,
  countByStatus,
  floodAgent,
  MAX_STRAGGLE_MS,
  machine,
  measureWithScript,
  median,
  option,
  quietAndFlood,
  redirectRatio,
  request,
  runFloodBench,
  type ScriptMeasure,
  scriptPath,
} from './flood.js';

const seconds = Number(option('--seconds') ?? 4);
const roundCount = Number(option('--rounds') ?? 3);
const WRONG_PASSWORDS = 400;

const setup = {
  name: 'password-flood',
  prepare: async (env: Record<string, string>) => ((await prepareDatabase(env, ['flood'])) as [string])[0],
  env: { RATE_LIMIT_PASSWORD: '0', RATE_LIMIT_PASSWORD_ADDRESS: '0', RATE_LIMIT_TOKEN: '0' },
};

runFloodBench(setup, async (server, token) => {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const shortened = await request(server.port, 'GET', `/v2/shorten?url=${encodeURIComponent('https://example.com/plain')}`, { headers: auth });
  const plain = JSON.parse(shortened.body) as { code: string };
  const made = await request(server.port, 'POST', '/v3/shorten/bulk', {
    headers: auth,
    body: JSON.stringify([{ url: 'https://example.com/secret', password: 'right horse' }]),
  });
  const { slug } = JSON.parse(made.body)[0] as { slug: string };
  const script = await scriptPath(server.port);
  const measure = () => measureWithScript(server, `/${plain.code}`, script, seconds);

  /** 400 wrong passwords spread evenly over `seconds`, each on a connection of its own while it waits. */
  const via = floodAgent();
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const wrongPasswords = (round: number) => {
    const answers: Answer[] = [];
    const sent: Array<Promise<void>> = [];
    const started = Date.now();
    const timer = setInterval(() => {
      // As many as are due by now, so a late tick does not thin the flood.
      const due = Math.min(WRONG_PASSWORDS, Math.ceil(((Date.now() - started) / (seconds * 1000)) * WRONG_PASSWORDS));
      while (sent.length < due) {
        const body = `password=wrong-${round}-${sent.length}`;
        sent.push(
          request(server.port, 'POST', `/${slug}`, { headers: form, body, via }).then(
            (answer) => void answers.push(answer),
            () => {}, // a connection cut when the server stops: counted unanswered
          ),
        );
      }
      if (sent.length >= WRONG_PASSWORDS) clearInterval(timer);
    }, 5);
    return answers;
  };

  // Quiet, then under the flood, round after round; the flood's stragglers are waited for (at most
  // MAX_STRAGGLE_MS) before the next quiet measure, and those still unanswered are counted.
  const rounds: Array<{ quiet: ScriptMeasure; flood: ScriptMeasure; answers: Answer[] }> = [];
  for (let round = 1; round <= roundCount; round++) {
    const quiet = await measure();
    const answers = wrongPasswords(round);
    const flood = await measure();
    const until = Date.now() + MAX_STRAGGLE_MS;
    while (answers.length < WRONG_PASSWORDS && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    rounds.push({ quiet, flood, answers });
    console.error(`[password-flood] round ${round}: ${JSON.stringify({ quiet, flood, answered: answers.length })}`);
  }
  const all = rounds.flatMap((r) => r.answers);
  const result = {
    server: option('--server') ?? '.',
    seconds,
    rounds: roundCount,
    redirectRatio: redirectRatio(rounds),
    redirectP99Ms: quietAndFlood(rounds, (m) => m.redirectP99),
    scriptMedianMs: quietAndFlood(rounds, (m) => m.assetMedianMs),
    scriptP99Ms: quietAndFlood(rounds, (m) => m.assetP99Ms),
    wrongPasswords: {
      sent: WRONG_PASSWORDS * roundCount,
      byStatus: countByStatus(all),
      unanswered: WRONG_PASSWORDS * roundCount - all.length,
      answerMedianMs: Math.round(median(all.map((a) => a.ms))),
    },
    machine: machine(),
  };
  console.log(JSON.stringify(result, null, 2));
});
