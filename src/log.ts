/**
 * The little logging the services need, so they do not depend on Fastify: its pino
 * logger fits, and the CLI passes a console-backed one.
 */
export interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** For the CLI: warnings as one line on stderr, nothing else. */
export const consoleLog: Log = {
  info: () => {},
  warn: (_details, message) => console.error(`brief: ${message}`),
};
