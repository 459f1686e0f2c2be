import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import type { FastifyBaseLogger } from 'fastify';
import type { S3Settings } from '../config.js';
import { checkKey, StorageUnavailableError, type FileStorage } from './storage-api.js';

/**
 * Multipart parts: an upload larger than one part fills PARTS_IN_FLIGHT buffers of PART_SIZE,
 * allocated once and reused for every part, whatever the file's size (16 MiB for 1 GB or 100 GB): one
 * part is sent while the next one fills. 8 MiB parts allow files up to 80 GB (10 000 parts).
 */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** How long a failed upload waits for its parts still being sent before aborting the multipart upload. */
const ABORT_WAIT_MS = 5000;

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/** An S3-compatible object store (AWS S3, MinIO, Ceph, R2) through the official SDK. */
export function createS3Storage(
  settings: S3Settings,
  log: Pick<FastifyBaseLogger, 'warn'>,
  /** Told of every call the store failed (metrics); `operation`: put, get, stat, delete, probe. */
  onUnavailable: (operation: string) => void = () => undefined,
): FileStorage {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // One retry, and bounded waits: a store that hangs must not hold requests (or a shutdown) forever.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
    // Checksums only where the API requires them: the newer defaults (CRC32 trailers on every
    // upload) are not understood by every S3-compatible store.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const ContentType = 'application/octet-stream';

  const unavailable = (error: unknown, operation: string) => {
    log.warn({ err: error, operation }, 'object storage unavailable');
    onUnavailable(operation);
    return new StorageUnavailableError(error);
  };

  async function remove(key: string): Promise<void> {
    const Key = checkKey(key);
    try {
      await client.send(new DeleteObjectCommand({ Bucket, Key }));
    } catch (error) {
      if (!isNotFound(error)) throw unavailable(error, 'delete');
    }
  }

  /**
   * A streamed upload under `key`: the source is copied into reused part buffers (not one new buffer
   * per part, as @aws-sdk/lib-storage's chunker allocates, which kept the server's memory ~90 MiB above
   * idle during a long upload); a file that fits in one part is sent with one PutObject.
   */
  function multipartUpload(Key: string) {
    let uploadId: string | undefined;
    let partNumber = 0;
    const parts: CompletedPart[] = [];
    const sending: { done: Promise<void>; buffer: Buffer }[] = [];

    async function send(buffer: Buffer, length: number): Promise<void> {
      uploadId ??= (await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType }))).UploadId;
      const PartNumber = ++partNumber;
      const done = client
        .send(new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body: buffer.subarray(0, length) }))
        .then(({ ETag }) => void parts.push({ PartNumber, ETag }));
      // Awaited below (in order); a failure is reported there, not as an unhandled rejection.
      done.catch(() => undefined);
      sending.push({ done, buffer });
    }

    /** A buffer to fill: a new one while fewer than PARTS_IN_FLIGHT exist, else the oldest part's once sent. */
    async function nextBuffer(): Promise<Buffer> {
      if (sending.length < PARTS_IN_FLIGHT) return Buffer.allocUnsafeSlow(PART_SIZE);
      const oldest = sending.shift() as { done: Promise<void>; buffer: Buffer };
      await oldest.done;
      return oldest.buffer;
    }

    return {
      async write(source: Readable): Promise<void> {
        // The chunks of a file that fits in one part are kept as they came (one PutObject of its own
        // size); part buffers are allocated only once the file outgrows one part.
        const first: Buffer[] = [];
        let buffer: Buffer | undefined;
        let filled = 0;
        for await (const data of source as AsyncIterable<Buffer | string>) {
          const chunk = typeof data === 'string' ? Buffer.from(data) : data;
          if (!buffer) {
            if (filled + chunk.length <= PART_SIZE) {
              first.push(chunk);
              filled += chunk.length;
              continue;
            }
            buffer = await nextBuffer();
            filled = 0;
            for (const kept of first.splice(0)) filled += kept.copy(buffer, filled);
          }
          for (let offset = 0; offset < chunk.length;) {
            // A full part is sent only once more bytes come: a file of exactly one part is one PutObject.
            if (filled === PART_SIZE) {
              await send(buffer, filled);
              buffer = await nextBuffer();
              filled = 0;
            }
            const copied = chunk.copy(buffer, filled, offset);
            filled += copied;
            offset += copied;
          }
        }
        if (!buffer) {
          await client.send(new PutObjectCommand({ Bucket, Key, ContentType, Body: Buffer.concat(first, filled) }));
          return;
        }
        await send(buffer, filled);
        while (sending.length) await (sending.shift() as { done: Promise<void> }).done;
        parts.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
        await client.send(
          new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
        );
        uploadId = undefined;
      },
      /** After a failure: parts still being sent are waited for (briefly), then the multipart upload is aborted. */
      async abort(): Promise<void> {
        // Bounded: a store that hangs must not hold the request (or a shutdown) for the SDK's timeouts.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled(sending.map((part) => part.done)),
          new Promise((resolve) => (timer = setTimeout(resolve, ABORT_WAIT_MS))),
        ]);
        clearTimeout(timer);
        if (uploadId === undefined) return;
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch((error) => {
          // The bucket's lifecycle rule removes the parts (docs/storage.md).
          log.warn({ err: error, key: Key }, 'multipart upload not aborted');
        });
      },
    };
  }

  return {
    kind: 's3',
    async put(key, source) {
      checkKey(key);
      let sourceError: unknown;
      source.once('error', (error) => {
        sourceError = error;
      });
      const upload = multipartUpload(key);
      try {
        await upload.write(source);
      } catch (error) {
        if (!source.destroyed) source.destroy();
        await upload.abort();
        // Nothing completed under the key unless the store failed after completing it: make sure.
        await remove(key).catch(() => undefined);
        if (sourceError) throw sourceError;
        throw unavailable(error, 'put');
      }
    },
    async get(key, range) {
      const Key = checkKey(key);
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket,
            Key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return answer.Body as Readable;
      } catch (error) {
        if (isNotFound(error)) throw new Error('object not found in storage');
        throw unavailable(error, 'get');
      }
    },
    async stat(key) {
      const Key = checkKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
        return { size: head.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw unavailable(error, 'stat');
      }
    },
    delete: remove,
    async probe() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        throw unavailable(error, 'probe');
      }
    },
    async close() {
      client.destroy();
    },
  };
}
