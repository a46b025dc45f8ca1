/*
 * Whether an error means the database could not be reached or went away (restart, failover, network), as opposed to
 * an error of the statement itself: such requests answer 503 SERVICE_BUSY (plugins/error-handler.ts) and the workers
 * back off (workers/loop.ts) until it is back. The pool opens new connections on demand, so nothing needs restarting.
 */

/** Socket errors of a connection that cannot be opened or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENOENT',
]);

/**
 * SQLSTATEs of a server that is going or not there yet: class 08 (connection exception), 57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down, in recovery).
 */
const isUnavailableState = (code: string) => code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code);

/** node-postgres's own words for a connection that ended or never came (it sets no code on these). */
const PG_CLIENT_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

export function databaseUnavailable(err: unknown): boolean {
  // the error and its causes (drizzle wraps the driver's error in DrizzleQueryError.cause)
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      (NETWORK_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableState(code)))
    )
      return true;
    if (typeof message === 'string' && PG_CLIENT_MESSAGES.some((m) => message.startsWith(m))) return true;
  }
  return false;
}
