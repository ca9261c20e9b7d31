// pg's errors without a code: a dropped connection, a connect timeout (pg's own, and
// pg-pool's while waiting for a free client), a client broken by an earlier drop.
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable/i;
const CONNECTION_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'SQLITE_BUSY'];

/** True for a connection-level failure (database down or unreachable), as opposed to a query error. */
export function isConnectionError(error: unknown): boolean {
  // Node reports a failed connect to several addresses (localhost: ::1 and 127.0.0.1) as an AggregateError.
  if (error instanceof AggregateError && error.errors.some(isConnectionError)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (CONNECTION_CODES.includes(code)) return true;
    // SQLSTATE classes 08 (connection exception), 57P0x (shutdown, crash, starting up) and
    // 53300 (too many connections): the server is not there for us right now.
    if (code.startsWith('08') || /^57P0[1-4]$/.test(code) || code === '53300') return true;
  }
  const message = error instanceof Error ? error.message : '';
  return CONNECTION_MESSAGES.test(message);
}
