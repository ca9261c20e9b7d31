// A real OpenID Connect provider (oidc-provider) on 127.0.0.1 for the single sign-on tests: one static
// client, accounts whose claims the test sets (email, email_verified, name), and a login page of its own
// (an "Account" field and "Log in") that signs the account in and grants the scopes asked for.
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './process.js';

export const CLIENT_ID = 'brief-test';
export const CLIENT_SECRET = 'a-client-secret-for-the-tests';

export interface ProviderAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestProvider {
  readonly issuer: string;
  /** Accounts by the login typed at the provider (their subject). */
  readonly accounts: Map<string, ProviderAccount>;
  /** The environment that points Brief at this provider. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts the provider; `redirectUris` are the client's (Brief's BASE_URL + /auth/oidc/callback). */
export async function startProvider(redirectUris: string[]): Promise<TestProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, ProviderAccount>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['a-cookie-key-for-the-tests'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      return account && { accountId: sub, claims: async () => ({ sub, ...account }) };
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    // Lifetimes set, so the provider does not print a notice for each default it uses.
    ttl: { Interaction: 600, Grant: 3600, Session: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  const handle = provider.callback();
  const server = http.createServer((req, res) => {
    const uid = /^\/interaction\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1];
    if (uid === undefined) return handle(req, res);
    interaction(provider, uid, req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    accounts,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** GET: the login form; POST: the account typed is signed in, and the scopes asked for are granted. */
async function interaction(provider: Provider, uid: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method !== 'POST') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><title>Test provider</title><main><h1>Test provider</h1>` +
        `<form method="post" action="/interaction/${uid}"><label>Account <input name="login" autocomplete="off"></label>` +
        `<button type="submit">Log in</button></form></main></html>`,
    );
    return;
  }
  let body = '';
  for await (const chunk of req) body += chunk;
  const login = new URLSearchParams(body).get('login') ?? '';
  const grant = new provider.Grant({ accountId: login, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId: login }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

/** Cookies by name, as a browser would keep them for one host (paths ignored: enough for the provider's). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Follows the provider's redirects from an authorization URL, logging `login` in at its login page,
 * until it sends the browser back to `redirectUri`: that URL (with code and state) is returned.
 */
export async function logInAtProvider(authorizationUrl: string, login: string, redirectUri: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  let loggedIn = false;
  for (let hop = 0; hop < 10; hop++) {
    if (url.href.startsWith(`${redirectUri}?`)) return url;
    const atLogin: boolean = /^\/interaction\//.test(url.pathname) && !loggedIn;
    const response = await fetch(url, {
      redirect: 'manual',
      method: atLogin ? 'POST' : 'GET',
      headers: { cookie: jar.header(), ...(atLogin ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: atLogin ? new URLSearchParams({ login }).toString() : undefined,
    });
    loggedIn ||= atLogin;
    jar.take(response);
    const location = response.headers.get('location');
    if (location === null) throw new Error(`the provider answered ${response.status} at ${url.href}: ${await response.text()}`);
    url = new URL(location, url);
  }
  throw new Error('the provider never sent the browser back');
}
