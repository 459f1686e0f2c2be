import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FastifyBaseLogger } from 'fastify';
import type { S3Settings } from '../config.js';
import { checkKey, StorageUnavailableError, type FileStorage } from './storage-api.js';

/**
 * Multipart parts of 5 MiB, S3's smallest (files up to 50 GB: 10 000 parts), one sent at a time while
 * the next one fills: an upload holds about two parts in memory whatever the file's size. (8 MiB parts
 * measured 46-70 MiB of peak RSS growth during a 1 GiB upload, 5 MiB parts 23-29 MiB: lib-storage
 * allocates each part anew, so smaller parts leave less for the collector.)
 */
export const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 1;

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

  return {
    kind: 's3',
    async put(key, source) {
      checkKey(key);
      let sourceError: unknown;
      source.once('error', (error) => {
        sourceError = error;
      });
      // Streamed multipart upload (one PutObject when the file fits in one part); a failure aborts
      // the multipart upload (leavePartsOnError false), so no parts are left behind.
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: source, ContentType: 'application/octet-stream' },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
      });
      try {
        await upload.done();
      } catch (error) {
        if (!source.destroyed) source.destroy();
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
