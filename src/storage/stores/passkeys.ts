// The passkeys' contract (decision 0030): people's WebAuthn credentials, and the challenges of the
// ceremonies under way (each used once, until it expires), kept where every instance finds them.

export interface PasskeyRecord {
  readonly id: number;
  readonly userId: number;
  /** base64url. */
  readonly credentialId: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

export interface NewPasskey {
  readonly userId: number;
  readonly credentialId: string;
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
  readonly name: string;
  readonly now: number;
}

export type ChallengePurpose = 'register' | 'sign-in';

export interface PasskeyStore {
  /** Keeps a new challenge until `expiresAt`; the expired ones are removed on the way. */
  addChallenge(challenge: { challenge: string; purpose: ChallengePurpose; userId: number | null; expiresAt: number; now: number }): Promise<void>;
  /**
   * Uses a challenge once: removes it and answers whom it was for, or undefined when there is no such
   * challenge for this purpose, it was used already (here or on another instance) or it has expired.
   */
  takeChallenge(challenge: string, purpose: ChallengePurpose, now: number): Promise<{ userId: number | null } | undefined>;
  /** A new passkey; undefined when its credential is registered already (to anyone). */
  add(passkey: NewPasskey): Promise<PasskeyRecord | undefined>;
  byCredentialId(credentialId: string): Promise<PasskeyRecord | undefined>;
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
