import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, type ErrorCode } from '@suite/contract';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, unavailable } from '../errors.js';
import { isDatabaseUnavailable, isUnstorableText } from '../db/outage.js';

function body(code: ErrorCode, message?: string, details?: { path: string; message: string }[]) {
  return { error_code: code, message: message ?? ERRORS[code].message, ...(details ? { details } : {}) };
}

/** The catalogue code of a framework error's status: never the framework's own text (it echoes the URL). */
function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'ERR_UNAUTHORIZED';
  if (status === 404) return 'ERR_NOT_FOUND';
  if (status === 405) return 'ERR_METHOD_NOT_ALLOWED';
  if (status === 413) return 'ERR_PAYLOAD_TOO_LARGE';
  if (status === 414) return 'ERR_URI_TOO_LONG';
  if (status === 415) return 'ERR_UNSUPPORTED_MEDIA_TYPE';
  if (status === 429) return 'ERR_RATE_LIMITED';
  if (status === 431) return 'ERR_HEADERS_TOO_LARGE';
  return 'ERR_REQUEST';
}

/**
 * Fastify's `frameworkErrors`: a URL that cannot be decoded (400) or a path parameter longer than
 * maxParamLength (414) is answered before routing; by default with a body that echoes the path.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const code = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'ERR_URI_TOO_LONG' : 'ERR_REQUEST';
  void reply.status(ERRORS[code].status).send(body(code));
}

/**
 * Node's HTTP parser refuses a request before Fastify sees it (headers or request line too large,
 * malformed request): the same catalogue shape, written on the socket, then the connection closes.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const code = status === 431 ? 'ERR_HEADERS_TOO_LARGE' : 'ERR_REQUEST';
  const text = JSON.stringify(body(code));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

function sendAppError(reply: FastifyReply, error: AppError) {
  if (error.headers) void reply.headers(error.headers);
  return reply.status(error.status).send(body(error.code, error.message, error.details));
}

/** Every error leaves as `{ error_code, message }`; no stack, no SQL, never the raw exception text. */
async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) return sendAppError(reply, error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'invalid',
      }));
      return reply.status(400).send(body('ERR_VALIDATION', undefined, details));
    }
    const status = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 413 : (error.statusCode ?? 500);
    if (status >= 400 && status < 500) {
      const code = codeForStatus(status);
      return reply.status(ERRORS[code].status).send(body(code));
    }
    if (isUnstorableText(error)) return reply.status(400).send(body('ERR_REQUEST'));
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return sendAppError(reply, unavailable());
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body('ERR_INTERNAL'));
  });
}

export default fp(errors, { name: 'errors' });
