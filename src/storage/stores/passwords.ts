// The passwords' contract (decision 0034): what changes a person's password (a change, the operator, a
// one-time reset link) and ends their sessions with it, and the wrong passwords an invitation was given.

/** A reset link's row: whose it is, until when it holds, whether it was used. */
export interface PasswordResetRecord {
  readonly userId: number;
  readonly email: string;
  readonly expiresAt: number;
  readonly usedAt: number | null;
}

export interface PasswordStore {
  /**
   * A person's new password and the end of their sessions, in one transaction: every session but
   * `keepSessionHash`'s (the one that asked for the change; none: all of them). False when the person is gone.
   */
  setPassword(userId: number, passwordHash: string, keepSessionHash?: string): Promise<boolean>;
  /** A new reset link for a person; their earlier unused links stop working (one at a time). */
  addPasswordReset(reset: { tokenHash: string; userId: number; now: number; expiresAt: number }): Promise<void>;
  passwordResetByHash(tokenHash: string): Promise<PasswordResetRecord | undefined>;
  /**
   * Uses a reset link once, in one transaction: marks it used (only if unused and unexpired at `now`), sets
   * the person's password and ends all their sessions. `used` when it was used meanwhile or expired.
   */
  usePasswordReset(tokenHash: string, now: number, passwordHash: string): Promise<'reset' | 'used'>;
  /**
   * Counts a wrong password given with an unused invitation; at `usedUpAt` wrong ones it is marked used at
   * `now`. The count after this one (`usedUpAt` when the invitation was used or is unknown).
   */
  addWrongInvitationPassword(tokenHash: string, now: number, usedUpAt: number): Promise<number>;
  /** The wrong passwords an invitation was given (0 when unknown). */
  invitationWrongPasswords(tokenHash: string): Promise<number>;
}
