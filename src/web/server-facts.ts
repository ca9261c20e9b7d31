import type { Config } from '../config.js';
import type { WebApp } from './routes.js';

/** What the app's page says of this server, read by web/src/server-facts.ts. */
export const ANALYTICS_META = 'brief-analytics';

/**
 * The app's page with what the app cannot learn from the API: whether this server records visits (`ANALYTICS`),
 * so that a server with analytics off says so instead of drawing empty charts. A `<meta>` element (no inline
 * script, so the page's CSP stays as it is), written once at start: a request pays nothing for it.
 */
export function withServerFacts(app: WebApp, config: Pick<Config, 'analytics'>): WebApp {
  if (app.index === undefined) return app;
  const html = app.index.toString('utf8');
  const at = html.indexOf('</head>');
  if (at < 0) return app;
  const meta = `<meta name="${ANALYTICS_META}" content="${config.analytics}">`;
  return { ...app, index: Buffer.from(`${html.slice(0, at)}${meta}${html.slice(at)}`) };
}
