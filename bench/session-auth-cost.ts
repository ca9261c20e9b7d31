// `node --import tsx bench/session-auth-cost.ts [REQUESTS] [ROUNDS]`: the CPU cost of one API read
// (GET /v3/shorten/list?perPage=10, 20 links) authenticated by a bearer token and by a session cookie,
// in-process through app.inject on a SQLite file, one request after another, the two interleaved
// round by round so that a busy machine slows both alike. Prints CPU µs a request for each, per round
// and the median, and the cookie's over the token's; then the lookups alone (the token's row, the
// session's row with its role), 5000 of each a round, which the machine's noise blurs less.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { hashPasswordInProcess } from '../src/passwords/scrypt.js';
import { createServices } from '../src/services.js';
import { LocalChangeBus } from '../src/shared-state/change-bus.js';
import { openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';

const requests = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 5);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-session-cost-'));
const file = path.join(dir, 'brief.db');
const database = openDatabase({ kind: 'sqlite', path: file });
await migrateToLatest(database);
const config = loadConfig({
  BASE_URL: 'https://brief.bench',
  LOG_LEVEL: 'silent',
  DATABASE_URL: `sqlite:${file}`,
  RATE_LIMIT_READ: '0',
  RATE_LIMIT_TOKEN: '0',
});
const quiet = { info: () => {}, warn: () => {} };
const { accounts, tokens, sessions } = createServices(config, database, { changes: new LocalChangeBus() }, quiet);
const account = await accounts.create('bench');
const { token } = await tokens.createToken('bench');
await database.people.createUser(
  { email: 'b@example.com', displayName: null, passwordHash: await hashPasswordInProcess('person', 'bench password') },
  account.id,
  'owner',
);
const app = buildApp(config, { database });
await app.ready();

const signIn = await app.inject({
  method: 'POST',
  url: '/auth/sign-in',
  headers: { origin: 'https://brief.bench' },
  payload: { email: 'b@example.com', password: 'bench password' },
});
const cookie = /brief_session=[A-Za-z0-9_-]+/.exec(String(signIn.headers['set-cookie']))![0];
const byToken = { authorization: `Bearer ${token}` };
const byCookie = { cookie };
for (let i = 0; i < 20; i++) await app.inject({ url: `/v3/shorten?url=https://example.com/${i}`, headers: byToken });

const url = '/v3/shorten/list?perPage=10';
const measure = async (headers: Record<string, string>): Promise<number> => {
  const start = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const res = await app.inject({ url, headers });
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / requests;
};
await measure(byToken); // warm-up
await measure(byCookie);
const tokenCosts: number[] = [];
const cookieCosts: number[] = [];
for (let r = 0; r < rounds; r++) {
  tokenCosts.push(await measure(byToken));
  cookieCosts.push(await measure(byCookie));
  console.log(`round ${r + 1}: token ${tokenCosts.at(-1)!.toFixed(0)} µs, cookie ${cookieCosts.at(-1)!.toFixed(0)} µs`);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(
  `median: token ${median(tokenCosts).toFixed(0)} µs, cookie ${median(cookieCosts).toFixed(0)} µs a request; cookie/token ${(median(cookieCosts) / median(tokenCosts)).toFixed(3)}`,
);
const { sessionId } = await sessions.start((await database.people.userByEmail('b@example.com'))!.id, account.id);
const lookups = 5000;
const cpu = async (lookup: () => Promise<unknown>) => {
  const start = process.cpuUsage();
  for (let i = 0; i < lookups; i++) await lookup();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / lookups;
};
for (let r = 0; r < 4; r++) {
  const t = await cpu(() => tokens.callerForToken(token));
  const c = await cpu(() => sessions.callerFor(sessionId));
  console.log(`lookups, round ${r + 1}${r === 0 ? ' (warm-up)' : ''}: token ${t.toFixed(1)} µs, session ${c.toFixed(1)} µs`);
}
await app.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
