// The few HTML pages a visitor of a short URL can see. Static: nothing from the request is echoed.

function page(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}</style></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
}

export const NOT_FOUND_PAGE = page('Link not found', 'This short link does not exist or has been deleted.');
export const BLOCKED_PAGE = page('Link disabled', 'This short link has been disabled by the administrator.');
