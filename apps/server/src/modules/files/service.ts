import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { ShareLink, StoredFile } from '@suite/contract';
import { AppError } from '../../errors.js';
import { isDatabaseUnavailable, serviceUnavailable } from '../../db/outage.js';
import type { FileStorage } from '../../plugins/storage.js';
import { UploadMeter, TooLargeError } from './meter.js';
import { cleanContentType, cleanFileName } from './names.js';
import type { FileRow, FilesRepository, ShareRow } from './repository.js';

/** 32 random bytes, base64url: 256 bits in 43 characters. */
const SHARE_KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const newId = () => randomBytes(16).toString('base64url');
const sha256 = (value: string) => createHash('sha256').update(value).digest();
const iso = (ms: number) => new Date(ms).toISOString();

export interface UploadPart {
  filename: string | undefined;
  mimetype: string | undefined;
  file: Readable & { truncated?: boolean };
}

export function toStoredFile(row: FileRow): StoredFile {
  return {
    _id: row.id,
    name: row.name,
    content_type: row.content_type,
    size: row.size,
    created_at: iso(row.created_at),
  };
}

export function toShareLink(row: ShareRow, extra: { share_key?: string; url?: string } = {}): ShareLink {
  return {
    _id: row.id,
    file_id: row.file_id,
    expires_at: row.expires_at === null ? null : iso(row.expires_at),
    revoked: row.revoked_at !== null,
    created_at: iso(row.created_at),
    ...extra,
  };
}

export interface FilesServiceDeps {
  repo: FilesRepository;
  storage: FileStorage;
  publicUrl: string;
  maxUploadBytes: number;
  log: FastifyBaseLogger;
  now?: () => number;
}

export function filesService(deps: FilesServiceDeps) {
  const { repo, storage } = deps;
  const now = deps.now ?? Date.now;

  async function ownFile(ownerId: string, fileId: string): Promise<FileRow> {
    const row = await repo.ownFile(ownerId, fileId);
    // Someone else's file answers exactly like a missing one.
    if (!row) throw new AppError('ERR_NOT_FOUND');
    return row;
  }

  /** Streams the part into storage; on any failure, including the size limit, nothing is kept. */
  async function upload(ownerId: string, part: UploadPart): Promise<StoredFile> {
    const storageKey = newId();
    const meter = new UploadMeter(deps.maxUploadBytes);
    const results = await Promise.allSettled([pipeline(part.file, meter), storage.put(storageKey, meter)]);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure || part.file.truncated) {
      await storage.delete(storageKey);
      if (part.file.truncated || failure?.reason instanceof TooLargeError) throw new AppError('ERR_FILE_TOO_LARGE');
      throw failure?.reason;
    }
    const row: FileRow = {
      id: newId(),
      owner_id: ownerId,
      name: cleanFileName(part.filename),
      content_type: cleanContentType(part.mimetype),
      size: meter.size,
      sha256: meter.digest(),
      storage_key: storageKey,
      created_at: now(),
    };
    try {
      await repo.insertFile(row);
    } catch (error) {
      await storage.delete(storageKey);
      throw error;
    }
    return toStoredFile(row);
  }

  async function remove(ownerId: string, fileId: string): Promise<void> {
    const row = await ownFile(ownerId, fileId);
    await repo.deleteFile(row.id);
    await storage.delete(row.storage_key);
  }

  async function createShare(ownerId: string, fileId: string, expiresAt: string | undefined): Promise<ShareLink> {
    const file = await ownFile(ownerId, fileId);
    const created = now();
    const expires = expiresAt === undefined ? null : Date.parse(expiresAt);
    if (expires !== null && !(expires > created)) {
      throw new AppError('ERR_VALIDATION', { details: [{ path: 'expires_at', message: 'must be in the future' }] });
    }
    const shareKey = randomBytes(32).toString('base64url');
    const row: ShareRow = {
      id: newId(),
      file_id: file.id,
      key_hash: sha256(shareKey).toString('hex'),
      expires_at: expires,
      revoked_at: null,
      created_at: created,
    };
    await repo.insertShare(row);
    const url = `${deps.publicUrl}/file/${encodeURIComponent(file.id)}/download_link?share_key=${shareKey}`;
    return toShareLink(row, { share_key: shareKey, url });
  }

  async function listShares(ownerId: string, fileId: string): Promise<ShareLink[]> {
    const file = await ownFile(ownerId, fileId);
    return (await repo.listShares(file.id)).map((row) => toShareLink(row));
  }

  async function revokeShare(ownerId: string, fileId: string, shareId: string): Promise<ShareLink> {
    const file = await ownFile(ownerId, fileId);
    const share = await repo.share(file.id, shareId);
    if (!share) throw new AppError('ERR_NOT_FOUND');
    await repo.revokeShare(share.id, now());
    return toShareLink((await repo.share(file.id, shareId)) ?? share);
  }

  /**
   * The checks behind both public link calls. A stranger (no valid key for this file) always gets
   * ERR_FILE_LINK_INVALID, whether or not the file exists; only a holder of the key can learn that
   * the link expired or that the file could not be read.
   */
  async function resolveLink(fileId: string, shareKey: string | undefined): Promise<{ file: FileRow; size: number }> {
    try {
      const file = await findLinkedFile(fileId, shareKey);
      const stat = await storage.stat(file.storage_key);
      if (!stat || stat.size !== file.size) {
        deps.log.error({ fileId: file.id }, 'shared file missing or changed in storage');
        throw new AppError('ERR_FILE_LINK_PROCESSING_FAILED');
      }
      return { file, size: stat.size };
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (isDatabaseUnavailable(error)) throw serviceUnavailable();
      deps.log.error({ err: error }, 'share link check failed');
      throw new AppError('ERR_FILE_LINK_PROCESSING_FAILED');
    }
  }

  async function findLinkedFile(fileId: string, shareKey: string | undefined): Promise<FileRow> {
    if (!shareKey || !SHARE_KEY_SHAPE.test(shareKey)) throw new AppError('ERR_FILE_LINK_INVALID');
    const presented = sha256(shareKey);
    const share = await repo.shareByKeyHash(presented.toString('hex'));
    const matches =
      share !== undefined && timingSafeEqual(Buffer.from(share.key_hash, 'hex'), presented) && share.file_id === fileId;
    if (!share || !matches || share.revoked_at !== null) throw new AppError('ERR_FILE_LINK_INVALID');
    if (share.expires_at !== null && share.expires_at <= now()) throw new AppError('ERR_FILE_LINK_EXPIRED');
    const file = await repo.fileById(share.file_id);
    if (!file) throw new AppError('ERR_FILE_LINK_INVALID');
    return file;
  }

  return {
    upload,
    remove,
    createShare,
    listShares,
    revokeShare,
    resolveLink,
    list: async (ownerId: string) => (await repo.listFiles(ownerId)).map(toStoredFile),
  };
}
export type FilesService = ReturnType<typeof filesService>;
