import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APP_PAGE_HEADERS, ASSET_HEADERS } from '../html/pages.js';
import { PACKAGE_ROOT } from '../package-root.js';

/** Where `npm run build` (vite.config.ts) writes the app: dist/web-app/ of the package. */
export const WEB_APP_DIR = path.join(PACKAGE_ROOT, 'dist', 'web-app');

/** The built app: its page, or undefined when it was not built (then `/` is the 404 page, as without the app). */
export interface WebApp {
  readonly dir: string;
  readonly index: Buffer | undefined;
}

/** Answers the app's page (a route handler). */
export type AppPage = (request: FastifyRequest, reply: FastifyReply) => unknown;

export function loadWebApp(dir: string = WEB_APP_DIR): WebApp {
  const file = path.join(dir, 'index.html');
  return { dir, index: fs.existsSync(file) ? fs.readFileSync(file) : undefined };
}

/**
 * Whether a request is answered as the default domain: its Host is BASE_URL's, or (unless STRICT_HOSTS is on) no
 * short domain at all (decision 0015).
 */
export type OnDefaultDomain = (request: FastifyRequest) => boolean;

/**
 * The app's page for a request, on the default domain only; the not-found handling elsewhere, so no other domain
 * shows it. Undefined when the app is not built.
 */
export function appPage(app: WebApp, onDefault: OnDefaultDomain): AppPage | undefined {
  const index = app.index;
  if (index === undefined) return undefined;
  return (request, reply) => {
    if (!onDefault(request)) return reply.callNotFound();
    return reply.code(200).headers(APP_PAGE_HEADERS).type('text/html; charset=utf-8').send(index);
  };
}

/**
 * The app's own paths: its hashed assets under `/assets/` (any host; `assets` is a reserved word, never a slug)
 * and its pages under `/app/…` (the default domain only; `app` is reserved too). `/` itself is the redirect
 * feature's route, which hands over to the app when the domain has no home page redirect (app.ts).
 */
export function webAppRoutes(app: WebApp, onDefault: OnDefaultDomain) {
  return async (fastify: FastifyInstance) => {
    const page = appPage(app, onDefault);
    if (page === undefined) {
      fastify.log.warn({ dir: app.dir }, 'the web app is not built (npm run build): / answers the not-found page');
      return;
    }
    await fastify.register(fastifyStatic, {
      root: path.join(app.dir, 'assets'),
      prefix: '/assets/',
      // Vite writes .br and .gz beside each asset (vite.config.ts): sent as they are to a client that takes them.
      preCompressed: true,
      index: false,
      cacheControl: false,
      lastModified: false,
      setHeaders: (reply) => {
        reply.headers(ASSET_HEADERS);
      },
    });
    const hidden = { schema: { hide: true } };
    fastify.get('/app', hidden, page);
    fastify.get('/app/*', hidden, page);
  };
}
