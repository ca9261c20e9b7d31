// The few HTML pages a visitor of a short URL can see. Static: nothing from the request is echoed.

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}' +
  'label{display:block;margin:1rem 0 .25rem}input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}' +
  'button{font:inherit;margin-top:.75rem;padding:.4rem 1rem}.error{color:#a00}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head><body><h1>${title}</h1>${body}</body></html>`;
}

export const NOT_FOUND_PAGE = page('Link not found', '<p>This short link does not exist or has been deleted.</p>');
export const BLOCKED_PAGE = page('Link disabled', '<p>This short link has been disabled by the administrator.</p>');
export const EXPIRED_PAGE = page('Link expired', '<p>This short link has expired.</p>');

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
