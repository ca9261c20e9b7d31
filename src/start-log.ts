import { isIP } from 'node:net';
import type { Config } from './config.js';
import type { Log } from './log.js';

/** A host that only this machine can reach. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice('::ffff:'.length) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * What `brief serve` says once it listens, besides Fastify's listen address: the address to open (BASE_URL, the
 * address short URLs carry), and a warning when BASE_URL was left at its default (localhost) while HOST takes
 * requests from other machines, whose short URLs would then name a host only this machine opens.
 */
export function logStart(config: Config, log: Log): void {
  const url = config.defaultDomain.urlPrefix;
  log.info({ url }, `open ${url}`);
  if (url === `http://localhost:${config.port}` && !isLoopback(config.host)) {
    log.warn(
      { url, host: config.host },
      `BASE_URL is not set: short URLs name ${url}, which only this machine opens, while HOST ${config.host} takes ` +
        'requests from other machines; set BASE_URL to the address people use to reach Brief',
    );
  }
}
