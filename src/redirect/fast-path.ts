import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClickCounter } from './click-counter.js';
import type { RedirectAnswer } from './redirect-answer.js';
import type { RedirectTarget } from './redirect-cache.js';
import type { RedirectService } from './redirect-service.js';

/**
 * Answers GET/HEAD /{key} for live links and blocked ones straight from node:http,
 * before Fastify's routing, hooks and request logging: that machinery was most of the
 * cost of a cached redirect (docs/benchmarks.md). Returns false for anything else —
 * other paths, query strings, percent-encoding, reserved words, unknown keys, or a miss
 * that only the async (PostgreSQL) path can resolve — which Fastify then handles, so its
 * routes and the not-found handling stay the single source of truth for those.
 */
export function redirectFastPath(
  redirects: RedirectService,
  answer: (target: RedirectTarget | null) => RedirectAnswer,
  clicks: ClickCounter,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url;
    if (url === undefined || url.length < 2) return false;
    const key = url.slice(1);
    // resolveNow refuses anything but [A-Za-z0-9_-]: no '/', '?', '%' reaches a lookup.
    // Reserved words (`/v2`, `/health`) are never link keys, so they miss and fall through.
    const target = redirects.resolveNow(req.headers.host ?? '', key);
    if (!target) return false;
    if (!target.blocked && method === 'GET') clicks.count(target.id);
    const { status, headers, body } = answer(target);
    res.writeHead(status, headers as string[]);
    res.end(body);
    return true;
  };
}
