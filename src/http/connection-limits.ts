import type http from 'node:http';
import type { Config } from '../config.js';
import type { Log } from '../log.js';

/** node:http's own bound on the time to receive a request's headers, kept unless BODY_TIMEOUT_MS is shorter. */
const HEADERS_TIMEOUT_MS = 60_000;

/**
 * node:http's options that bound how long a request may take to arrive (decision 0020). It checks
 * its connections every `connectionsCheckingInterval` (30 s by default, which would let a 30 s
 * bound run to 60 s): here a tenth of the bound, so a request is cut within 110% of it.
 */
export function requestTimeouts(config: Pick<Config, 'bodyTimeoutMs'>): http.ServerOptions {
  return {
    requestTimeout: config.bodyTimeoutMs,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, config.bodyTimeoutMs),
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(config.bodyTimeoutMs / 10))),
  };
}

/** How often, at most, refusals past MAX_CONNECTIONS are logged. */
const DROP_REPORT_MS = 10_000;

/**
 * MAX_CONNECTIONS: node:http closes a connection past the cap as soon as it is accepted. The first
 * refusal is logged at once; the ones after it are counted into the next warning, 10 s later at the
 * soonest, so that a flood of them does not become a flood of log lines.
 */
export function capConnections(server: http.Server, config: Pick<Config, 'maxConnections'>, log: Log): void {
  server.maxConnections = config.maxConnections;
  let dropped = 0;
  let quietUntil = 0;
  server.on('drop', () => {
    dropped++;
    const now = Date.now();
    if (now < quietUntil) return;
    log.warn({ dropped, maxConnections: config.maxConnections }, 'connections refused: MAX_CONNECTIONS were open');
    dropped = 0;
    quietUntil = now + DROP_REPORT_MS;
  });
}
