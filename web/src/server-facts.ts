/** How much of a visit this server records (`ANALYTICS`): full, minimal (time, link, bot), or off. */
export type AnalyticsLevel = 'full' | 'minimal' | 'off';

/**
 * What the server wrote into the page at start (src/web/server-facts.ts). A page without it (Vite's dev server)
 * is taken as a server that records everything, as before.
 */
export function analyticsLevel(): AnalyticsLevel {
  const content = document.querySelector<HTMLMetaElement>('meta[name="brief-analytics"]')?.content;
  return content === 'off' || content === 'minimal' ? content : 'full';
}

/** Whether the server offers single sign-on (OIDC_ISSUER): it writes `<meta name="brief-sso" content="on">` only then. */
export function ssoEnabled(): boolean {
  return document.querySelector<HTMLMetaElement>('meta[name="brief-sso"]')?.content === 'on';
}
