import contentDisposition from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../../errors.js';
import type { FileStorage } from '../../plugins/storage.js';
import { parseRange } from './http-range.js';
import { isInlineSafe } from './names.js';
import type { FileRow } from './repository.js';

interface Validators {
  etag: string;
  lastModified: string;
  /** Last-Modified has second precision; comparisons use the same precision. */
  modifiedSecond: number;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** RFC 9110 §13.1.2/§13.1.3: If-None-Match wins over If-Modified-Since. */
function notModified(headers: IncomingHttpHeaders, v: Validators): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch) return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => opaque(t) === v.etag);
  const since = Date.parse(headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && v.modifiedSecond <= since;
}

/** RFC 9110 §13.1.5: a Range is honoured only if If-Range (when sent) still names this representation. */
function rangeStillValid(headers: IncomingHttpHeaders, v: Validators): boolean {
  const raw = headers['if-range'];
  const ifRange = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!ifRange) return true;
  if (ifRange.startsWith('"')) return ifRange === v.etag;
  if (ifRange.startsWith('W/')) return false;
  return Date.parse(ifRange) === v.modifiedSecond;
}

/**
 * Streams a shared file: attachment unless an inline view was asked for and the type cannot run
 * anything; the sandbox CSP keeps even a mislabelled file inert; single-range requests get 206.
 */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FileStorage,
  options: { file: FileRow; size: number; forceDownload: boolean },
): Promise<FastifyReply> {
  const { file, size } = options;
  const modifiedSecond = Math.floor(file.created_at / 1000) * 1000;
  const v: Validators = {
    etag: `"${Buffer.from(file.sha256, 'hex').toString('base64url')}"`,
    lastModified: new Date(modifiedSecond).toUTCString(),
    modifiedSecond,
  };
  void reply.headers({
    etag: v.etag,
    'last-modified': v.lastModified,
    'accept-ranges': 'bytes',
    // The link can be revoked: shared caches must not keep it, the browser must revalidate.
    'cache-control': 'private, no-cache',
    'content-security-policy': "default-src 'none'; sandbox",
    'referrer-policy': 'no-referrer',
  });
  if (notModified(request.headers, v)) return reply.status(304).send();

  const range = rangeStillValid(request.headers, v)
    ? parseRange(request.headers.range, size)
    : { kind: 'full' as const };
  if (range.kind === 'unsatisfiable') {
    return reply.status(416).header('content-range', `bytes */${size}`).send();
  }
  const inline = !options.forceDownload && isInlineSafe(file.content_type);
  void reply
    .type(file.content_type)
    .header('content-disposition', contentDisposition(file.name, { type: inline ? 'inline' : 'attachment' }));
  const part = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined;
  if (part) void reply.status(206).header('content-range', `bytes ${part.start}-${part.end}/${size}`);
  void reply.header('content-length', part ? part.end - part.start + 1 : size);
  if (request.method === 'HEAD' || size === 0) return reply.send();

  const stream = await storage.get(file.storage_key, part).catch((error: unknown) => {
    if (error instanceof AppError) throw error; // the store is unreachable: 503
    request.log.error({ err: error, fileId: file.id }, 'shared file could not be opened');
    throw new AppError('ERR_FILE_LINK_PROCESSING_FAILED');
  });
  return reply.send(stream);
}
