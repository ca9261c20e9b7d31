import http from 'node:http';
import { AjvCompiler } from '@fastify/ajv-compiler';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { type DestinationStream, pino } from 'pino';
import { analyticsRoutes } from './analytics/v3-routes.js';
import type { Config } from './config.js';
import { domainRoutes } from './domains/routes.js';
import { v3DomainRoutes } from './domains/v3-routes.js';
import { v3WellKnownRoutes } from './domains/well-known-routes.js';
import { wellKnownRoutes } from './domains/well-known-served-routes.js';
import { healthRoutes, isOperationsPath } from './health/routes.js';
import { StopSignal } from './health/stop-signal.js';
import { registerApiDocs } from './http/api-docs.js';
import { checkToken, createAuthenticator, createWorkspaceCaller } from './http/auth.js';
import { capConnections, requestTimeouts } from './http/connection-limits.js';
import { cors, corsOptions } from './http/cors.js';
import { clientErrorHandler, connectRefusal, frameworkErrorHandler, refuseMissingHost, registerErrorHandling } from './http/error-handler.js';
import { refuseNonFiniteNumbers } from './http/finite-numbers.js';
import { registerRateLimits } from './http/rate-limits.js';
import { registerRouteScopes } from './http/route-scopes.js';
import { createOriginCheck } from './http/session-cookie.js';
import { LINK_KEY, RESERVED_SLUGS } from './links/codes.js';
import { linkRoutes } from './links/routes.js';
import { tagRoutes } from './links/tag-routes.js';
import { v3LinkRoutes } from './links/v3-routes.js';
import { Metrics } from './metrics/metrics.js';
import { metricsRoutes } from './metrics/routes.js';
import { clientAddress, fastifyTrustProxy } from './net/client-address.js';
import type { PasswordPool } from './passwords/password-pool.js';
import { passkeyRoutes } from './people/passkeys/routes.js';
import { peopleRoutes } from './people/routes.js';
import { oidcRoutes } from './people/sso/routes.js';
import type { QrService } from './qr/qr-service.js';
import { qrRoutes } from './qr/routes.js';
import { evaluateRoutes } from './redirect/evaluate-routes.js';
import { redirectFastPath } from './redirect/fast-path.js';
import { TOO_MANY_ATTEMPTS } from './redirect/redirect-answer.js';
import { redirectRoutes } from './redirect/routes.js';
import { createReadiness, createRedirects, createServices, createSingleSignOn, type Database, visitorCountries } from './services.js';
import { openSharedState, type SharedState } from './shared-state/shared-state.js';
import { isConnectionError } from './storage/connection-errors.js';
import { tokenRoutes } from './tokens/routes.js';
import { appPage, loadWebApp, type WebApp, webAppRoutes } from './web/routes.js';
import { withServerFacts } from './web/server-facts.js';
import { webhookRoutes } from './webhooks/routes.js';

export interface AppDeps {
  /** An open, migrated database. The app does not close it: whoever opened it does. */
  database: Database;
  /** What instances share (Redis or in-process). Opened from config, and closed with the app, when not given. */
  shared?: SharedState;
  /** Where log lines go (tests read them); standard output when not given. */
  logDestination?: DestinationStream;
  /** The built web app; read from dist/web-app/ when not given. */
  webApp?: WebApp;
  /** Every password hash, bounded (passwords/password-pool.ts); on two niced threads when not given (tests count them). */
  passwords?: PasswordPool;
  /** Draws QR codes; two QR threads and a queue of 64 when not given (tests bound it). */
  qr?: QrService;
  /** Set by serve.ts when a stop begins: GET /readyz answers 503 from then on. */
  stopSignal?: StopSignal;
}

/**
 * Fastify's request log line without the client's address and port (its own serializer logs
 * `remoteAddress`): Brief writes no visitor's IP address anywhere, logs included.
 */
const serializers = {
  req: (request: FastifyRequest) => ({ method: request.method, url: request.url, host: request.host }),
};

/**
 * The validators of the request schemas, one compiler for every app of the process: Ajv keeps what it compiled by
 * schema object, and the routes' schemas are module constants, so an app built after the first compiles almost
 * nothing (the tests build hundreds, each ~0.2 s of CPU otherwise). No route has a headers schema, the one part
 * Fastify treats otherwise under a compiler of one's own (it would not lower-case the names).
 */
const VALIDATORS = AjvCompiler();

/** node:http's switch for half-open connections, a public field its typings leave out. */
type HalfOpenServer = http.Server & { httpAllowHalfOpen: boolean };

/** Builds the HTTP application without listening; tests drive it with app.inject(). */
export function buildApp(config: Config, deps: AppDeps): FastifyInstance {
  // Fastify's logger, made first so the services can log through it too.
  const options = { level: config.logLevel, serializers };
  const log: FastifyBaseLogger = deps.logDestination ? pino(options, deps.logDestination) : pino(options);
  const shared = deps.shared ?? openSharedState(config, log);
  const services = createServices(config, deps.database, shared, log, deps.passwords);
  // Before Fastify starts up: where the link index's memory lands measurably matters (redirect-cache.ts).
  const redirects = createRedirects(config, deps.database, services, log);
  const fastPath = redirectFastPath(redirects.pipeline);
  const metrics = new Metrics({
    linksCreated: () => services.links.created,
    blockedCreates: () => services.links.blockedRefusals,
    visits: () => redirects.visitFigures(),
    redirects: () => redirects.redirectFigures(),
    webhooks: services.webhookWorker.figures,
  });
  const redirectAnswers = metrics.redirects;

  const app = Fastify({
    // Redirects the pipeline can answer at once are answered before Fastify (redirect/fast-path.ts).
    serverFactory: (handler) => {
      // requireHostHeader off: refuseMissingHost answers in the documented shape instead of node:http's bare 400.
      // requestTimeouts: how long a request may take to arrive (BODY_TIMEOUT_MS).
      // The probes and /metrics skip the fast path (no link lookup for them); what it answers is counted.
      const server = http.createServer({ requireHostHeader: false, ...requestTimeouts(config) }, (req, res) => {
        if (refuseMissingHost(req, res)) return;
        if (isOperationsPath(req.url) || !fastPath(req, res)) handler(req, res);
        else redirectAnswers.count(res.statusCode); // a plain add: nothing allocated
      });
      server.keepAliveTimeout = 72_000; // Fastify's default, which it sets only on servers it makes
      // A client that half-closes its side (shutdown(SHUT_WR)) after a whole request still gets
      // its answer: node:http would otherwise end the socket under a request still in flight
      // (one waiting on the database, say). The socket is closed after the last answer.
      (server as HalfOpenServer).httpAllowHalfOpen = true;
      server.on('connect', connectRefusal);
      capConnections(server, config, log);
      return server;
    },
    loggerInstance: log,
    // A full short URL, percent-encoded, is one path parameter of DELETE /v2/links/{link}.
    routerOptions: { maxParamLength: 1024 },
    // verbose: schema errors carry their schema, so messages can name both ends of a range.
    ajv: { customOptions: { verbose: true } },
    schemaController: { compilersFactory: { buildValidator: VALIDATORS } },
    // What fails before routing still gets our error shape (http/error-handler.ts).
    frameworkErrors: frameworkErrorHandler,
    // A request that reaches a closing server on a connection still open is answered as usual (with
    // `Connection: close`), not with Fastify's own 503 body: the load balancer sent it already, and
    // GET /readyz says "stopping" (serve.ts).
    return503OnClosing: false,
    clientErrorHandler,
    // `request.protocol` is https behind a proxy TRUST_PROXY trusts that says so (the session cookie, the Origin check).
    trustProxy: fastifyTrustProxy(config.trustProxy),
  });

  const refuseCrossSite = createOriginCheck(config);
  // Who a token or a session stands for: the edge is given these, as the token and session services are features above it.
  const callers = {
    anonymous: () => services.accounts.anonymousCaller(),
    byToken: (token: string) => services.tokens.callerForToken(token),
    bySession: (sessionId: string) => services.sessions.callerFor(sessionId),
  };
  const authenticate = createAuthenticator(callers, refuseCrossSite, config);

  registerErrorHandling(app);
  refuseNonFiniteNumbers(app);
  registerApiDocs(app);
  // Before the routes: each route's declared limit attaches to it as it is declared.
  registerRateLimits(app, config, {
    counters: { requests: shared.counters, passwords: shared.passwordCounters },
    authenticate,
    addressOf: clientAddress(config.trustProxy),
    domainOf: (request) => redirects.pipeline.domainOf(request.raw),
    tooManyAttempts: TOO_MANY_ATTEMPTS,
    isLinkKey: (key) => LINK_KEY.test(key) && !RESERVED_SLUGS.has(key.toLowerCase()),
  });
  // The API's routes, in a context of their own with CORS (redirects and pages have none).
  app.register(async (api) => {
    // Every token is checked before anything else (limits included): an unknown one is 401 on every call.
    api.addHook('onRequest', checkToken(authenticate, config));
    await api.register(cors, corsOptions(config));
    // What each route declares a token must hold (its scope): checked before its limits.
    registerRouteScopes(api, authenticate);
    api.register(linkRoutes(services.links, authenticate), { prefix: '/v2' });
    api.register(domainRoutes(services.domains, authenticate), { prefix: '/v2' });
    api.register(qrRoutes(deps.qr), { prefix: '/v2' });
    const workspaceCaller = createWorkspaceCaller(authenticate, services.accounts);
    api.register(v3LinkRoutes(services.links, workspaceCaller), { prefix: '/v3' });
    api.register(evaluateRoutes(services.links, workspaceCaller, config.forwardQuery, visitorCountries), { prefix: '/v3' });
    api.register(v3DomainRoutes(services.domains, workspaceCaller), { prefix: '/v3' });
    api.register(v3WellKnownRoutes(services.wellKnown, workspaceCaller), { prefix: '/v3' });
    api.register(tagRoutes(services.tags, workspaceCaller), { prefix: '/v3' });
    api.register(analyticsRoutes(services.analytics, workspaceCaller), { prefix: '/v3' });
    api.register(tokenRoutes(services.tokens, workspaceCaller, authenticate), { prefix: '/v3' });
    api.register(webhookRoutes(services.webhooks, workspaceCaller), { prefix: '/v3' });
  });
  // Sign-in and the team: outside the API's token check (a stale cookie must not stop a new sign-in).
  app.register(
    peopleRoutes({
      config,
      sessions: services.sessions,
      people: services.people,
      passwordChanges: services.passwordChanges,
      authenticate,
      refuseCrossSite,
    }),
  );
  // Single sign-on, when OIDC_ISSUER is set: discovery starts once the app is ready, in the background (a provider
  // that is down delays nothing and is asked again at the next sign-in).
  const sso = createSingleSignOn(config, deps.database, services.sessions, shared.counters, log);
  if (sso) {
    app.register(oidcRoutes({ config, signOn: sso.signOn, log }));
    app.addHook('onReady', async () => void sso.client.configuration().catch(() => {}));
  }
  app.register(passkeyRoutes({ config, passkeys: services.passkeys, sessions: services.sessions, authenticate, refuseCrossSite }));
  const stopSignal = deps.stopSignal ?? new StopSignal();
  const readiness = createReadiness(deps.database, redirects, stopSignal, log);
  app.register(healthRoutes(readiness));
  app.register(metricsRoutes(metrics, config.defaultDomain.hostname, config.metricsToken));
  // Every routed request by its route's template (the raw path would make a series per link).
  app.addHook('onResponse', (request, reply, done) => {
    metrics.countRequest(request.method, request.routeOptions.url, reply.statusCode, request.routeOptions.config.limit, reply.elapsedTime);
    if (request.routeOptions.url === '/:key') redirectAnswers.count(reply.statusCode);
    done();
  });
  app.addHook('onError', (_request, _reply, error, done) => {
    if (isConnectionError(error)) metrics.countDatabaseError();
    done();
  });
  const webApp = withServerFacts(deps.webApp ?? loadWebApp(), config);
  // The app on the default domain, which is also what a Host that is no short domain answers as (decision 0015).
  const onDefault = (request: FastifyRequest) => redirects.pipeline.domainOf(request.raw) === config.defaultDomain.hostname;
  app.register(webAppRoutes(webApp, onDefault));
  app.register(redirectRoutes(redirects.pipeline, appPage(webApp, onDefault)));
  // A domain's app-link files, on the domain its Host stands for (decision 0042).
  app.register(wellKnownRoutes(services.wellKnown, (request) => redirects.pipeline.domainOf(request.raw)));

  // BLOCKLIST_FILE is read again on SIGHUP (while the app runs).
  const reloadBlocklist = () => void services.blocklist.reloadFile();
  app.addHook('onReady', async () => {
    await Promise.all([redirects.start(), shared.counters.ready()]);
    services.webhookWorker.start();
    if (config.blocklistFile) process.on('SIGHUP', reloadBlocklist);
  });
  // Fastify closes after in-flight requests finish; then what is counted is written.
  app.addHook('onClose', async () => {
    process.off('SIGHUP', reloadBlocklist);
    await redirects.stop();
    await services.webhookWorker.stop();
    await services.passwords.close();
    if (!deps.shared) await shared.close();
  });
  return app;
}
