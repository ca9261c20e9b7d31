// A person's password changed (by them, signed in), set by the operator (`brief user password`), or reset
// through a one-time link the operator hands over (`brief user reset`; Brief sends no mail): decision 0034.
// Each ends the person's other sessions (a reset or the operator's: all of them) in the same transaction,
// and the old password stops working at once (every sign-in reads the stored hash).
import type { PasswordStore } from '../storage/stores/passwords.js';
import type { PeopleStore } from '../storage/stores/people.js';
import { hashToken } from '../tokens/token-secrets.js';
import { newOneTimeLink, type OneTimeLink, secretHash } from './one-time-links.js';
import { PEOPLE_ERRORS } from './people-errors.js';
import { checkNewPassword, type UserPasswords } from './user-passwords.js';

/** How long a reset link holds. */
export const RESET_LINK_HOURS = 1;
const HOUR_MS = 3_600_000;

export class PasswordChanges {
  constructor(
    private readonly people: Pick<PeopleStore, 'userByEmail' | 'userById'>,
    private readonly store: PasswordStore,
    private readonly passwords: Pick<UserPasswords, 'verify' | 'hash'>,
    /** BASE_URL's prefix: reset links open the web app there. */
    private readonly appPrefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * POST /auth/password: a signed-in person's new password, given the current one (a password check like
   * a sign-in's: counted against their email, 401 when wrong). Every other session of theirs ends; the one
   * that asked (`sessionId`) stays.
   */
  async change(userId: number, sessionId: string, currentPassword: string, newPassword: string): Promise<void> {
    const fresh = checkNewPassword(newPassword, 'newPassword');
    const user = await this.people.userById(userId);
    const credentials = user && (await this.people.userByEmail(user.email));
    if (!credentials) throw PEOPLE_ERRORS.notSignedIn();
    // Someone who signs in only with a passkey or single sign-on has no password to give: never right.
    if (!(await this.passwords.verify(credentials.email, currentPassword, credentials.passwordHash))) {
      throw PEOPLE_ERRORS.currentPasswordWrong();
    }
    if (!(await this.store.setPassword(userId, await this.passwords.hash(fresh), hashToken(sessionId)))) {
      throw PEOPLE_ERRORS.notSignedIn();
    }
  }

  /** `brief user password EMAIL --password-stdin`: the operator sets a person's password; all their sessions end. */
  async set(rawEmail: string, newPassword: string): Promise<void> {
    const fresh = checkNewPassword(newPassword);
    const user = await this.person(rawEmail);
    if (!(await this.store.setPassword(user.id, await this.passwords.hash(fresh)))) throw noUser(rawEmail);
  }

  /** `brief user reset EMAIL`: a one-time link, valid an hour, whose page sets a new password; earlier links stop working. */
  async resetLink(rawEmail: string): Promise<OneTimeLink> {
    const user = await this.person(rawEmail);
    const { link, tokenHash } = newOneTimeLink(this.appPrefix, 'reset-password');
    const now = this.now();
    const expiresAt = now + RESET_LINK_HOURS * HOUR_MS;
    await this.store.addPasswordReset({ tokenHash, userId: user.id, now, expiresAt });
    return { link, email: user.email, expiresAt };
  }

  /** POST /auth/password/reset: a reset link's new password, once; every session of the person ends. */
  async reset(token: string, newPassword: string): Promise<void> {
    const tokenHash = secretHash(token);
    const found = tokenHash && (await this.store.passwordResetByHash(tokenHash));
    if (!found) throw PEOPLE_ERRORS.noResetLink();
    if (found.usedAt !== null) throw PEOPLE_ERRORS.resetLinkUsed();
    if (found.expiresAt <= this.now()) throw PEOPLE_ERRORS.resetLinkExpired();
    const passwordHash = await this.passwords.hash(checkNewPassword(newPassword, 'newPassword'));
    if ((await this.store.usePasswordReset(tokenHash, this.now(), passwordHash)) === 'used') throw PEOPLE_ERRORS.resetLinkUsed();
  }

  private async person(rawEmail: string) {
    const user = await this.people.userByEmail(rawEmail.trim());
    if (!user) throw noUser(rawEmail);
    return user;
  }
}

const noUser = (email: string) => PEOPLE_ERRORS.noUser(email.trim());
