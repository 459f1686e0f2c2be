import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

export class TooLargeError extends Error {
  constructor() {
    super('upload exceeds the size limit');
  }
}

/**
 * Passes bytes through while counting and hashing them; fails as soon as the limit is crossed.
 * `check`, when given, sees the running size before each chunk passes on; a promise it returns
 * holds the chunk until it settles, and its rejection fails the stream.
 */
export class UploadMeter extends Transform {
  /**
   * Bytes passed so far. Not `size` nor `length`: stream consumers read those as a body's total
   * length (@aws-sdk/lib-storage did, took 0 and failed every multipart upload).
   */
  bytes = 0;
  private readonly hash = createHash('sha256');

  constructor(
    private readonly maxBytes: number,
    private readonly check?: (size: number) => Promise<void> | undefined,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return callback(new TooLargeError());
    this.hash.update(chunk);
    const pending = this.check?.(this.bytes);
    if (!pending) return callback(null, chunk);
    pending.then(() => callback(null, chunk), callback);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
