import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ERRORS, type ErrorCode } from '@suite/contract';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';
import { isDatabaseUnavailable, RETRY_AFTER_S } from '../db/outage.js';

function body(code: ErrorCode, message?: string, details?: { path: string; message: string }[]) {
  return { error_code: code, message: message ?? ERRORS[code].message, ...(details ? { details } : {}) };
}

/** Every error leaves as `{ error_code, message }`; no stack, no SQL, never the raw exception text. */
export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) void reply.headers(error.headers);
      return reply.status(error.status).send(body(error.code, error.message, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'invalid',
      }));
      return reply.status(400).send(body('ERR_VALIDATION', undefined, details));
    }
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send(body('ERR_PAYLOAD_TOO_LARGE'));
    }
    if (status === 429) {
      return reply.status(429).send(body('ERR_RATE_LIMITED'));
    }
    if (status === 401) return reply.status(401).send(body('ERR_UNAUTHORIZED'));
    if (status === 404) return reply.status(404).send(body('ERR_NOT_FOUND'));
    if (status >= 400 && status < 500) {
      return reply.status(status === 415 ? 415 : 400).send(body('ERR_REQUEST'));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', String(RETRY_AFTER_S)).send(body('ERR_SERVICE_UNAVAILABLE'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body('ERR_INTERNAL'));
  });
});
