// Sessions of people signed in with a password (decision 0028). The cookie holds 256 random bits;
// the database holds their SHA-256, so a copy of the database signs nobody in. A session ends on
// sign-out, after SESSION_IDLE_MINUTES without a request, and SESSION_MAX_DAYS after sign-in,
// whichever comes first; a role changed or removed counts from the next request.
import { randomBytes } from 'node:crypto';
import { ACCOUNT_ERRORS } from '../accounts/account-errors.js';
import type { Caller } from '../accounts/caller.js';
import { workspaceUuid } from '../accounts/ids.js';
import type { PeopleStore } from '../storage/stores/people.js';
import { hashToken } from '../tokens/token-secrets.js';
import { PEOPLE_ERRORS } from './people-errors.js';
import type { UserPasswords } from './user-passwords.js';

export interface SessionLifetimes {
  /** A session unused this long ends. */
  readonly idleMs: number;
  /** A session this old ends, used or not. */
  readonly absoluteMs: number;
}

/** last_seen_at is written at most this often per session: a read-mostly session costs no write per request. */
const TOUCH_EVERY_MS = 60_000;

export class SessionService {
  constructor(
    private readonly store: PeopleStore,
    private readonly lifetimes: SessionLifetimes,
    /** Every check counted per email and run on the bounded password threads. */
    private readonly passwords: Pick<UserPasswords, 'verify'>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Checks an email and password; a new session in the person's first workspace, its secret returned once.
   * Counted against the email (429 over RATE_LIMIT_SIGN_IN); 503 while the password threads are busy.
   */
  async signIn(rawEmail: string, password: string): Promise<{ sessionId: string; userId: number; accountId: number }> {
    const email = typeof rawEmail === 'string' ? rawEmail.trim() : '';
    const user = email.length <= 254 ? await this.store.userByEmail(email) : undefined;
    const valid = await this.passwords.verify(email, password, user?.passwordHash ?? null);
    // The one answer to a failed sign-in, whatever failed (unknown email, wrong password, no password yet).
    if (!user || !valid) throw PEOPLE_ERRORS.wrongCredentials();
    const session = await this.startInFirstWorkspace(user.id);
    if (!session) throw PEOPLE_ERRORS.wrongCredentials();
    return session;
  }

  /** A new session in the person's first workspace (any sign-in's last step); undefined when they belong to none. */
  async startInFirstWorkspace(userId: number): Promise<{ sessionId: string; userId: number; accountId: number } | undefined> {
    const [first] = await this.store.membershipsOf(userId);
    return first && this.start(userId, first.accountId);
  }

  /** A new session for a person in a workspace (after sign-in, or an accepted invitation). */
  async start(userId: number, accountId: number): Promise<{ sessionId: string; userId: number; accountId: number }> {
    const sessionId = randomBytes(32).toString('base64url');
    await this.store.addSession({ idHash: hashToken(sessionId), userId, accountId, now: this.now() });
    return { sessionId, userId, accountId };
  }

  /** The caller a session cookie stands for, or null when it is unknown or ended (an ended one is removed). */
  async callerFor(sessionId: string): Promise<Caller | null> {
    const idHash = hashToken(sessionId);
    const session = await this.store.sessionByHash(idHash);
    if (!session) return null;
    const now = this.now();
    if (now - session.createdAt >= this.lifetimes.absoluteMs || now - session.lastSeenAt >= this.lifetimes.idleMs) {
      await this.store.removeSession(idHash);
      return null;
    }
    if (now - session.lastSeenAt >= TOUCH_EVERY_MS) await this.store.touchSession(idHash, now);
    return { accountId: session.accountId, anonymous: false, role: session.role, userId: session.userId };
  }

  /** Ends a session on the server: its cookie signs nobody in any more, even if kept. */
  async signOut(sessionId: string): Promise<void> {
    await this.store.removeSession(hashToken(sessionId));
  }

  /** Moves the session to another of the person's workspaces (by v3's workspaceId); another is not found. */
  async switchWorkspace(sessionId: string, userId: number, workspaceId: string): Promise<void> {
    const target = (await this.store.membershipsOf(userId)).find((m) => workspaceUuid(m.accountId) === workspaceId);
    if (!target) throw ACCOUNT_ERRORS.workspaceNotFound();
    await this.store.switchSession(hashToken(sessionId), target.accountId);
  }

  /** Who a signed-in caller is: the person, the workspace and role, and every workspace for a switcher. */
  async whoIs(caller: Caller) {
    if (caller.userId === undefined) throw PEOPLE_ERRORS.notSignedIn();
    const [user, memberships] = await Promise.all([this.store.userById(caller.userId), this.store.membershipsOf(caller.userId)]);
    const current = memberships.find((m) => m.accountId === caller.accountId);
    if (!user || !current) throw PEOPLE_ERRORS.notSignedIn();
    const workspace = (m: (typeof memberships)[number]) => ({ id: workspaceUuid(m.accountId), name: m.accountName, role: m.role });
    return {
      user: { email: user.email, displayName: user.displayName },
      workspace: workspace(current),
      workspaces: memberships.map(workspace),
    };
  }
}
