import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IdSchema,
  API,
  CreateShareRequestSchema,
  ErrorBodySchema,
  FileIdParamsSchema,
  FileListSchema,
  OkSchema,
  ShareKeyQuerySchema,
  ShareLinkSchema,
  ShareListSchema,
  StoredFileSchema,
  ValidatingLinkResponseSchema,
} from '@suite/contract';
import type { AppConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { sendFile } from './download.js';
import { storageQuota } from './quota.js';
import { filesRepository } from './repository.js';
import { filesService } from './service.js';

/** Room for the multipart envelope (boundaries, part headers) around the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** Part headers (Content-Disposition with the name, Content-Type) rarely take more than this. */
const PART_HEADERS_ALLOWANCE = 4 * 1024;

/**
 * The file's size as a multipart body of Content-Length bytes tells it before it is read: `likely`
 * is the length minus the smallest envelope (`--B\r\n`, the blank line ending the part headers,
 * `\r\n--B--`), `least` also allows for the part headers. Zeros when no length is declared.
 */
function declaredFileBytes(headers: { 'content-length'?: string; 'content-type'?: string }) {
  const length = Number(headers['content-length'] ?? 0);
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(headers['content-type'] ?? '');
  const envelope = 2 * (boundary?.[1] ?? boundary?.[2] ?? '').length + 14;
  const likely = Number.isSafeInteger(length) ? Math.max(0, length - envelope) : 0;
  return { likely, least: Math.max(0, likely - PART_HEADERS_ALLOWANCE) };
}
/** Errors answered before the body is read: the connection closes instead of draining it. */
const ANSWERED_EARLY = new Set(['ERR_FILE_TOO_LARGE', 'ERR_STORAGE_QUOTA_EXCEEDED']);
const ShareParamsSchema = FileIdParamsSchema.extend({ shareId: IdSchema });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema };
const linkErrors = { ...errors, 410: ErrorBodySchema, 500: ErrorBodySchema, 503: ErrorBodySchema };

/** Shared files: the owner's upload/list/delete and share links, and the two public link calls. */
const filesRoutes: FastifyPluginAsyncZod<{ config: AppConfig }> = async (app, { config }) => {
  const maxUploadBytes = config.maxUploadBytes;
  // +1 byte: the upload meter sees the first byte over the limit and reports 413 instead of a truncated file.
  await app.register(multipart, { limits: { fileSize: maxUploadBytes + 1, files: 1, fields: 4, parts: 5 } });
  const service = filesService({
    repo: filesRepository(app.db.kysely),
    storage: app.storage,
    quota: storageQuota({
      db: app.db.kysely,
      dialect: app.db.dialect,
      quotaBytes: config.storageQuotaBytes,
      now: Date.now,
    }),
    publicUrl: config.publicUrl,
    maxUploadBytes,
    log: app.log,
  });
  const closing = (code: 'ERR_FILE_TOO_LARGE' | 'ERR_STORAGE_QUOTA_EXCEEDED') =>
    new AppError(code, { headers: { connection: 'close' } });
  const tooLarge = () => closing('ERR_FILE_TOO_LARGE');

  app.post(
    API.files,
    {
      config: { session: 'full' },
      schema: {
        tags: ['files'],
        response: { 201: StoredFileSchema, 413: ErrorBodySchema, 503: ErrorBodySchema, ...errors },
      },
      preHandler: [app.limit({ name: 'files-upload', max: 30, window: '1 minute' })],
    },
    async (request, reply) => {
      const userId = request.user!.id;
      // Refuse a declared oversize body before reading a byte of it.
      if (Number(request.headers['content-length'] ?? 0) > maxUploadBytes + MULTIPART_OVERHEAD) throw tooLarge();
      if (!request.isMultipart())
        throw new AppError('ERR_VALIDATION', { details: [{ path: 'file', message: 'multipart/form-data expected' }] });
      const part = await request.file().catch((error: { statusCode?: number }) => {
        throw error.statusCode === 413 ? tooLarge() : new AppError('ERR_VALIDATION');
      });
      if (!part) throw new AppError('ERR_VALIDATION', { details: [{ path: 'file', message: 'a file is required' }] });
      const stored = await service
        .upload(
          userId,
          { filename: part.filename, mimetype: part.mimetype, file: part.file },
          declaredFileBytes(request.headers),
        )
        .catch((error: unknown) => {
          if (error instanceof AppError && ANSWERED_EARLY.has(error.code))
            throw closing(error.code as 'ERR_FILE_TOO_LARGE');
          throw error;
        });
      return reply.status(201).send(stored);
    },
  );

  app.get(
    API.files,
    { config: { session: 'full' }, schema: { tags: ['files'], response: { 200: FileListSchema, ...errors } } },
    async (request) => {
      const userId = request.user!.id;
      const [data, usage] = await Promise.all([service.list(userId), service.usage(userId)]);
      return { data, ...usage };
    },
  );

  app.delete(
    API.file,
    {
      config: { session: 'full' },
      schema: {
        tags: ['files'],
        params: FileIdParamsSchema,
        response: { 200: OkSchema, 503: ErrorBodySchema, ...errors },
      },
    },
    async (request) => {
      await service.remove(request.user!.id, request.params.fileId);
      return { ok: true as const };
    },
  );

  app.get(
    API.fileShares,
    {
      config: { session: 'full' },
      schema: {
        tags: ['files'],
        params: FileIdParamsSchema,
        response: { 200: ShareListSchema, ...errors },
      },
    },
    async (request) => ({ data: await service.listShares(request.user!.id, request.params.fileId) }),
  );

  app.post(
    API.fileShares,
    {
      config: { session: 'full' },
      schema: {
        tags: ['files'],
        params: FileIdParamsSchema,
        body: CreateShareRequestSchema,
        response: { 201: ShareLinkSchema, ...errors },
      },
      preHandler: [app.limit({ name: 'files-share', max: 60, window: '1 minute' })],
    },
    async (request, reply) => {
      const link = await service.createShare(request.user!.id, request.params.fileId, request.body?.expires_at);
      return reply.status(201).send(link);
    },
  );

  app.delete(
    API.fileShare,
    {
      config: { session: 'full' },
      schema: {
        tags: ['files'],
        params: ShareParamsSchema,
        response: { 200: ShareLinkSchema, ...errors },
      },
    },
    async (request) => service.revokeShare(request.user!.id, request.params.fileId, request.params.shareId),
  );

  app.get(
    API.validatingLink,
    {
      preHandler: app.limit({ name: 'files-validate', max: 60, window: '1 minute' }),
      schema: {
        tags: ['files'],
        params: FileIdParamsSchema,
        querystring: ShareKeyQuerySchema,
        response: { 200: ValidatingLinkResponseSchema, ...linkErrors },
      },
    },
    async (request, reply) => {
      const { file } = await service.resolveLink(request.params.fileId, request.query.share_key);
      void reply.header('cache-control', 'no-store');
      return {
        name: file.name,
        size: file.size,
        content_type: file.content_type,
        shared_by: await service.sharedBy(file),
      };
    },
  );

  // HEAD is handled here rather than by Fastify's generated HEAD route, which would read the whole file.
  app.route({
    method: ['GET', 'HEAD'],
    url: API.downloadLink,
    preHandler: app.limit({ name: 'files-download', max: 120, window: '1 minute' }),
    schema: { tags: ['files'], params: FileIdParamsSchema, querystring: ShareKeyQuerySchema },
    handler: async (request, reply) => {
      const { file, size } = await service.resolveLink(request.params.fileId, request.query.share_key);
      return sendFile(request, reply, app.storage, {
        file,
        size,
        forceDownload: request.query.force_download !== 'false',
      });
    },
  });
};

export default filesRoutes;
