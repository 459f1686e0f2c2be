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
      headers?: Record<string, string>;
      /** Seconds after which the same call may succeed (sent as Retry-After). */
      retryAfterS?: number;
    } = {},
  ) {
    super(options.message ?? ERRORS[code].message);
    this.status = options.status ?? ERRORS[code].status;
    this.details = options.details;
    this.headers =
      options.retryAfterS === undefined
        ? options.headers
        : { ...options.headers, 'retry-after': String(Math.max(1, Math.ceil(options.retryAfterS))) };
  }
  readonly details: { path: string; message: string }[] | undefined;
  readonly headers: Record<string, string> | undefined;
}

export const fail = (code: ErrorCode, options?: ConstructorParameters<typeof AppError>[1]): never => {
  throw new AppError(code, options);
};
