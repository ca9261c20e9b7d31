import type { Config } from '../config.js';
import type { WebApp } from './routes.js';

/** What the app's page says of this server, read by web/src/server-facts.ts. */
export const ANALYTICS_META = 'brief-analytics';
/** Whether single sign-on is on (OIDC_ISSUER), so the sign-in dialog offers "Sign in with SSO". */
export const SSO_META = 'brief-sso';

/**
 * The app's page with what the app cannot learn from the API: whether this server records visits (`ANALYTICS`),
 * so that a server with analytics off says so instead of drawing empty charts, and whether single sign-on is on
 * (`OIDC_ISSUER`), so that the sign-in dialog offers it. `<meta>` elements (no inline script, so the page's CSP
 * stays as it is), written once at start: a request pays nothing for them.
 */
export function withServerFacts(app: WebApp, config: Pick<Config, 'analytics'> & Partial<Pick<Config, 'oidc'>>): WebApp {
  if (app.index === undefined) return app;
  const html = app.index.toString('utf8');
  const at = html.indexOf('</head>');
  if (at < 0) return app;
  // SSO's element only when it is on: a page without it is a server without SSO.
  const meta = `<meta name="${ANALYTICS_META}" content="${config.analytics}">${config.oidc ? `<meta name="${SSO_META}" content="on">` : ''}`;
  return { ...app, index: Buffer.from(`${html.slice(0, at)}${meta}${html.slice(at)}`) };
}
