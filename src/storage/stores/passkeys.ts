// The passkeys' contract (decision 0030): people's WebAuthn credentials, and the challenges of the
// ceremonies under way (each used once, until it expires), kept where every instance finds them.

export interface PasskeyRecord {
  readonly id: number;
  readonly userId: number;
  /** base64url. */
  readonly credentialId: string;
  /** The user handle its authenticator keeps, base64url. */
  readonly userHandle: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

/** A passkey to keep: what its record holds but the id and times, which `now` gives. */
export type NewPasskey = Pick<PasskeyRecord, 'userId' | 'credentialId' | 'userHandle' | 'publicKey' | 'counter' | 'transports' | 'name'> & {
  readonly now: number;
};

export type ChallengePurpose = 'register' | 'sign-in' | 'invitation';

export interface Challenge {
  readonly challenge: string;
  readonly purpose: ChallengePurpose;
  /** Who registers; null for a sign-in and an invitation. */
  readonly userId: number | null;
  /** An invitation's hash (purpose `invitation`). */
  readonly invitationHash: string | null;
  /** The user handle the options offered (`register` and `invitation`). */
  readonly userHandle: string | null;
  readonly expiresAt: number;
}

export interface PasskeyStore {
  /** Keeps a new challenge until `expiresAt`; the expired ones are removed on the way. */
  addChallenge(challenge: Challenge, now: number): Promise<void>;
  /**
   * Uses a challenge once: removes it and answers whom it was for, or undefined when there is no such
   * challenge for this purpose, it was used already (here or on another instance) or it has expired.
   */
  takeChallenge(challenge: string, purpose: ChallengePurpose, now: number): Promise<Challenge | undefined>;
  /** A new passkey; undefined when its credential is registered already (to anyone). */
  add(passkey: NewPasskey): Promise<PasskeyRecord | undefined>;
  byCredentialId(credentialId: string): Promise<PasskeyRecord | undefined>;
  /**
   * Accepts an invitation with a passkey, in one transaction: claims it (only if unused and unexpired at
   * `now`), makes its person (who must not exist with a password or a passkey), gives the role and keeps
   * the passkey. `used` when it was used or expired meanwhile; `taken` when the person can sign in
   * already (or the credential is someone's): nothing is made then.
   */
  acceptInvitation(
    tokenHash: string,
    now: number,
    user: { email: string; displayName: string | null },
    passkey: Omit<NewPasskey, 'userId' | 'now'>,
  ): Promise<{ userId: number; accountId: number } | 'used' | 'taken'>;
  /** A person's passkeys, oldest first. */
  listOf(userId: number): Promise<PasskeyRecord[]>;
  /** Removes one of a person's passkeys; false when the person has none with this id. */
  remove(userId: number, id: number): Promise<boolean>;
  /**
   * Records a sign-in: the new counter and the time, only if the counter is still `seen` (of two sign-ins
   * with one counter value at once, one wins). False when it moved meanwhile.
   */
  recordUse(id: number, seen: number, counter: number, now: number): Promise<boolean>;
}
