/**
 * The little logging the shared-state connections need. Fastify's pino logger fits;
 * the CLI passes a console-backed one.
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
