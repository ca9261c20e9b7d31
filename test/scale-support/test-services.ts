// The PostgreSQL and Redis the scale tests run against. Each suite is registered only
// when its URL is set (see .ci/run), so the default `npm test` needs neither.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL?.trim() || undefined;

/** A name no other run (or concurrent test) uses: databases, Redis prefixes. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/**
 * Creates a database beside the one TEST_DATABASE_URL names, empty or a copy of `template` (a database no one
 * is connected to); drop() removes it.
 */
export async function createTestDatabase(serverUrl: string, template?: string): Promise<TestDatabase> {
  const name = uniqueName('brief_scale');
  await adminQuery(serverUrl, template === undefined ? `create database ${name}` : `create database ${name} template ${template}`);
  const drop = async () => {
    await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
  };
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    // FORCE: a server process a failed test left behind must not keep the database alive.
    drop,
  };
}

/** One statement on its own connection. */
export async function adminQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
