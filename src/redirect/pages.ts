// The few HTML pages a visitor of a short URL can see. Static: nothing from the request is echoed.
import { createHash } from 'node:crypto';

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}' +
  'label{display:block;margin:1rem 0 .25rem}input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}' +
  'button{font:inherit;margin-top:.75rem;padding:.4rem 1rem}.error{color:#a00}';

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

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head><body><h1>${title}</h1>${body}</body></html>`;
}

export const NOT_FOUND_PAGE = page('Link not found', '<p>This short link does not exist or has been deleted.</p>');
export const BLOCKED_PAGE = page('Link disabled', '<p>This short link has been disabled by the administrator.</p>');
export const EXPIRED_PAGE = page('Link expired', '<p>This short link has expired.</p>');
export const TOO_MANY_ATTEMPTS_PAGE = page('Too many attempts', '<p>Too many passwords were tried for this link. Wait a minute, then try again.</p>');

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
