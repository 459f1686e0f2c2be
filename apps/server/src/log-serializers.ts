import type { FastifyRequest } from 'fastify';
import { stdSerializers } from 'pino';

/** Query parameters that carry secrets: share links, hand-off and invite tokens, meeting JWTs. */
const SECRET_PARAMS = /([?&](?:share_key|token|inviteToken|invite_token|jwt)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.includes('=') ? url.replace(SECRET_PARAMS, '$1[redacted]') : url;
}

/** Fastify's default request log fields, with secrets in the query string replaced. */
export function reqSerializer(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** Fields whose values never reach a log line, wherever they sit in a logged error. */
const SECRET_FIELDS = new Set([
  'password',
  'new_password',
  'token',
  'share_key',
  'captcha_token',
  'code',
  'authorization',
  'cookie',
  'jwt',
]);
const REDACTED = '[redacted]';

/**
 * A copy of `value` with secret fields' values replaced (plain objects and arrays, a few levels deep).
 * `code` is kept when it names an error (ERR_…, ECONNREFUSED, a PostgreSQL SQLSTATE): only a value that
 * could be a user's e-mail code (digits) is hidden.
 */
function scrub(value: unknown, depth: number): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const out: Record<string, unknown> = {};
  // A validation issue names its field in `path` and carries the submitted value in `input`.
  const path = (value as { path?: unknown }).path;
  const issueOfSecret = Array.isArray(path) && SECRET_FIELDS.has(String(path.at(-1)).toLowerCase());
  for (const [key, field] of Object.entries(value)) {
    if (issueOfSecret && key === 'input') {
      out[key] = REDACTED;
      continue;
    }
    const secret =
      SECRET_FIELDS.has(key.toLowerCase()) && (key !== 'code' || (typeof field === 'string' && /^\d{4,}$/.test(field)));
    out[key] = secret ? REDACTED : scrub(field, depth + 1);
  }
  return out;
}

/**
 * pino's error serializer (type, message, stack, cause, own fields), then secrets removed: a validation
 * error's issues can carry the submitted input, a driver's error the query parameters. Runs only when an
 * error is logged, so the access line pays nothing (pino's `redact` paths cost ~10 µs on every line).
 */
export function errSerializer(err: Error): ReturnType<typeof stdSerializers.err> {
  return scrub(stdSerializers.err(err), 0) as ReturnType<typeof stdSerializers.err>;
}
