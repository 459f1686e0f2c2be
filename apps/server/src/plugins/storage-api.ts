import type { Readable } from 'node:stream';
import { UnavailableError } from '../errors.js';

/** Inclusive byte range, as HTTP ranges are. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where shared files' bytes live: a directory (the embedded default) or an S3-compatible object
 * store (storage-s3.ts). Keys are ids the server generates (never user input). Both backends keep
 * the same contract (test/storage-contract.test.ts runs the same tests on each).
 */
export interface FileStorage {
  readonly kind: 'disk' | 's3';
  /**
   * Writes the whole stream under `key`; on any failure (the source erroring included) nothing is
   * left behind under that key, and a source not fully read is destroyed.
   */
  put(key: string, source: Readable): Promise<void>;
  /** Streams the object, or the inclusive `range` of it. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Resolves when the store answers (health checks); rejects with StorageUnavailableError otherwise. */
  probe(): Promise<void>;
  close(): Promise<void>;
}

/** The object store is unreachable or failing: the request answers 503 with Retry-After (errors.ts' unavailable), never 500. */
export class StorageUnavailableError extends UnavailableError {
  constructor(cause: unknown) {
    super('ERR_STORAGE_UNAVAILABLE', cause);
  }
}

const KEY_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

export function checkKey(key: string): string {
  // Defence in depth: keys are generated ids, but a key must never be able to leave the directory.
  if (!KEY_SHAPE.test(key)) throw new Error('invalid storage key');
  return key;
}
