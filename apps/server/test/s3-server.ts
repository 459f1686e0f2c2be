import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { CreateBucketCommand, ListObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Settings } from '../src/config.js';

/** A real S3-compatible server (s3rver) on a free loopback port, storing into a temporary directory. */
export interface TestS3 {
  settings: S3Settings;
  /** The S3_* variables that select it. */
  env: Record<string, string>;
  /**
   * Keys of every object in the bucket, read through the S3 API page by page (`pageSize` keys a
   * request; S3's own ceiling is 1,000).
   */
  objectKeys(pageSize?: number): Promise<string[]>;
  /** An outage: the server stops listening, its objects kept; resume() serves them again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3(bucket = 'suite-files'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  let server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  let paused = false;
  const settings: S3Settings = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    settings,
    env: s3Env(settings),
    async objectKeys(pageSize = 1000) {
      // ListObjects (v1) with Marker = the last key seen: s3rver makes a v2 ContinuationToken with DES,
      // which Node 20's OpenSSL 3 refuses (ERR_OSSL_EVP_UNSUPPORTED, a 500 for every truncated v2 page).
      const keys: string[] = [];
      for (let marker: string | undefined; ;) {
        const page = await client.send(new ListObjectsCommand({ Bucket: bucket, Marker: marker, MaxKeys: pageSize }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key ?? ''));
        if (!page.IsTruncated || !page.Contents?.length) return keys.sort();
        marker = keys.at(-1);
      }
    },
    async pause() {
      paused = true;
      await server.close();
    },
    async resume() {
      server = new S3rver({ port, address: '127.0.0.1', silent: true, directory });
      await server.run();
      paused = false;
    },
    async stop() {
      client.destroy();
      if (!paused) await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

function s3Env(settings: S3Settings): Record<string, string> {
  return {
    S3_ENDPOINT: settings.endpoint,
    S3_BUCKET: settings.bucket,
    S3_REGION: settings.region,
    S3_ACCESS_KEY_ID: settings.accessKeyId,
    S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
    S3_FORCE_PATH_STYLE: String(settings.forcePathStyle),
  };
}

/** A loopback port nothing listens on (bound, then released): an object store that is down. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
