// The web app's response headers, in one place (the lead folds them together with the API's).

/**
 * The app's Content-Security-Policy: its own scripts, styles, images and API only. No inline
 * script or style (the build writes none), no other host, and no framing.
 */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** On the app's HTML (`/`, `/app/…`): the policy above, and always asked again (`no-cache`) so a new build is seen at once. */
export const APP_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': APP_CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

/** On a hashed asset (`/assets/…`): its name changes with its content, so it is kept for a year. */
export const ASSET_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'X-Content-Type-Options': 'nosniff',
};
