import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { checkKey, StorageUnavailableError, type FileStorage } from './storage-api.js';
import type { S3Settings } from '../config.js';

export * from './storage-api.js';

/** Larger reads than the 64 KiB default: fewer syscalls and event-loop turns per large download. */
const READ_CHUNK = 512 * 1024;

/** Partial writes older than this are leftovers of a crash (a live upload renames its file on completion). */
const STALE_PART_MS = 24 * 3600 * 1000;

async function removeStaleParts(root: string): Promise<void> {
  const names = (await readdir(root)).filter((n) => n.startsWith('.') && n.endsWith('.part'));
  for (const name of names) {
    const path = join(root, name);
    const info = await stat(path).catch(() => null);
    if (info && Date.now() - info.mtimeMs > STALE_PART_MS) await unlink(path).catch(() => undefined);
  }
}

/** Files under one directory; a write goes to a temporary name and is renamed when complete. */
export function createDiskStorage(root: string): FileStorage {
  const ready = mkdir(root, { recursive: true }).then(() => removeStaleParts(root).catch(() => undefined));
  const pathOf = (key: string) => join(root, checkKey(key));
  return {
    kind: 'disk',
    async put(key, source) {
      await ready;
      const final = pathOf(key);
      const partial = join(root, `.${key}.${randomBytes(6).toString('hex')}.part`);
      const sink = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
      try {
        await pipeline(source, sink);
        await rename(partial, final);
      } catch (error) {
        // The file is opened asynchronously: a source that fails at once (over the size limit) can reject
        // the pipeline before the open has even created it. Removed only once closed, it stays removed.
        if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
        await unlink(partial).catch(() => undefined);
        throw error;
      }
    },
    async get(key, range) {
      await ready;
      const stream = createReadStream(pathOf(key), {
        highWaterMark: READ_CHUNK,
        ...(range ? { start: range.start, end: range.end } : {}),
      });
      // Surface a missing file as a rejected promise instead of a stream error after headers are sent.
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      return stream;
    },
    async stat(key) {
      await ready;
      try {
        const info = await stat(pathOf(key));
        return info.isFile() ? { size: info.size } : null;
      } catch {
        return null;
      }
    },
    async delete(key) {
      await ready;
      await unlink(pathOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },
    async probe() {
      await ready;
      await access(root, constants.W_OK).catch((error: unknown) => {
        throw new StorageUnavailableError(error);
      });
    },
    close: async () => undefined,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: FileStorage;
  }
}

/**
 * Shared files live in the S3-compatible store when one is configured, else under DATA_DIR/files.
 * The AWS SDK is loaded only in the first case: the embedded default starts without it.
 */
async function storage(app: FastifyInstance, opts: { dataDir: string; s3: S3Settings | undefined }) {
  const storage = opts.s3
    ? (await import('./storage-s3.js')).createS3Storage(opts.s3, app.log, (operation) => {
        // The metrics plugin registers after this one: looked up when a call fails.
        if (app.hasDecorator('recordStorageError')) app.recordStorageError(operation);
      })
    : createDiskStorage(join(opts.dataDir, 'files'));
  app.decorate('storage', storage);
  app.addHook('onClose', async () => storage.close());
}

export default fp(storage, { name: 'storage' });
