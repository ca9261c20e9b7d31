// The OpenID Connect side of single sign-on (decision 0031), through openid-client: discovery, the
// authorization URL (code flow with PKCE, state and nonce) and the code exchange with the ID token's
// checks. Discovery happens on first use and is kept once it has worked; one that fails is tried again
// on the next sign-in, so a provider that is down never stops Brief from starting or serving.
import * as client from 'openid-client';
import type { OidcSettings } from '../../config.js';
import type { Log } from '../../log.js';

/** What a sign-in keeps between its start and the provider's callback (in a cookie bound to the browser). */
export interface PendingSignIn {
  readonly state: string;
  readonly nonce: string;
  /** PKCE's code verifier: only its S256 challenge went to the provider. */
  readonly verifier: string;
}

/** The claims single sign-on reads: from the ID token, completed from the userinfo endpoint when missing. */
export interface ProviderClaims {
  readonly subject: string;
  readonly email: unknown;
  readonly emailVerified: unknown;
  readonly name: unknown;
}

/** How long the provider may take to answer one request (discovery, token, userinfo, keys). */
const TIMEOUT_SECONDS = 10;

export class OidcClient {
  private discovered: Promise<client.Configuration> | undefined;

  constructor(
    private readonly settings: OidcSettings,
    /** Where the provider sends the browser back: BASE_URL + /auth/oidc/callback. */
    readonly redirectUri: string,
    private readonly log: Log,
  ) {}

  /** The provider's metadata, discovered once; a failure is logged and forgotten, so the next call tries again. */
  configuration(): Promise<client.Configuration> {
    this.discovered ??= this.discover().catch((error: unknown) => {
      this.discovered = undefined;
      this.log.warn({ issuer: this.settings.issuer, err: error }, `single sign-on: discovery at ${this.settings.issuer} failed`);
      throw error;
    });
    return this.discovered;
  }

  /** A new sign-in: the provider's authorization URL, and what the callback must be checked against. */
  async begin(): Promise<{ url: URL; pending: PendingSignIn }> {
    const configuration = await this.configuration();
    const pending = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier() };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url, pending };
  }

  /**
   * The callback's code exchanged for tokens, every check made (state, nonce, PKCE, the ID token's
   * signature, issuer, audience and times), and the person's claims. Throws on any failure.
   */
  async finish(query: string, pending: PendingSignIn): Promise<ProviderClaims> {
    const configuration = await this.configuration();
    // The callback URL as registered: openid-client sends its origin and path as the token request's redirect_uri.
    const callback = new URL(`${this.redirectUri}?${query}`);
    const tokens = await client.authorizationCodeGrant(configuration, callback, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new Error('no ID token');
    let claims: Record<string, unknown> = idToken;
    // Many providers put the email in the ID token only when asked for by claim; the userinfo endpoint always has it.
    if (idToken.email === undefined || idToken.email_verified === undefined) {
      claims = { ...(await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub)), ...idToken };
    }
    return { subject: idToken.sub, email: claims.email, emailVerified: claims.email_verified, name: claims.name };
  }

  private discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    const auth = clientSecret === undefined ? client.None() : client.ClientSecretBasic(clientSecret);
    // http is allowed by config.ts only for a provider on a loopback host.
    const execute = new URL(issuer).protocol === 'http:' ? [client.allowInsecureRequests] : [];
    return client.discovery(new URL(issuer), clientId, clientSecret, auth, { execute, timeout: TIMEOUT_SECONDS });
  }
}
