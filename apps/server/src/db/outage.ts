const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Query read timeout',
  'connect ECONNREFUSED',
];

/**
 * The database could not be reached or went away mid-query (as opposed to a query it refused): a
 * PostgreSQL connection failure or class 08 / 57P0x error, or SQLite busy / I/O failure. Such an error
 * must never become a business answer ("wrong password", "invalid code"): it is a 503.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || code.startsWith('08') || /^57P0[1-3]$/.test(code)) return true;
    if (/^SQLITE_(BUSY|IOERR|CANTOPEN|LOCKED)/.test(code)) return true;
  }
  if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) return true;
  // AggregateError (a connection tried on several addresses).
  return Array.isArray(errors) && errors.some(isDatabaseUnavailable);
}

/**
 * Text the database cannot hold (PostgreSQL class 22021/22P05: a NUL or a character outside UTF-8,
 * which SQLite stores): the request's input was malformed, a 400, never a 500. The schemas refuse such
 * text first; this is the net under them.
 */
export function isUnstorableText(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '22021' || code === '22P05';
}
