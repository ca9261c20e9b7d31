// `npm run build && node --import tsx bench/password-flood.ts [--seconds 4] [--rounds 3] [--server DIR]`: do wrong
// passwords slow the rest? One built server; redirects under load and the web app's script fetched one
// at a time, first quietly, then while 400 wrong passwords arrive on a protected link, evenly spread
// over the same time (the password limits off, as if from as many addresses as it takes: the
// flood this guards against was 400 in 36 s). Prints both and their ratios. `--server DIR`: another build (DIR/dist).
import { prepareDatabase } from '../harness/hostile/fuzz-server.js';
import { type Answer, countByStatus, floodAgent, MAX_STRAGGLE_MS, machine, median, option, quietThenFlood, request, runFloodBench } from './flood.js';

const timing = { seconds: Number(option('--seconds') ?? 4), rounds: Number(option('--rounds') ?? 3) };
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

  /**
   * 400 wrong passwords spread evenly over the measure, each on a connection of its own while it waits; once
   * stopped, its stragglers are waited for (at most MAX_STRAGGLE_MS), and those still unanswered are counted.
   */
  const via = floodAgent();
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const wrongPasswords = (round: number) => {
    const answers: Answer[] = [];
    const sent: Array<Promise<void>> = [];
    const started = Date.now();
    const timer = setInterval(() => {
      // As many as are due by now, so a late tick does not thin the flood.
      const due = Math.min(WRONG_PASSWORDS, Math.ceil(((Date.now() - started) / (timing.seconds * 1000)) * WRONG_PASSWORDS));
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
    const stop = async () => {
      const until = Date.now() + MAX_STRAGGLE_MS;
      while (answers.length < WRONG_PASSWORDS && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    };
    return { answers, stop };
  };

  const { answers, figures } = await quietThenFlood('password-flood', server, `/${plain.code}`, timing, wrongPasswords);
  const sent = WRONG_PASSWORDS * timing.rounds;
  const result = {
    ...figures,
    wrongPasswords: {
      sent,
      byStatus: countByStatus(answers),
      unanswered: sent - answers.length,
      answerMedianMs: Math.round(median(answers.map((a) => a.ms))),
    },
    machine: machine(),
  };
  console.log(JSON.stringify(result, null, 2));
});
