// People for HTTP tests: a user with a role in a workspace, signed in through POST /auth/sign-in.
import { randomBytes, scryptSync } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import type { Role } from '../../src/accounts/roles.js';
import { BASE_PREFIX, type TestApp, uniqueName } from './app.js';

export const PASSWORD = 'correct horse battery';
/** What the web app's own requests carry: its origin. */
export const SAME_ORIGIN = { origin: BASE_PREFIX };

/**
 * The fixtures' password hash, in the stored form (`scrypt$N$r$p$salt$key`) but at N=2^10 instead of a person's
 * 2^15: a stored hash carries its own parameters and every check honours them, so each sign-in of a fixture costs
 * about a millisecond of scrypt rather than ~100 ms, in the dozens of suites that sign people in. Hashes Brief
 * makes itself (invitations, changes, resets) keep the full cost, and their tests check those.
 */
const FIXTURE_HASH = (() => {
  const salt = randomBytes(16);
  const key = scryptSync(PASSWORD.normalize('NFC'), salt, 32, { N: 2 ** 10, r: 8, p: 1 });
  return ['scrypt', 2 ** 10, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
})();

export interface SignedIn {
  email: string;
  userId: number;
  /** The session cookie's value. */
  session: string;
  /** Headers of a request from Brief's own pages with the session cookie. */
  headers: { cookie: string; origin: string };
}

/** The brief_session value a response sets, or undefined. */
export function sessionSetBy(setCookie: string | string[] | undefined): string | undefined {
  const header = Array.isArray(setCookie) ? setCookie.join('\n') : (setCookie ?? '');
  return /brief_session=([A-Za-z0-9_-]+)/.exec(header)?.[1];
}

/** A user (with the fixtures' password hash) with a role in the account. */
export async function addUser(t: TestApp, accountId: number, role: Role, email = `${uniqueName('person')}@example.com`) {
  const user = await t.database.people.createUser({ email, displayName: null, passwordHash: FIXTURE_HASH }, accountId, role);
  if (!user) throw new Error(`${email} exists already`);
  return user;
}

export async function signIn(t: TestApp, email: string, password = PASSWORD): Promise<SignedIn> {
  const response = await t.app.inject({ method: 'POST', url: '/auth/sign-in', headers: SAME_ORIGIN, payload: { email, password } });
  const session = sessionSetBy(response.headers['set-cookie']);
  if (response.statusCode !== 200 || !session) throw new Error(`sign-in answered ${response.statusCode}: ${response.body}`);
  const user = await t.database.people.userByEmail(email);
  return { email, userId: user!.id, session, headers: { cookie: `brief_session=${session}`, ...SAME_ORIGIN } };
}

/** A new user with a role in the account, signed in. */
export async function member(t: TestApp, accountId: number, role: Role): Promise<SignedIn> {
  const user = await addUser(t, accountId, role);
  return signIn(t, user.email);
}

export type Request = InjectOptions & { url: string };

/**
 * A session moved to another workspace of its person (`workspaceId`: its UUID) through POST /auth/workspace/switch,
 * or `url`, the route's other name.
 */
export function switchWorkspace(t: TestApp, headers: Record<string, string>, workspaceId: string, url = '/auth/workspace/switch') {
  return t.app.inject({ method: 'POST', url, headers, payload: { workspaceId } });
}
