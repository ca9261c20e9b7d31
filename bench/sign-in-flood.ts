// `npm run build && node --import tsx bench/sign-in-flood.ts [--seconds 4] [--rounds 3] [--server DIR]`: do
// wrong sign-in passwords slow the redirects? (issue 37, item 4: 24 connections from 12 addresses took
// redirects from 3,748/s to 667/s.) One built server; redirects under load and the web app's script fetched
// one at a time, first quietly, then while 24 connections send wrong passwords to POST /auth/sign-in as fast
// as they are answered, from 12 addresses (X-Forwarded-For, TRUST_PROXY=loopback), side by side in each
// round. The sign-in limits are off, so that every attempt asks for a hash (the worst case: as from as many
// addresses and emails as it takes); `--with-limits` keeps them at their defaults. Prints both and their
// ratios. `--server DIR`: another build (DIR/dist).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  type Answer,
  countByStatus,
  DOMAIN,
  flag,
  floodAgent,
  MAX_STRAGGLE_MS,
  machine,
  median,
  option,
  quietThenFlood,
  request,
  runFloodBench,
} from './flood.js';

const timing = { seconds: Number(option('--seconds') ?? 4), rounds: Number(option('--rounds') ?? 3) };
const FLOOD_CONNECTIONS = 24;
const FLOOD_ADDRESSES = 12;
const EMAIL = 'ada@brief.bench';

/**
 * A workspace with a person who signs in with a password, and a token (for the redirect's link): made by the
 * CLI of the build under test, so that its own migrations make the database.
 */
function prepare(env: Record<string, string>): string {
  const main = path.join(path.resolve(option('--server') ?? '.'), 'dist/main.js');
  const run = (args: string[], input?: string) =>
    execFileSync(process.execPath, [main, ...args], { env: { ...process.env, ...env, LOG_LEVEL: 'warn' }, input, encoding: 'utf8' });
  run(['user', 'create', EMAIL, '--workspace', 'flood', '--password-stdin'], 'the right password');
  return run(['token', 'create', 'flood']).trim().split('\n').at(-1)!;
}

const setup = {
  name: 'sign-in-flood',
  prepare,
  // --with-limits: the sign-in limits at their defaults (most attempts are then refused with 429, no hash).
  env: {
    ...(flag('--with-limits') ? {} : { RATE_LIMIT_SIGN_IN: '0', RATE_LIMIT_SIGN_IN_ADDRESS: '0' }),
    RATE_LIMIT_TOKEN: '0',
    TRUST_PROXY: 'loopback',
  },
};

runFloodBench(setup, async (server, token) => {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const shortened = await request(server.port, 'GET', `/v2/shorten?url=${encodeURIComponent('https://example.com/plain')}`, { headers: auth });
  const plain = JSON.parse(shortened.body) as { code: string };

  /** 24 connections sending wrong passwords back to back, from 12 addresses, until stopped. */
  const via = floodAgent();
  const wrongPasswords = (round: number) => {
    const answers: Answer[] = [];
    let stopped = false;
    const loops = Array.from({ length: FLOOD_CONNECTIONS }, async (_, connection) => {
      const from = { 'x-forwarded-for': `198.51.100.${(connection % FLOOD_ADDRESSES) + 1}`, origin: `http://${DOMAIN}` };
      const headers = { ...from, 'content-type': 'application/json' };
      for (let n = 0; !stopped; n++) {
        const body = JSON.stringify({ email: EMAIL, password: `wrong-${round}-${connection}-${n}` });
        const answer = await request(server.port, 'POST', '/auth/sign-in', { headers, body, via }).catch(() => undefined);
        if (answer === undefined) return; // a connection cut when the server stops
        answers.push(answer);
      }
    });
    const stop = async () => {
      stopped = true;
      await Promise.race([Promise.all(loops), new Promise((resolve) => setTimeout(resolve, MAX_STRAGGLE_MS))]);
    };
    return { answers, stop };
  };

  const { answers, figures } = await quietThenFlood('sign-in-flood', server, `/${plain.code}`, timing, wrongPasswords);
  const result = {
    ...figures,
    signInLimits: flag('--with-limits') ? 'defaults' : 'off',
    wrongPasswords: {
      connections: FLOOD_CONNECTIONS,
      addresses: FLOOD_ADDRESSES,
      answered: answers.length,
      byStatus: countByStatus(answers),
      answerMedianMs: Math.round(median(answers.map((a) => a.ms))),
    },
    machine: machine(),
  };
  console.log(JSON.stringify(result, null, 2));
});
