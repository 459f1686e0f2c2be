import { ERRORS, type ErrorCode } from '@suite/contract';

/** A failure the client should see: rendered as `{ error_code, message }` with the catalogue status. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    options: {
      status?: number;
      message?: string;
      details?: { path: string; message: string }[];
      headers?: Record<string, string>;
    } = {},
  ) {
    super(options.message ?? ERRORS[code].message);
    this.status = options.status ?? ERRORS[code].status;
    this.details = options.details;
    this.headers = options.headers;
  }
  readonly details: { path: string; message: string }[] | undefined;
  readonly headers: Record<string, string> | undefined;
}

export const fail = (code: ErrorCode, options?: ConstructorParameters<typeof AppError>[1]): never => {
  throw new AppError(code, options);
};
