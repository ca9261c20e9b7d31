import http from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { AccountService } from './accounts/account-service.js';
import type { Config } from './config.js';
import { DomainService } from './domains/domain-service.js';
import { domainRoutes } from './domains/routes.js';
import { registerApiDocs } from './http/api-docs.js';
import { createAuthenticator } from './http/auth.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './http/error-handler.js';
import { LinkService } from './links/link-service.js';
import { linkRoutes } from './links/routes.js';
import { ChangeFeed } from './redirect/change-feed.js';
import { ClickCounter } from './redirect/click-counter.js';
import { redirectFastPath } from './redirect/fast-path.js';
import { redirectAnswers } from './redirect/redirect-answer.js';
import { RedirectCache } from './redirect/redirect-cache.js';
import { RedirectService } from './redirect/redirect-service.js';
import { redirectRoutes } from './redirect/routes.js';
import { openSharedState, type SharedState } from './shared-state/shared-state.js';
import type { Database } from './storage/database.js';

export interface AppDeps {
  /** An open, migrated database. The app does not close it: whoever opened it does. */
  database: Database;
  /** What instances share (Redis or in-process). Opened from config, and closed with the app, when not given. */
  shared?: SharedState;
}

/** Builds the HTTP application without listening; tests drive it with app.inject(). */
export function buildApp(config: Config, deps: AppDeps): FastifyInstance {
  let fastPath: (req: http.IncomingMessage, res: http.ServerResponse) => boolean = () => false;
  const app = Fastify({
    // Cached redirects are answered before Fastify (redirect/fast-path.ts); all else falls through.
    serverFactory: (handler) => {
      const server = http.createServer((req, res) => {
        if (!fastPath(req, res)) handler(req, res);
      });
      server.keepAliveTimeout = 72_000; // Fastify's default, which it sets only on servers it makes
      return server;
    },
    logger: { level: config.logLevel },
    // A full short URL, percent-encoded, is one path parameter of DELETE /v2/links/{link}.
    routerOptions: { maxParamLength: 1024 },
    // verbose: schema errors carry their schema, so messages can name both ends of a range.
    ajv: { customOptions: { verbose: true } },
    // What fails before routing still gets our error shape (http/error-handler.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  const { database } = deps;

  const cache = new RedirectCache({ max: config.cacheSize, ttlMs: config.cacheTtlMs, missingTtlMs: config.negativeCacheTtlMs });
  const shared = deps.shared ?? openSharedState(config, app.log);
  const changes = new ChangeFeed(database, cache, app.log, shared.changes);
  const clicks = new ClickCounter(database, app.log);
  const accounts = new AccountService(database);
  const domains = new DomainService(config, database);
  const links = new LinkService(config, database, domains, changes);
  const redirects = new RedirectService(database, cache);
  // Now rather than when ready: where the index's memory lands measurably matters (see reserveIndex).
  redirects.reserveIndex(config.linkIndexMax);
  const authenticate = createAuthenticator(accounts);
  const answers = redirectAnswers(config);
  fastPath = redirectFastPath(redirects, answers, clicks);

  registerErrorHandling(app);
  registerApiDocs(app);
  app.register(linkRoutes(links, authenticate), { prefix: '/v2' });
  app.register(domainRoutes(domains, authenticate), { prefix: '/v2' });
  app.register(redirectRoutes(redirects, answers, clicks));

  app.addHook('onReady', async () => {
    // The feed first: a change committed while the index loads is then still announced.
    await changes.start(config.changePollMs);
    const indexed = redirects.loadIndex();
    if (indexed > 0) app.log.info({ links: indexed }, 'link index loaded');
    clicks.start(config.clickFlushMs);
  });
  // Fastify closes after in-flight requests finish; then what is counted is written.
  app.addHook('onClose', async () => {
    changes.stop();
    await clicks.stop();
    if (!deps.shared) await shared.close();
  });
  return app;
}
