// One default domain for the server and the CLI (issue 37, item 9; decision 0033). A server records the
// domains its configuration serves (BASE_URL's, then PUBLIC_DOMAINS) each time it starts listening; a CLI
// command on the same database reads them and works on those, not on its own environment's, which may
// lack the server's PORT or BASE_URL: a link made on a domain the server does not serve answers 404, an
// invitation link on another address reaches nothing.
import type { Config, ShortDomain } from '../config.js';
import type { ServerSettingsStore } from '../storage/stores/server-settings.js';

const KEY = 'served_domains';

/** The short domains a configuration serves: BASE_URL's, and the public ones (BASE_URL's first). */
export interface ServedDomains {
  readonly defaultDomain: ShortDomain;
  readonly publicDomains: readonly ShortDomain[];
}

const servedBy = (config: Pick<Config, 'defaultDomain' | 'publicDomains'>): ServedDomains => ({
  defaultDomain: { hostname: config.defaultDomain.hostname, urlPrefix: config.defaultDomain.urlPrefix },
  publicDomains: config.publicDomains.map((domain) => ({ hostname: domain.hostname, urlPrefix: domain.urlPrefix })),
});

/** Records what `config` serves; answers what was recorded before (undefined: nothing, or unreadable). */
export async function recordServedDomains(store: ServerSettingsStore, config: Config): Promise<ServedDomains | undefined> {
  return parseServed(await store.put(KEY, JSON.stringify(servedBy(config))));
}

/** What the last server to start on this database recorded; undefined when none has (or it is unreadable). */
export async function recordedServedDomains(store: ServerSettingsStore): Promise<ServedDomains | undefined> {
  return parseServed(await store.get(KEY));
}

/** Whether two configurations serve the same domains (the public ones in any order). */
export function sameServedDomains(a: ServedDomains, b: ServedDomains): boolean {
  const names = (served: ServedDomains) =>
    served.publicDomains
      .map((domain) => domain.urlPrefix)
      .sort()
      .join(' ');
  return a.defaultDomain.urlPrefix === b.defaultDomain.urlPrefix && names(a) === names(b);
}

/** The domains `before` served that `config` does not (their host names): links on them are served no more. */
export function droppedDomains(before: ServedDomains, config: Pick<Config, 'publicDomains'>): string[] {
  return before.publicDomains
    .filter((domain) => !config.publicDomains.some((now) => now.hostname === domain.hostname))
    .map((domain) => domain.hostname);
}

/** For a message: `BASE_URL http://short.test` and, when there are more, `PUBLIC_DOMAINS https://go.test`. */
export function describeServed(served: ServedDomains): string {
  const others = served.publicDomains.filter((domain) => domain.hostname !== served.defaultDomain.hostname);
  const extra = others.length > 0 ? `, PUBLIC_DOMAINS ${others.map((domain) => domain.urlPrefix).join(',')}` : '';
  return `BASE_URL ${served.defaultDomain.urlPrefix}${extra}`;
}

export interface CommandDomains {
  /** The configuration to run with: the server's domains when it recorded others, else `config` itself. */
  readonly config: Config;
  /** One line saying so, naming both, when the recorded domains replaced the environment's. */
  readonly notice?: string;
}

/**
 * The configuration a CLI command works with: its own, with the domains of the server that last started on
 * this database when they differ (said in `notice`). On a database no server has started on, its own.
 */
export async function withServedDomains(store: ServerSettingsStore, config: Config): Promise<CommandDomains> {
  const recorded = await recordedServedDomains(store);
  const own = servedBy(config);
  if (!recorded || sameServedDomains(recorded, own)) return { config };
  return {
    config: Object.freeze({
      ...config,
      defaultDomain: Object.freeze(recorded.defaultDomain),
      publicDomains: Object.freeze(recorded.publicDomains.map((domain) => Object.freeze(domain))),
    }),
    notice:
      `the server on this database serves ${describeServed(recorded)} (recorded when it started); ` +
      `this environment says ${describeServed(own)}: using the server's`,
  };
}

/** A recorded value read back, each domain checked as configuration would have made it; anything else is none. */
function parseServed(text: string | undefined): ServedDomains | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as { defaultDomain?: unknown; publicDomains?: unknown };
    const defaultDomain = shortDomain(value.defaultDomain);
    if (!defaultDomain || !Array.isArray(value.publicDomains)) return undefined;
    const publicDomains = value.publicDomains.map(shortDomain);
    if (publicDomains.some((domain) => domain === undefined) || publicDomains[0]?.hostname !== defaultDomain.hostname) return undefined;
    return { defaultDomain, publicDomains: publicDomains as ShortDomain[] };
  } catch {
    return undefined;
  }
}

function shortDomain(value: unknown): ShortDomain | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { hostname, urlPrefix } = value as Record<string, unknown>;
  if (typeof hostname !== 'string' || typeof urlPrefix !== 'string') return undefined;
  try {
    const url = new URL(urlPrefix);
    const wellFormed =
      (url.protocol === 'http:' || url.protocol === 'https:') && url.host === hostname && `${url.protocol}//${url.host}` === urlPrefix;
    return wellFormed ? { hostname, urlPrefix } : undefined;
  } catch {
    return undefined;
  }
}
