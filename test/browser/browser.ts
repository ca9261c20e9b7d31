// Real Chromium (Debian's /usr/bin/chromium, installed by .ci/run) driven by playwright-core, against the
// built server started as a process; axe-core run inside the page; screenshots for people to look at.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { freePort, runCli, type ServerProcess, startServer } from '../support/process.js';

/** Written by the tests, ignored by git (.gitignore); the README's two images are copies of two of them. */
export const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** The two widths every page is checked at: a phone and a desktop. */
export const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** How long one step (a click, a wait for an element) may take. */
export const STEP_MS = 15_000;

export { launchChromium };

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * axe-core's WCAG 2.x A/AA rules on the page as it is now; the serious and critical violations. axe is evaluated
 * through the DevTools protocol, so the page's Content-Security-Policy (no inline script) stays as strict as served.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v: AxeViolation) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return (violations as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * A fresh browser context at one width, with the clipboard allowed for `origin`, every URL it requests noted,
 * and no script error or CSP violation allowed in its console (checked when the page closes).
 */
export async function openPage(
  browser: Browser,
  origin: string,
  size: (typeof WIDTHS)[number],
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ context: BrowserContext; page: Page; urls: string[] }> {
  // Chromium's headless user agent says "HeadlessChrome", which Brief rightly counts as a bot: a person's browser says Chrome.
  const userAgent = personUserAgent(browser);
  const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme, locale: 'en-GB', userAgent });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_MS);
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) errors.push(message.text());
  });
  page.on('close', () => assert.deepEqual(errors, [], 'no script error and no CSP violation in the console'));
  return { context, page, urls };
}

/** The user agent of an ordinary Chrome of the launched version: a person, for Brief's analytics. */
export const personUserAgent = (browser: Browser) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`;

/** No serious or critical axe violation, and nothing wider than the window. */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  assert.deepEqual(
    violations.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `${what}: axe found serious or critical violations`,
  );
  // Responsive: nothing wider than the window, so a phone never scrolls sideways.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${what}: ${overflow} px wider than the window`);
}

/** Polls `check` (reloading the page between tries) until it holds: figures arrive after a flush. */
export async function eventually(page: Page, check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 300));
    await page.reload();
  }
  await screenshot(page, 'failed-eventually');
  assert.fail(`never happened: ${what}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** A destination of our own for short links to lead to (the tests never leave this machine). */
export async function startDestination(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Destination</title><h1>Destination reached: ${req.url?.replace(/[<&]/g, '')}</h1>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a browser test's server runs with: its own SQLite file in `dir`, a free port, BASE_URL on `host`. */
export async function serverEnv(dir: string, extra: Record<string, string> = {}, host = '127.0.0.1') {
  const port = await freePort();
  const origin = `http://${host}:${port}`;
  const env: Record<string, string> = {
    DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: origin,
    LOG_LEVEL: 'warn',
    ...extra,
  };
  return { env, origin };
}

/** The server and Chromium, started side by side; if either fails, the other is closed and the setup fails. */
export async function startServerAndChromium(env: Record<string, string>): Promise<{ server: ServerProcess; browser: Browser }> {
  const [server, browser] = await Promise.allSettled([startServer(env), launchChromium()]);
  if (server.status === 'fulfilled' && browser.status === 'fulfilled') return { server: server.value, browser: browser.value };
  if (server.status === 'fulfilled') await server.value.stop();
  if (browser.status === 'fulfilled') await browser.value.close();
  throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
}

/**
 * EMAIL made the first person of WORKSPACE by the CLI (`brief user create`, which prints a one-time link);
 * the answer accepts that link with a password once the server runs.
 */
export async function firstPerson(env: Record<string, string>, email: string, workspace: string) {
  const invited = await runCli(env, 'user', 'create', email, '--workspace', workspace);
  assert.equal(invited.code, 0, invited.stderr);
  const link = invited.stdout.trim().split('\n').at(-1)!;
  /** `at`: where the server answers; `origin`: the web app's (BASE_URL's), which the cross-site check wants. */
  return async (at: string, password: string, displayName: string, origin = at): Promise<void> => {
    const accepted = await fetch(`${at}/auth/invitation/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ token: link.slice(link.indexOf('#') + 1), password, displayName }),
    });
    assert.equal(accepted.status, 200, await accepted.text());
  };
}

/**
 * A suite in Chromium against the built server, on a scratch folder of its own: `start` (given the folder) starts the
 * server and Chromium before the suite's tests; both are closed and the folder removed after them. What `start`
 * answered, once it has.
 */
function browserSuite<T extends { server: ServerProcess; browser: Browser }>(prefix: string, start: (dir: string) => Promise<T>): () => T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let started: T | undefined;
  before(async () => {
    started = await start(dir);
  });
  after(async () => {
    await started?.browser.close();
    await started?.server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    assert.ok(started, 'the suite has started its server and Chromium');
    return started;
  };
}

/**
 * A suite in Chromium against the built server (`extra`: the server's environment beyond serverEnv's), whose first
 * person, `email` named Ada, has joined workspace acme with `password`.
 */
export function suiteWithFirstPerson(prefix: string, email: string, password: string, extra: Record<string, string> = {}) {
  const get = browserSuite(prefix, async (dir) => {
    const { env } = await serverEnv(dir, extra);
    const accept = await firstPerson(env, email, 'acme');
    const started = { env, ...(await startServerAndChromium(env)) };
    await accept(started.server.origin, password, 'Ada');
    return started;
  });
  return {
    get env() {
      return get().env;
    },
    get server() {
      return get().server;
    },
    get browser() {
      return get().browser;
    },
  };
}

/** A suite in Chromium against the built server, with account `name` made by the CLI and a token of it (`brief token create`). */
export function suiteWithToken(prefix: string, name: string) {
  const get = browserSuite(prefix, async (dir) => {
    const { env } = await serverEnv(dir);
    assert.equal((await runCli(env, 'account', 'create', name)).code, 0);
    const created = await runCli(env, 'token', 'create', name);
    assert.equal(created.code, 0, created.stderr);
    const token = created.stdout.trim().split('\n').at(-1)!.trim();
    return { token, ...(await startServerAndChromium(env)) };
  });
  return {
    get server() {
      return get().server;
    },
    get browser() {
      return get().browser;
    },
    get token() {
      return get().token;
    },
  };
}

/** POST /auth/sign-in outside the browser (`origin`: the web app's, for the cross-site check): its status and the session cookie. */
export async function signInOver(at: string, email: string, password: string, origin = at) {
  const response = await fetch(`${at}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password }),
  });
  return { status: response.status, cookie: /brief_session=[A-Za-z0-9_-]+/.exec(response.headers.get('set-cookie') ?? '')?.[0] };
}

/** Opens the home page's Sign in dialog and sends it an email and password; the dialog, to check what it says. */
export async function signInWithDialog(page: Page, origin: string, email: string, password: string): Promise<Locator> {
  await page.goto(`${origin}/`);
  await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  return dialog;
}
