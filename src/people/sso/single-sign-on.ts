// Single sign-on with an OpenID Connect provider (decision 0031). The person is matched by the email
// the provider says is verified (case-insensitively, as password sign-in matches it), and signed in with
// the same session a password opens. Someone no user has is refused, unless OIDC_AUTO_CREATE=on: then
// they are made the owner of a new workspace of their own, never a member of anyone else's.
import { randomBytes } from 'node:crypto';
import type { OidcSettings } from '../../config.js';
import type { RateCounters } from '../../shared-state/counters.js';
import type { PeopleStore } from '../../storage/stores/people.js';
import { hashToken } from '../../tokens/token-secrets.js';
import { checkEmail } from '../emails.js';
import type { SessionService } from '../session-service.js';
import type { OidcClient, PendingSignIn, ProviderClaims } from './oidc-client.js';

/**
 * Why a single sign-on failed, as the sign-in page is told (`?sso_error=`): the provider cannot be reached
 * (`unavailable`), said no (`denied`), the answer is not this browser's or came twice (`state`), the code
 * exchange or ID token failed a check (`failed`), no verified email (`unverified`), no such user
 * (`unknown`), or a user without a workspace (`no-workspace`).
 */
export type SsoFailure = 'unavailable' | 'denied' | 'state' | 'failed' | 'unverified' | 'unknown' | 'no-workspace';

export type SsoOutcome = { readonly session: { sessionId: string; userId: number; accountId: number } } | { readonly failure: SsoFailure };

/** How long a started sign-in may take at the provider; its cookie lives as long. */
export const PENDING_MS = 10 * 60_000;

const DISPLAY_NAME_MAX = 200;

export class SingleSignOn {
  constructor(
    private readonly settings: Pick<OidcSettings, 'autoCreate'>,
    private readonly provider: Pick<OidcClient, 'begin' | 'finish'>,
    private readonly store: PeopleStore,
    private readonly sessions: Pick<SessionService, 'start'>,
    /** Marks each state as used, shared by every instance: a replayed callback is refused. */
    private readonly used: Pick<RateCounters, 'add'>,
    private readonly log: { warn(details: object, message: string): void },
  ) {}

  /** Starts a sign-in: where to send the browser, and what to keep for its return; `unavailable` when discovery fails. */
  async begin(): Promise<{ url: URL; pending: PendingSignIn } | { failure: 'unavailable' }> {
    try {
      return await this.provider.begin();
    } catch {
      return { failure: 'unavailable' }; // logged by the client
    }
  }

  /** The provider's callback (its query string) checked against what this browser kept, and a session opened. */
  async finish(query: URLSearchParams, pending: PendingSignIn | undefined): Promise<SsoOutcome> {
    const state = query.get('state');
    if (pending === undefined || state === null || state !== pending.state) return { failure: 'state' };
    // Once only: a state seen before (this or another instance) is a replay.
    const seen = await this.used.add(`oidc-state:${hashToken(state)}`, 1, PENDING_MS);
    if (seen.current > 1) return { failure: 'state' };
    if (query.has('error')) return { failure: 'denied' };
    let claims: ProviderClaims;
    try {
      claims = await this.provider.finish(query.toString(), pending);
    } catch (error) {
      this.log.warn({ err: error }, 'single sign-on: the provider’s answer failed a check');
      return { failure: 'failed' };
    }
    if (claims.emailVerified !== true || typeof claims.email !== 'string') return { failure: 'unverified' };
    let email: string;
    try {
      email = checkEmail(claims.email);
    } catch {
      return { failure: 'unverified' };
    }
    const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim().slice(0, DISPLAY_NAME_MAX) : null;
    return this.signIn(email, name);
  }

  private async signIn(email: string, name: string | null): Promise<SsoOutcome> {
    let user = await this.store.userByEmail(email);
    if (!user) {
      if (!this.settings.autoCreate) return { failure: 'unknown' };
      const made = await this.createPerson(email, name);
      if (made !== 'email-taken') return { session: await this.sessions.start(made.userId, made.accountId) };
      user = await this.store.userByEmail(email); // made by someone else meanwhile
      if (!user) return { failure: 'unknown' };
    }
    const [first] = await this.store.membershipsOf(user.id);
    if (!first) return { failure: 'no-workspace' };
    return { session: await this.sessions.start(user.id, first.accountId) };
  }

  /** A new person, owner of a new workspace named after the email (with a suffix when that name is taken). */
  private async createPerson(email: string, name: string | null): Promise<{ userId: number; accountId: number } | 'email-taken'> {
    const base = workspaceNameFor(email);
    for (let attempt = 0; attempt < 5; attempt++) {
      const workspace = attempt === 0 ? base : `${base.slice(0, 55)}-${randomBytes(4).toString('hex')}`;
      const made = await this.store.createUserInNewWorkspace({ email, displayName: name, passwordHash: null }, workspace, 'owner');
      if (made === 'email-taken') return made;
      if (made !== 'name-taken') return { userId: made.user.id, accountId: made.accountId };
    }
    throw new Error(`no free workspace name for ${email}`);
  }
}

/** A workspace (account) name from an email: what account names allow (accounts/account-service.ts), at most 64. */
export function workspaceNameFor(email: string): string {
  const name = email
    .toLowerCase()
    .replace(/[^a-z0-9_.@-]/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64);
  return name === '' ? 'workspace' : name;
}
