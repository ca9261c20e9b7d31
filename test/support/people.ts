// People for HTTP tests: a user with a role in a workspace, signed in through POST /auth/sign-in.
import type { InjectOptions } from 'fastify';
import type { Role } from '../../src/accounts/roles.js';
import { hashPasswordInProcess } from '../../src/passwords/scrypt.js';
import { BASE_PREFIX, type TestApp, uniqueName } from './app.js';

export const PASSWORD = 'correct horse battery';
/** What the web app's own requests carry: its origin. */
export const SAME_ORIGIN = { origin: BASE_PREFIX };

let hash: Promise<string> | undefined;

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

/** A user (one password hash for all: scrypt is slow on purpose) with a role in the account. */
export async function addUser(t: TestApp, accountId: number, role: Role, email = `${uniqueName('person')}@example.com`) {
  hash ??= hashPasswordInProcess('person', PASSWORD);
  const user = await t.database.people.createUser({ email, displayName: null, passwordHash: await hash }, accountId, role);
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
