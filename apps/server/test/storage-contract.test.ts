import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createDiskStorage, StorageUnavailableError, type FileStorage } from '../src/plugins/storage.js';
import { createS3Storage, PART_SIZE } from '../src/plugins/storage-s3.js';
import { loadConfig } from '../src/config.js';
import { configProblems } from './helpers.js';
import { closedPort, startS3 } from './s3-server.js';

const warnings: string[] = [];
const log = { warn: (_details: unknown, message: string) => void warnings.push(message) };
const key = () => randomBytes(16).toString('base64url');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Yields `content` in 64 KiB chunks, as an upload arrives; then fails when `failAfter` is given. */
function source(content: Buffer, failAfter?: number): Readable {
  return Readable.from(
    (function* chunks() {
      for (let at = 0; at < content.length; at += 64 * 1024) {
        if (failAfter !== undefined && at >= failAfter) throw new Error('client went away');
        yield content.subarray(at, at + 64 * 1024);
      }
    })(),
  );
}

interface Backend {
  storage: FileStorage;
  /** Everything stored, as the backend itself lists it (directory entries, or the bucket's objects). */
  listed(): Promise<string[]>;
  stop(): Promise<void>;
}

const backends: [string, () => Promise<Backend>][] = [
  [
    'disk',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'storage-'));
      const storage = createDiskStorage(root);
      return {
        storage,
        listed: async () => readdirSync(root).sort(),
        stop: async () => rmSync(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    's3',
    async () => {
      const s3 = await startS3();
      const storage = createS3Storage(s3.settings, log);
      return {
        storage,
        listed: () => s3.objectKeys(),
        stop: async () => {
          await storage.close();
          await s3.stop();
        },
      };
    },
  ],
];

describe.each(backends)('file storage contract: %s', (_name, start) => {
  let b: Backend;
  beforeAll(async () => {
    b = await start();
  });
  afterAll(async () => b.stop());

  it('stores a stream and gives back the same bytes, whole and by inclusive range', async () => {
    const k = key();
    const content = randomBytes(300_000);
    await b.storage.put(k, source(content));
    expect(await b.storage.stat(k)).toEqual({ size: 300_000 });
    expect(sha(await buffer(await b.storage.get(k)))).toBe(sha(content));
    const part = await buffer(await b.storage.get(k, { start: 1000, end: 1999 }));
    expect(part.equals(content.subarray(1000, 2000))).toBe(true);
    const last = await buffer(await b.storage.get(k, { start: 299_999, end: 299_999 }));
    expect(last.equals(content.subarray(299_999))).toBe(true);
    expect(await b.listed()).toContain(k);
  });

  it('streams a file larger than one multipart part (17 MiB) byte-exact', async () => {
    const k = key();
    const content = randomBytes(17 * 1024 * 1024 + 3);
    await b.storage.put(k, source(content));
    expect(await b.storage.stat(k)).toEqual({ size: content.length });
    expect(sha(await buffer(await b.storage.get(k)))).toBe(sha(content));
    const middle = await buffer(await b.storage.get(k, { start: 8 * 1024 * 1024 - 5, end: 8 * 1024 * 1024 + 4 }));
    expect(middle.equals(content.subarray(8 * 1024 * 1024 - 5, 8 * 1024 * 1024 + 5))).toBe(true);
    await b.storage.delete(k);
  });

  it('stores files of exactly one S3 part and one byte more byte-exact', async () => {
    for (const size of [PART_SIZE, PART_SIZE + 1]) {
      const k = key();
      const content = randomBytes(size);
      await b.storage.put(k, source(content));
      expect(await b.storage.stat(k)).toEqual({ size });
      expect(sha(await buffer(await b.storage.get(k)))).toBe(sha(content));
      await b.storage.delete(k);
    }
  });

  it('stores an empty file', async () => {
    const k = key();
    await b.storage.put(k, source(Buffer.alloc(0)));
    expect(await b.storage.stat(k)).toEqual({ size: 0 });
    await b.storage.delete(k);
  });

  it('leaves nothing behind when the source fails, in the first part or after several', async () => {
    const before = await b.listed();
    for (const [size, failAfter] of [
      [200_000, 100_000],
      [20 * 1024 * 1024, 17 * 1024 * 1024],
    ] as const) {
      const k = key();
      await expect(b.storage.put(k, source(randomBytes(size), failAfter))).rejects.toThrow('client went away');
      expect(await b.storage.stat(k)).toBeNull();
    }
    expect(await b.listed()).toEqual(before);
  });

  it('deletes an object; deleting a missing one is no error; a missing one cannot be read', async () => {
    const k = key();
    await b.storage.put(k, source(Buffer.from('bye')));
    await b.storage.delete(k);
    expect(await b.storage.stat(k)).toBeNull();
    expect(await b.listed()).not.toContain(k);
    await b.storage.delete(k);
    const failure = await b.storage.get(k).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    // Missing bytes are not an outage: the download answers "could not be processed", not 503.
    expect(failure).not.toBeInstanceOf(StorageUnavailableError);
  });

  it('refuses keys that are not generated ids', async () => {
    await expect(b.storage.get('../../etc/passwd')).rejects.toThrow('invalid storage key');
    await expect(b.storage.put('a/b', source(Buffer.from('x')))).rejects.toThrow('invalid storage key');
  });

  it('answers the health probe', async () => {
    await expect(b.storage.probe()).resolves.toBeUndefined();
  });
});

describe("the tests' bucket listing", () => {
  it('reads every page: 7 objects listed 3 keys a request are all there, in order', async () => {
    const s3 = await startS3();
    const storage = createS3Storage(s3.settings, log);
    try {
      const keys = Array.from({ length: 7 }, key);
      for (const k of keys) await storage.put(k, source(randomBytes(10)));
      expect(await s3.objectKeys(3)).toEqual([...keys].sort());
      expect(await s3.objectKeys()).toEqual([...keys].sort());
    } finally {
      await storage.close();
      await s3.stop();
    }
  });
});

describe('S3 storage while the object store is down', () => {
  let storage: FileStorage;
  beforeAll(async () => {
    const s3 = await startS3();
    await s3.stop();
    storage = createS3Storage({ ...s3.settings, endpoint: `http://127.0.0.1:${await closedPort()}` }, log);
  });
  afterAll(async () => storage.close());

  it('fails every call with StorageUnavailableError (503 + Retry-After), never a raw SDK error', async () => {
    const k = key();
    const calls = [
      storage.put(k, source(randomBytes(1000))),
      storage.get(k),
      storage.stat(k),
      storage.delete(k),
      storage.probe(),
    ];
    for (const result of await Promise.allSettled(calls)) {
      expect(result.status).toBe('rejected');
      const reason = (result as PromiseRejectedResult).reason as StorageUnavailableError;
      expect(reason).toBeInstanceOf(StorageUnavailableError);
      expect(reason.status).toBe(503);
      expect(reason.code).toBe('ERR_STORAGE_UNAVAILABLE');
      expect(reason.headers?.['retry-after']).toBe('10');
    }
    expect(warnings).toContain('object storage unavailable');
  });
});

describe('object storage configuration', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'storage-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('names every missing S3 variable, listed with the other problems', () => {
    const problems = configProblems(dataDir, { S3_BUCKET: 'files', PORT: 'nope' });
    expect(problems).toContain(
      'S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: required with the other S3_* variables (object storage)',
    );
    expect(problems.some((p) => p.startsWith('PORT:'))).toBe(true);
    expect(configProblems(dataDir, { S3_FORCE_PATH_STYLE: 'true' })[0]).toMatch(/^S3_ENDPOINT, S3_BUCKET, S3_REGION/);
    expect(configProblems(dataDir, { S3_ENDPOINT: 'ftp://x', STORAGE_QUOTA_MB: '-1' })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^S3_ENDPOINT:/), expect.stringMatching(/^STORAGE_QUOTA_MB:/)]),
    );
  });

  it('selects S3 when all are set, the disk otherwise; the quota defaults to 1024 MB', () => {
    const env = {
      DATA_DIR: dataDir,
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'files',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig(env).s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'files',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: false,
    });
    expect(loadConfig({ DATA_DIR: dataDir }).s3).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dataDir }).storageQuotaBytes).toBe(1024 * 1024 * 1024);
    expect(loadConfig({ DATA_DIR: dataDir, STORAGE_QUOTA_MB: '5' }).storageQuotaBytes).toBe(5 * 1024 * 1024);
  });
});
