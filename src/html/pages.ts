// Brief's HTML, in one place every layer may use: the few pages a visitor of a short URL can see
// (static: nothing from the request is echoed; a link's card page, escaped, says only what its owner
// set and where it goes) and the security headers of every HTML answer
// (those pages, the API reference at /docs, and the web app and its assets).
import { createHash } from 'node:crypto';

/**
 * The web app's palette (web/src/styles.css, between its palette markers), the same values: a unit test
 * compares the two. Light, and dark when the visitor's system prefers it.
 */
export const PALETTE_CSS =
  ':root{--bg:#f6f7f9;--card:#ffffff;--fg:#1b1f24;--muted:#57606a;--border:#d0d7de;--accent:#2b59c3;--accent-fg:#ffffff;' +
  '--error:#b3261e;--good:#1a7f37;color-scheme:light dark}' +
  '@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--card:#171b21;--fg:#e6e8eb;--muted:#9aa4b0;--border:#3a424d;' +
  '--accent:#7aa2ff;--accent-fg:#0f1216;--error:#ff8a80;--good:#6fdc8c}}';

// The app's look for a page of its own: its font, background, a card, its form fields and buttons.
const STYLE =
  `${PALETTE_CSS}*{box-sizing:border-box}` +
  'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}' +
  'header{padding:.75rem 1rem;background:var(--card);border-bottom:1px solid var(--border);font-weight:700;font-size:1.25rem}' +
  'main{max-width:32rem;margin:10vh auto;padding:0 1rem}' +
  '.card{background:var(--card);border:1px solid var(--border);border-radius:10px;padding:1.25rem}' +
  'h1{font-size:1.4rem;margin:0 0 .5rem;line-height:1.25}p{margin:.5rem 0}' +
  'label{display:block;font-weight:600;margin:1rem 0 .3rem}' +
  'input{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:6px;padding:.5rem .6rem;width:100%;min-height:2.5rem}' +
  'button{font:inherit;font-weight:600;margin-top:1rem;padding:.45rem 1rem;min-height:2.5rem;border-radius:6px;border:1px solid var(--accent);' +
  'background:var(--accent);color:var(--accent-fg);cursor:pointer}' +
  'input:focus-visible,button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}' +
  '.error{color:var(--error);font-weight:600}[aria-invalid=true]{border:2px solid var(--error)}';

/**
 * The security headers of every HTML page Brief serves (what @fastify/helmet would set, as
 * flat name/value pairs written once, so the node:http fast path sends them at no cost): no
 * script may run, the one style is allowed by its hash, no framing, no sniffing, no referrer.
 * No `form-action`: browsers apply it to the password form's 303 to the destination too.
 */
export const PAGE_SECURITY_HEADERS: readonly string[] = Object.freeze([
  'content-security-policy',
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`,
  'x-content-type-options',
  'nosniff',
  'x-frame-options',
  'DENY',
  'referrer-policy',
  'no-referrer',
  'cross-origin-opener-policy',
  'same-origin',
  'cross-origin-resource-policy',
  'same-origin',
]);

/** The security headers of the pages above, as an object for reply.headers(). */
export const HTML_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze(pairs(PAGE_SECURITY_HEADERS));

/**
 * The API reference page (/docs) runs Swagger UI's scripts and styles, all served from here: the
 * same headers, with a policy that allows this server's own scripts, styles, images and fonts only.
 */
export const DOCS_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...HTML_PAGE_HEADERS,
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
    "font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
});

/**
 * The web app's Content-Security-Policy: its own scripts, styles, images and API only. No inline
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

/** On a hashed asset of the web app (`/assets/…`): its name changes with its content, so it is kept for a year. */
export const ASSET_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'X-Content-Type-Options': 'nosniff',
};

function pairs(flat: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) headers[flat[i]!] = flat[i + 1]!;
  return headers;
}

function page(title: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<meta name="color-scheme" content="light dark"><meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head>` +
    `<body><header>Brief</header><main><div class="card"><h1>${title}</h1>${body}</div></main></body></html>`
  );
}

export const NOT_FOUND_PAGE = page('Link not found', '<p>This short link does not exist or has been deleted.</p>');
export const BLOCKED_PAGE = page('Link disabled', '<p>This short link has been disabled by the administrator.</p>');
export const EXPIRED_PAGE = page('Link expired', '<p>This short link has expired.</p>');
export const VISIT_LIMIT_PAGE = page('Visit limit reached', '<p>This short link has reached its visit limit.</p>');
export const TOO_MANY_ATTEMPTS_PAGE = page('Too many attempts', '<p>Too many passwords were tried. Wait a minute, then try again.</p>');
export const PASSWORD_CHECKS_BUSY_PAGE = page('Busy', '<p>Too many passwords are being checked right now. Try again in a moment.</p>');

/**
 * The form of a password-protected link. It posts to its own address (no `action`), so
 * nothing of the link, let alone its destination, is in the page.
 */
function passwordPage(wrong: boolean): string {
  const error = wrong ? '<p class="error" role="alert" id="password-error">That password is not right. Try again.</p>' : '';
  const described = wrong ? ' aria-describedby="password-error" aria-invalid="true"' : '';
  return page(
    'Password required',
    `<p>This short link is protected by a password.</p>${error}<form method="post"><label for="password">Password</label>` +
      `<input id="password" name="password" type="password" autocomplete="current-password" required autofocus${described}>` +
      '<button type="submit">Continue</button></form>',
  );
}

export const PASSWORD_PAGE = passwordPage(false);
export const WRONG_PASSWORD_PAGE = passwordPage(true);

/** Text made safe for HTML, in an element or a quoted attribute alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** What a link's card page says (decision 0041): the link's card, its short URL and where it goes. */
export interface CardPageParts {
  readonly title: string;
  readonly description: string | null;
  /** An https URL, or null. */
  readonly image: string | null;
  readonly shortUrl: string;
  readonly destination: string;
}

/**
 * The page a link-preview fetcher gets for a link with a card: the Open Graph and Twitter card tags each app reads
 * (`og:url` the short URL, so an app that follows it comes back here), a refresh and a link on to the destination for
 * anyone who opens it. Every value is escaped; no script, the one style of Brief's pages.
 */
export function cardPage(card: CardPageParts): string {
  const title = escapeHtml(card.title);
  const description = card.description === null ? null : escapeHtml(card.description);
  const image = card.image === null ? null : escapeHtml(card.image);
  const destination = escapeHtml(card.destination);
  const meta = (attribute: 'property' | 'name', key: string, value: string | null) =>
    value === null ? '' : `<meta ${attribute}="${key}" content="${value}">`;
  const tags =
    meta('property', 'og:title', title) +
    meta('property', 'og:description', description) +
    meta('property', 'og:image', image) +
    meta('property', 'og:url', escapeHtml(card.shortUrl)) +
    meta('property', 'og:type', 'website') +
    meta('name', 'description', description) +
    meta('name', 'twitter:card', image === null ? 'summary' : 'summary_large_image') +
    meta('name', 'twitter:title', title) +
    meta('name', 'twitter:description', description) +
    meta('name', 'twitter:image', image);
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<meta name="color-scheme" content="light dark"><meta name="robots" content="noindex"><title>${title}</title>${tags}` +
    `<meta http-equiv="refresh" content="0;url=${destination}"><style>${STYLE}</style></head>` +
    `<body><header>Brief</header><main><div class="card"><h1>${title}</h1>${description === null ? '' : `<p>${description}</p>`}` +
    `<p><a href="${destination}">Continue to ${escapeHtml(hostOf(card.destination))}</a></p></div></main></body></html>`
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
