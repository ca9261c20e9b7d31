// A server to attack: the built server (`dist/main.js serve`) on a SQLite file in a fresh
// temporary directory, with an account, its token, a private domain and a few links of
// each kind (plain, slug, password, expiry, blocked) for the generated requests to name.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createServices, openMigratedDatabase } from '../../src/services.js';
import { LocalChangeBus } from '../../src/shared-state/change-bus.js';
import { type RunningServer, startBrief } from '../servers.js';
import type { FuzzTargets } from './requests.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The default short domain; requests carry it as their Host. */
export const FUZZ_HOST = 'brief.fuzz';
export const PRIVATE_DOMAIN = 'own.fuzz';

export interface FuzzServer {
  server: RunningServer;
  dir: string;
  dbFile: string;
  env: Record<string, string>;
  targets: FuzzTargets;
  /** A token for the check after the fuzz, whose rate limit the fuzz has not used. */
  checkToken: string;
  /** Stops the server and removes its directory. */
  close(): Promise<void>;
}

/**
 * Migrates the database of `env` and makes accounts with a token each (the first with a
 * private domain), in this process through the services, as the CLI would: one process
 * instead of one per command. Returns the tokens.
 */
export async function prepareDatabase(env: Record<string, string>, names: string[], domain?: string): Promise<string[]> {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
  const database = await openMigratedDatabase(config);
  const bus = new LocalChangeBus();
  const quiet = { info: () => {}, warn: () => {} };
  const { accounts, tokens: tokenService, domains } = createServices(config, database, { changes: bus }, quiet);
  try {
    const tokens: string[] = [];
    for (const [i, name] of names.entries()) {
      const account = await accounts.create(name);
      tokens.push((await tokenService.createToken(name)).token);
      if (i === 0 && domain) await domains.add(`http://${domain}`, account.id);
    }
    return tokens;
  } finally {
    await bus.close();
    await database.close();
  }
}

export async function startFuzzServer(extraEnv: Record<string, string> = {}): Promise<FuzzServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-hostile-'));
  const dbFile = path.join(dir, 'brief.db');
  // Analytics on, and forwarded addresses believed: the headers a visit carries are parsed too.
  const env = { DATABASE_URL: `sqlite:${dbFile}`, BASE_URL: `http://${FUZZ_HOST}`, ANALYTICS: 'full', TRUST_PROXY: 'loopback', ...extraEnv };
  // `check` makes and follows one link at the end, on a token the fuzz never spent its rate limit on.
  const [token, other, check] = (await prepareDatabase(env, ['fuzz', 'other', 'check'], PRIVATE_DOMAIN)) as [string, string, string];
  const server = await startBrief('fuzz', { dbFile, domain: FUZZ_HOST, env });
  const origin = `http://127.0.0.1:${server.port}`;
  const links: Array<{ domain: string; key: string }> = [];
  const make = async (query: Record<string, string>, auth = token) => {
    const response = await fetch(`${origin}/v3/shorten?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${auth}` } });
    if (!response.ok) throw new Error(`setting up the fuzz: ${response.status} ${await response.text()}`);
    const made = (await response.json()) as { domain: string; slug: string };
    links.push({ domain: made.domain, key: made.slug });
  };
  await make({ url: 'https://example.com/plain' });
  await make({ url: 'https://example.com/slug', slug: 'launch' });
  await make({ url: 'https://example.com/own', domain: PRIVATE_DOMAIN, slug: 'mine' });
  await make({ url: 'https://example.com/other' }, other);
  const bulk = await fetch(`${origin}/v3/shorten/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify([
      { url: 'https://example.com/secret', slug: 'secret', password: 'open sesame' },
      { url: 'https://example.com/soon', slug: 'soon', expiredAt: new Date(Date.now() + 5_000).toISOString() },
      { url: 'https://example.com/blocked', slug: 'blocked-link' },
    ]),
  });
  for (const item of (await bulk.json()) as Array<{ domain: string; slug: string }>) links.push({ domain: item.domain, key: item.slug });
  // The CLI's `link block`: a change the server hears of through the link_changes feed.
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/main.js'), 'link', 'block', `${FUZZ_HOST}/blocked-link`], {
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return {
    server,
    dir,
    dbFile,
    env,
    targets: { host: FUZZ_HOST, tokens: [token, other], links, domains: [PRIVATE_DOMAIN] },
    checkToken: check,
    async close() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
