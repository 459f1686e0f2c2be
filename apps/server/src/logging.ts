import { write as writeFd, writeSync } from 'node:fs';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { stdSerializers, type Bindings, type ChildLoggerOptions, type Logger } from 'pino';

/**
 * Query parameters that carry secrets: share links, hand-off and invite tokens, meeting JWTs, and what a
 * provider's return carries (an OIDC code and state, an ID token, a SAML response).
 */
const SECRET_PARAMS =
  /([?&](?:share_key|token|inviteToken|invite_token|jwt|handoff|code|state|id_token|session_state|SAMLResponse|RelayState)=)[^&#]*/gi;

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

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Log = (...args: unknown[]) => void;

/**
 * A request's logger, made when the request first logs something. Fastify makes one per request (a
 * pino child bound to its reqId, several µs each), though almost every request logs nothing but its
 * access line, which the root logger writes with the reqId (accessLog below): the same JSON.
 */
class RequestLogger {
  #child: Logger | undefined;
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  constructor(parent: Logger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }
  #logger(): Logger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }
  #write(level: Level, args: unknown[]): void {
    if ((this.#child ?? this.#parent).isLevelEnabled(level)) (this.#logger()[level] as Log)(...args);
  }
  get level(): string {
    return (this.#child ?? this.#parent).level;
  }
  set level(level: string) {
    this.#logger().level = level;
  }
  fatal(...args: unknown[]) {
    this.#write('fatal', args);
  }
  error(...args: unknown[]) {
    this.#write('error', args);
  }
  warn(...args: unknown[]) {
    this.#write('warn', args);
  }
  info(...args: unknown[]) {
    this.#write('info', args);
  }
  debug(...args: unknown[]) {
    this.#write('debug', args);
  }
  trace(...args: unknown[]) {
    this.#write('trace', args);
  }
  silent() {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options) as FastifyBaseLogger;
  }
}

/** Fastify's childLoggerFactory: each request's logger, made lazily (RequestLogger). */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // Without a logger (logger: false) Fastify's own no-op logger has nothing to save.
  if (typeof (logger as Partial<Logger>).isLevelEnabled !== 'function') return logger.child(bindings, options);
  return new RequestLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger;
}

/** One line per request when it completes (Fastify's own two are off): method, redacted URL, status, time. */
export function accessLog(root: FastifyBaseLogger) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    root.info(
      { reqId: request.id, req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
    done();
  };
}

/** Lines dropped by the process's log destination (a full buffer or a closed pipe): /metrics shows it. */
let droppedLines = 0;
export const droppedLogLines = (): number => droppedLines;

/** How long a write that the pipe refused (EAGAIN: the reader is not reading) waits before it is tried again. */
const RETRY_MS = 25;

/**
 * One file descriptor written asynchronously through a buffer of at most `maxChars` characters. A log
 * line never waits: when the reader of the pipe stops reading, lines queue up to the bound, and past it
 * (or once the descriptor is closed for good, EPIPE) they are dropped and counted. pino's own
 * destination either blocks the event loop (sync: retrying EAGAIN in Atomics.wait, forever when the
 * reader is gone) or grows without bound (async), and its exit hook flushes synchronously, retrying.
 */
class BoundedFd {
  #queue: string[] = [];
  #chars = 0;
  /** Bytes being written (a partial write leaves its tail here) and the characters they stand for. */
  #pending: Buffer | undefined;
  #pendingChars = 0;
  #closed = false;
  readonly #fd: number;
  readonly #maxChars: number;

  constructor(fd: number, maxChars: number) {
    this.#fd = fd;
    this.#maxChars = maxChars;
  }

  push(line: string): void {
    if (this.#closed || this.#chars + line.length > this.#maxChars) {
      droppedLines++;
      return;
    }
    this.#queue.push(line);
    this.#chars += line.length;
    if (!this.#pending) this.#next();
  }

  #next(): void {
    if (!this.#pending) {
      if (this.#queue.length === 0) return;
      this.#pending = Buffer.from(this.#queue.join(''));
      this.#pendingChars = this.#chars;
      this.#queue = [];
    }
    const chunk = this.#pending;
    writeFd(this.#fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error) {
        if (error.code === 'EAGAIN' || error.code === 'EWOULDBLOCK' || error.code === 'EINTR') {
          setTimeout(() => this.#next(), RETRY_MS).unref();
          return;
        }
        this.#close();
        return;
      }
      if (written < chunk.length) {
        this.#pending = chunk.subarray(written);
      } else {
        this.#chars -= this.#pendingChars;
        this.#pending = undefined;
      }
      this.#next();
    });
  }

  /** The reader is gone for good: what is queued is dropped (and counted), and so is every later line. */
  #close(): void {
    this.#closed = true;
    droppedLines += this.#queue.length + (this.#pending ? 1 : 0);
    this.#queue = [];
    this.#pending = undefined;
    this.#chars = 0;
  }

  /** At exit: one attempt to write what is left, without waiting (a full pipe answers EAGAIN at once). */
  flushOnce(): void {
    if (this.#closed || (!this.#pending && this.#queue.length === 0)) return;
    const rest = Buffer.concat([this.#pending ?? Buffer.alloc(0), Buffer.from(this.#queue.join(''))]);
    this.#queue = [];
    this.#pending = undefined;
    try {
      writeSync(this.#fd, rest);
    } catch {
      droppedLines++;
    }
  }
}

let processDestination: { write(line: string): void } | undefined;

/**
 * The process's log destination (made once): lines to stdout, fatal lines to stderr, each through a
 * BoundedFd of `maxChars`. Touching process.stdout and process.stderr first makes libuv open a pipe
 * non-blocking (a write to a full pipe answers EAGAIN instead of holding a libuv thread, which would
 * also hold the process at exit); a file or a terminal is written as it is.
 */
export function processLogDestination(maxChars: number): { write(line: string): void } {
  if (processDestination) return processDestination;
  void process.stdout.fd;
  void process.stderr.fd;
  const out = new BoundedFd(1, maxChars);
  const err = new BoundedFd(2, maxChars);
  process.once('exit', () => {
    out.flushOnce();
    err.flushOnce();
  });
  processDestination = {
    // pino writes the level first: `{"level":60,` is a fatal line.
    write: (line: string) => (line.startsWith('{"level":60') ? err : out).push(line),
  };
  return processDestination;
}
