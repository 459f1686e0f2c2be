import { ERRORS, type ErrorCode } from '@suite/contract';

/**
 * A failure the client should see: rendered as `{ error_code, message }` with the catalogue status.
 * Services throw it with a catalogue code (and `retryAfterS` when trying again later will do); routes
 * and plugins alone may set an HTTP `status` or `headers`.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    options: {
      status?: number;
      message?: string;
      details?: { path: string; message: string }[];
      /** Other headers (WWW-Authenticate); Retry-After is `retryAfterS`. */
      headers?: Record<string, string>;
      /** Seconds after which the same call may succeed (sent as Retry-After). */
      retryAfterS?: number;
      /**
       * The call presented a secret that was checked and found wrong (not an expired or unknown step):
       * what plugins/throttle.ts's alarms count.
       */
      wrongSecret?: boolean;
    } = {},
  ) {
    super(options.message ?? ERRORS[code].message);
    this.status = options.status ?? ERRORS[code].status;
    this.details = options.details;
    this.wrongSecret = options.wrongSecret === true;
    this.headers =
      options.retryAfterS === undefined
        ? options.headers
        : { ...options.headers, 'retry-after': String(Math.max(1, Math.ceil(options.retryAfterS))) };
  }
  readonly details: { path: string; message: string }[] | undefined;
  readonly wrongSecret: boolean;
  readonly headers: Record<string, string> | undefined;
}

/** Seconds a client is asked to wait while a dependency it needs (database, Redis, captcha service) is down. */
const RETRY_AFTER_S = 5;
/** The object store: a failing one usually takes longer to come back. */
const STORAGE_RETRY_AFTER_S = 10;

/**
 * The one way to answer 503 with Retry-After: a dependency is down (ERR_SERVICE_UNAVAILABLE) or the
 * object store is (ERR_STORAGE_UNAVAILABLE). `cause` is kept for the log.
 */
export class UnavailableError extends AppError {
  constructor(code: 'ERR_SERVICE_UNAVAILABLE' | 'ERR_STORAGE_UNAVAILABLE', cause?: unknown) {
    super(code, { retryAfterS: code === 'ERR_STORAGE_UNAVAILABLE' ? STORAGE_RETRY_AFTER_S : RETRY_AFTER_S });
    if (cause !== undefined) this.cause = cause;
  }
}

export const unavailable = (
  code: 'ERR_SERVICE_UNAVAILABLE' | 'ERR_STORAGE_UNAVAILABLE' = 'ERR_SERVICE_UNAVAILABLE',
  cause?: unknown,
): AppError => new UnavailableError(code, cause);
