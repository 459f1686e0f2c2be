import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

export class TooLargeError extends Error {
  constructor() {
    super('upload exceeds the size limit');
  }
}

/** Passes bytes through while counting and hashing them; fails as soon as the limit is crossed. */
export class UploadMeter extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(new TooLargeError());
    this.hash.update(chunk);
    callback(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
