// Passkeys (WebAuthn, decision 0030): a signed-in person registers one or more, then signs in with one
// alone (a discoverable credential: no email asked). The relying party is BASE_URL: its hostname is the
// RP ID, its origin the only origin accepted. Each ceremony's challenge is stored (5 minutes, used once)
// so that any instance can finish what another began. The library checks the signatures; this file
// decides what is accepted and answers every failed sign-in the same way.
import { randomBytes } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { BriefError, overLimit } from '../../errors.js';
import type { Challenge, NewPasskey, PasskeyRecord, PasskeyStore } from '../../storage/stores/passkeys.js';
import type { PeopleStore } from '../../storage/stores/people.js';
import { hashToken } from '../../tokens/token-secrets.js';
import { PEOPLE_ERRORS } from '../people-errors.js';
import type { PeopleService } from '../people-service.js';
import type { SessionService } from '../session-service.js';
import { PASSKEY_ERRORS } from './passkey-errors.js';

export type { AuthenticationResponseJSON, RegistrationResponseJSON };

/** How long a ceremony may take, from its options to its answer. */
export const CHALLENGE_MS = 5 * 60_000;

export const PASSKEY_NAME_MAX = 100;

export { PASSKEY_REFUSED } from './passkey-errors.js';

/** The relying party: BASE_URL's hostname (no port) and origin. */
export interface RelyingParty {
  readonly id: string;
  readonly origin: string;
  readonly name: string;
}

export function relyingPartyOf(urlPrefix: string): RelyingParty {
  const url = new URL(urlPrefix);
  return { id: url.hostname, origin: url.origin, name: 'Brief' };
}

/** What a person sees of a passkey (never its key). */
export interface PasskeyView {
  readonly id: number;
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

const view = (passkey: PasskeyRecord): PasskeyView => ({
  id: passkey.id,
  name: passkey.name,
  createdAt: passkey.createdAt,
  lastUsedAt: passkey.lastUsedAt,
});

/** A new user handle: 16 random bytes, base64url (nothing of the person in it). */
const newUserHandle = () => randomBytes(16).toString('base64url');

/** The challenge a response was made for, read from its clientDataJSON; undefined when unreadable. */
function challengeOf(clientDataJSON: unknown): string | undefined {
  if (typeof clientDataJSON !== 'string' || clientDataJSON.length > 10_000) return undefined;
  try {
    const challenge = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'))?.challenge;
    return typeof challenge === 'string' && challenge.length <= 200 ? challenge : undefined;
  } catch {
    return undefined;
  }
}

export class PasskeyService {
  constructor(
    private readonly store: PasskeyStore,
    private readonly people: Pick<PeopleStore, 'userById'>,
    private readonly invitations: Pick<PeopleService, 'invitation'>,
    private readonly sessions: Pick<SessionService, 'startInFirstWorkspace'>,
    private readonly rp: RelyingParty,
    private readonly now: () => number = Date.now,
  ) {}

  /** A signed-in person's passkeys, oldest first. */
  async list(userId: number): Promise<PasskeyView[]> {
    return (await this.store.listOf(userId)).map(view);
  }

  /** Removes one of the person's own passkeys; another's (or none) is not found. */
  async remove(userId: number, id: number): Promise<void> {
    if (!(await this.store.remove(userId, id))) throw PASSKEY_ERRORS.notFound();
  }

  /** What navigator.credentials.create() needs: a discoverable credential, verified user, none of theirs twice. */
  async registrationOptions(userId: number): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const user = await this.people.userById(userId);
    if (!user) throw PEOPLE_ERRORS.notSignedIn();
    const existing = await this.store.listOf(userId);
    // One handle for all of a person's passkeys, so an authenticator keeps one of theirs, not several.
    const userHandle = existing[0]?.userHandle ?? newUserHandle();
    const options = await this.creationOptions(user.email, user.displayName ?? user.email, userHandle, existing);
    await this.keepChallenge({ challenge: options.challenge, purpose: 'register', userId, invitationHash: null, userHandle });
    return options;
  }

  /** Checks the authenticator's answer to the person's own challenge, and keeps the passkey. */
  async register(userId: number, response: RegistrationResponseJSON, rawName?: string): Promise<PasskeyView> {
    const challenge = challengeOf(response.response?.clientDataJSON);
    const taken = challenge && (await this.store.takeChallenge(challenge, 'register', this.now()));
    if (!taken || taken.userId !== userId || !taken.userHandle) throw PASSKEY_ERRORS.expiredRequest();
    const existing = await this.store.listOf(userId);
    const name = checkName(rawName, existing.length + 1);
    const credential = await this.verifyNew(response, challenge, taken.userHandle, name);
    const added = await this.store.add({ ...credential, userId, now: this.now() });
    if (!added) throw PASSKEY_ERRORS.registered();
    return view(added);
  }

  /** An invitation accepted with a passkey instead of a password: the options for its person, who does not exist yet. */
  async invitationOptions(token: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const invitation = await this.invitations.invitation(token);
    const userHandle = newUserHandle();
    const options = await this.creationOptions(invitation.email, invitation.email, userHandle, []);
    await this.keepChallenge({ challenge: options.challenge, purpose: 'invitation', userId: null, invitationHash: hashToken(token), userHandle });
    return options;
  }

  /**
   * Accepts an invitation once with a passkey: the person is made, joins with the role and keeps the
   * passkey, all in one transaction (a failure makes nothing). Who may then be signed in.
   */
  async acceptInvitation(
    token: string,
    response: RegistrationResponseJSON,
    displayName?: string,
    rawName?: string,
  ): Promise<{ userId: number; accountId: number }> {
    const invitation = await this.invitations.invitation(token);
    const challenge = challengeOf(response.response?.clientDataJSON);
    const taken = challenge && (await this.store.takeChallenge(challenge, 'invitation', this.now()));
    if (!taken || taken.invitationHash !== hashToken(token) || !taken.userHandle) throw PASSKEY_ERRORS.expiredRequest();
    const credential = await this.verifyNew(response, challenge, taken.userHandle, checkName(rawName, 1));
    const user = { email: invitation.email, displayName: displayName?.trim() || null };
    const outcome = await this.store.acceptInvitation(hashToken(token), this.now(), user, credential);
    if (outcome === 'used') throw PEOPLE_ERRORS.invitationUsed();
    if (outcome === 'taken') throw PEOPLE_ERRORS.inviteeSignsIn(invitation.email);
    return outcome;
  }

  /** What navigator.credentials.get() needs: no credentials listed, so the authenticator offers its own (no email asked). */
  async signInOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({ rpID: this.rp.id, timeout: CHALLENGE_MS, userVerification: 'required' });
    await this.keepChallenge({ challenge: options.challenge, purpose: 'sign-in', userId: null, invitationHash: null, userHandle: null });
    return options;
  }

  /**
   * Signs in with a passkey: the challenge is ours and unused, the credential known, the signature its
   * key's over our origin and RP ID with the user verified, the counter moved on (or both zero). A new
   * session as a password sign-in opens; every failure gets the one answer.
   */
  async signIn(response: AuthenticationResponseJSON): Promise<{ sessionId: string; userId: number; accountId: number }> {
    const refused = PASSKEY_ERRORS.refused;
    const challenge = challengeOf(response.response?.clientDataJSON);
    if (!challenge || !(await this.store.takeChallenge(challenge, 'sign-in', this.now()))) throw refused();
    const passkey = typeof response.id === 'string' && response.id.length <= 1024 ? await this.store.byCredentialId(response.id) : undefined;
    if (!passkey) throw refused();
    const handle = response.response.userHandle;
    if (handle !== undefined && handle !== passkey.userHandle) throw refused();
    let newCounter: number;
    try {
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: [...passkey.transports],
        },
        requireUserVerification: true,
      });
      if (!verified.verified) throw refused();
      newCounter = verified.authenticationInfo.newCounter;
    } catch {
      // A counter that did not move on (a cloned authenticator?) is refused here too, by the library.
      throw refused();
    }
    if (!(await this.store.recordUse(passkey.id, passkey.counter, newCounter, this.now()))) throw refused();
    const session = await this.sessions.startInFirstWorkspace(passkey.userId);
    if (!session) throw refused();
    return session;
  }

  private creationOptions(userName: string, displayName: string, userHandle: string, existing: readonly PasskeyRecord[]) {
    return generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userName,
      userID: new Uint8Array(Buffer.from(userHandle, 'base64url')),
      userDisplayName: displayName,
      timeout: CHALLENGE_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: [...passkey.transports] })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    });
  }

  /** A new credential checked against its challenge, our origin and RP ID, the user verified: what to keep of it. */
  private async verifyNew(
    response: RegistrationResponseJSON,
    challenge: string,
    userHandle: string,
    name: string,
  ): Promise<Omit<NewPasskey, 'userId' | 'now'>> {
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
      });
    } catch (error) {
      const reason = error instanceof Error ? `: ${error.message}` : '';
      throw PASSKEY_ERRORS.notVerified(reason);
    }
    if (!verified.verified) throw PASSKEY_ERRORS.notVerified('');
    const { credential } = verified.registrationInfo;
    return {
      credentialId: credential.id,
      userHandle,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (response.response.transports ?? []).filter((t) => typeof t === 'string' && /^[a-z-]{1,20}$/.test(t)).slice(0, 10),
      name,
    };
  }

  /** The options' challenge (32 random bytes, base64url, made by the library) until it is used or expires. */
  private async keepChallenge(challenge: Omit<Challenge, 'expiresAt'>): Promise<void> {
    const now = this.now();
    await this.store.addChallenge({ ...challenge, expiresAt: now + CHALLENGE_MS }, now);
  }
}

/** A passkey's name as given (trimmed), or "Passkey N" when none is. */
function checkName(rawName: string | undefined, count: number): string {
  const name = rawName?.trim() || `Passkey ${count}`;
  if (name.length > PASSKEY_NAME_MAX) throw BriefError.field(overLimit('name', PASSKEY_NAME_MAX));
  return name;
}
