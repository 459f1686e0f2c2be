import { isDatabaseUnavailable } from '../../db/outage.js';
import { AppError, unavailable } from '../../errors.js';

/**
 * Runs a service step: a catalogue error goes out as it is, an unreachable database as 503 with
 * Retry-After, anything else as ERR_INTERNAL (logged, no details out).
 */
export async function run<T>(log: { error(obj: object, msg: string): void }, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isDatabaseUnavailable(error)) {
      log.error({ err: error }, 'database unavailable');
      throw unavailable();
    }
    log.error({ err: error }, 'admin console: failed');
    throw new AppError('ERR_INTERNAL');
  }
}

/** Opaque keyset cursors: the sort key of the last row of a page. A malformed one is a bad request. */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined, shape: readonly ('string' | 'number')[]): unknown[] | null {
  if (!cursor) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === shape.length && value.every((v, i) => typeof v === shape[i])) {
      return value;
    }
  } catch {
    // falls through to the refusal
  }
  throw new AppError('ERR_VALIDATION', { details: [{ path: 'cursor', message: 'invalid cursor' }] });
}

export const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(Number(ms)).toISOString());

export const NOT_FOUND = () => new AppError('ERR_NOT_FOUND');
