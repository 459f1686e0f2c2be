import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { cleanDisplayName, pageUrl, type ShareLink, type StoredFile } from '@suite/contract';
import { AppError, unavailable } from '../../errors.js';
import { isDatabaseUnavailable } from '../../db/outage.js';
import type { FileStorage } from '../../plugins/storage.js';
import { newId } from './ids.js';
import { UploadMeter, TooLargeError } from './meter.js';
import { cleanContentType, cleanFileName } from './names.js';
import type { StorageQuota } from './quota.js';
import { filesRepository, type FileRow, type FilesRepository, type ShareRow } from './repository.js';

/** 32 random bytes, base64url: 256 bits in 43 characters. */
const SHARE_KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** An upload larger than it declared raises its quota hold in steps of this (the final check is exact). */
const HOLD_STEP = 1024 * 1024;
const sha256 = (value: string) => createHash('sha256').update(value).digest();
const iso = (ms: number) => new Date(ms).toISOString();

export interface UploadPart {
  filename: string | undefined;
  mimetype: string | undefined;
  file: Readable & { truncated?: boolean };
}

function toStoredFile(row: FileRow): StoredFile {
  return {
    _id: row.id,
    name: row.name,
    content_type: row.content_type,
    size: row.size,
    created_at: iso(row.created_at),
  };
}

function toShareLink(row: ShareRow, extra: { share_key?: string; url?: string } = {}): ShareLink {
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
  quota: StorageQuota;
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

  /**
   * Streams the part into storage within the owner's quota; on any failure, including the size
   * limit and the quota, nothing is kept. `declared`: the file's size as far as the request tells it
   * before a byte is read (at most `likely`, at least `least`; 0 when unknown), held against the quota.
   */
  async function upload(
    ownerId: string,
    part: UploadPart,
    declared: { likely: number; least: number } = { likely: 0, least: 0 },
  ): Promise<StoredFile> {
    const cap = (n: number) => Math.min(n, deps.maxUploadBytes);
    const hold = await deps.quota.reserve(ownerId, cap(declared.likely), cap(declared.least));
    // The object is stored under the hold's id: if the process dies before the file's row is written,
    // the expired hold names the object to remove (abandoned.ts).
    const storageKey = hold.id;
    const meter = new UploadMeter(deps.maxUploadBytes, (size) =>
      size - hold.bytes >= HOLD_STEP ? deps.quota.grow(hold, size) : undefined,
    );
    try {
      const results = await Promise.allSettled([pipeline(part.file, meter), storage.put(storageKey, meter)]);
      const reasons = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      const source = results[0].status === 'rejected' ? (results[0].reason as unknown) : undefined;
      if (reasons.length || part.file.truncated) {
        await storage.delete(storageKey).catch((error: unknown) => {
          deps.log.error({ err: error, storageKey }, 'failed upload could not be removed from storage');
        });
        if (part.file.truncated || reasons.some((r) => r instanceof TooLargeError)) {
          throw new AppError('ERR_FILE_TOO_LARGE');
        }
        // The quota or an unreachable store rather than the stream error either one caused.
        const known = reasons.find((r) => r instanceof AppError);
        if (known) throw known;
        // Else the request's own body broke off or is malformed (no closing boundary): a 400, not a 500.
        if (source !== undefined) throw new AppError('ERR_REQUEST');
        throw reasons[0];
      }
      const row: FileRow = {
        id: newId(),
        owner_id: ownerId,
        name: cleanFileName(part.filename),
        content_type: cleanContentType(part.mimetype),
        size: meter.bytes,
        sha256: meter.digest(),
        storage_key: storageKey,
        created_at: now(),
      };
      try {
        await deps.quota.commit(hold, row.size, (trx) => filesRepository(trx).insertFile(row));
      } catch (error) {
        await storage.delete(storageKey).catch(() => undefined);
        throw error;
      }
      return toStoredFile(row);
    } finally {
      await deps.quota.release(hold).catch((error: unknown) => {
        deps.log.warn({ err: error }, 'quota hold not released (it expires by itself)');
      });
    }
  }

  /** The bytes go first: a store that cannot be reached leaves the file listed (503) rather than orphaned bytes. */
  async function remove(ownerId: string, fileId: string): Promise<void> {
    const row = await ownFile(ownerId, fileId);
    await storage.delete(row.storage_key);
    await repo.deleteFile(row.id);
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
    const url = `${deps.publicUrl}${pageUrl('fileDownload', { fileId: file.id }, { share_key: shareKey })}`;
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
      if (isDatabaseUnavailable(error)) throw unavailable();
      deps.log.error({ err: error }, 'share link check failed');
      throw new AppError('ERR_FILE_LINK_PROCESSING_FAILED');
    }
  }

  /**
   * Who shared a linked file, as its download page names them: the owner's display name (never an
   * address: whoever holds the link reads it), null when there is none or the account was deactivated.
   * A failure here costs the line, not the download.
   */
  async function sharedBy(file: FileRow): Promise<string | null> {
    try {
      const owner = await repo.ownerName(file.owner_id);
      return owner ? cleanDisplayName(`${owner.first_name} ${owner.last_name}`) || null : null;
    } catch (error) {
      deps.log.warn({ err: error }, 'share link: owner name not read');
      return null;
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
    sharedBy,
    list: async (ownerId: string) => (await repo.listFiles(ownerId)).map(toStoredFile),
    usage: (ownerId: string) => deps.quota.usage(ownerId),
  };
}
export type FilesService = ReturnType<typeof filesService>;
