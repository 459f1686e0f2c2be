import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** Inclusive byte range, as HTTP ranges are. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where shared files' bytes live. Keys are ids the server generates (never user input), so an
 * object store can implement the same four calls later (S3: PutObject / GetObject with Range /
 * HeadObject / DeleteObject).
 */
export interface FileStorage {
  /** Writes the whole stream under `key`; on any failure nothing is left behind under that key. */
  put(key: string, source: Readable): Promise<void>;
  /** Streams the object, or the inclusive `range` of it. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
}

const KEY_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;
/** Larger reads than the 64 KiB default: fewer syscalls and event-loop turns per large download. */
const READ_CHUNK = 512 * 1024;

function checkKey(key: string): string {
  // Defence in depth: keys are generated ids, but a key must never be able to leave the directory.
  if (!KEY_SHAPE.test(key)) throw new Error('invalid storage key');
  return key;
}

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
    async put(key, source) {
      await ready;
      const final = pathOf(key);
      const partial = join(root, `.${key}.${randomBytes(6).toString('hex')}.part`);
      try {
        await pipeline(source, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
        await rename(partial, final);
      } catch (error) {
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
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: FileStorage;
  }
}

/** Shared files live under DATA_DIR/files until an object store implementation is configured. */
export default fp(async function storage(app: FastifyInstance, opts: { dataDir: string }) {
  app.decorate('storage', createDiskStorage(join(opts.dataDir, 'files')));
});
