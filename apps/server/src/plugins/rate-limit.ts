import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ERRORS, normalizeEmail } from '@suite/contract';
import { AppError } from '../errors.js';

export interface LimitOptions {
  /** Requests allowed per window (before RATE_LIMIT_SCALE). */
  max: number;
  /** Window, e.g. '1 minute', '15 minutes'. */
  window: string;
  /**
   * 'ip' (default); 'user': the signed-in user (after app.authenticate; the IP without a session);
   * or a body field whose value (e-mail, in its canonical form) is the key.
   */
  by?: 'ip' | 'user' | { bodyField: string };
  /** Bucket name, so that two routes do not share counters. */
  name: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A preHandler that limits a route per IP or per submitted address; 429 with Retry-After. */
    limit: (options: LimitOptions) => preHandlerAsyncHookHandler;
  }
}

export default fp(async function limits(app: FastifyInstance, opts: { scale: number; redisUrl?: string | undefined }) {
  let redis: unknown;
  if (opts.redisUrl) {
    const { Redis } = await import('ioredis');
    redis = new Redis(opts.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 });
    app.addHook('onClose', async () => (redis as { quit(): Promise<unknown> }).quit());
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis } : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error_code: 'ERR_RATE_LIMITED',
      message: ERRORS.ERR_RATE_LIMITED.message,
      retryAfter: context.after,
    }),
  });
  // createRateLimit, not rateLimit: @fastify/rate-limit's handlers run only the first limiter of a
  // request, and routes need two (per IP and per address).
  app.decorate('limit', (options: LimitOptions) => {
    const by = options.by ?? 'ip';
    const check = app.createRateLimit({
      max: Math.max(1, Math.round(options.max * opts.scale)),
      timeWindow: options.window,
      keyGenerator: (request: FastifyRequest) => {
        if (by === 'ip') return `${options.name}:ip:${request.ip}`;
        if (by === 'user') return `${options.name}:user:${request.user?.id ?? `ip:${request.ip}`}`;
        const value = (request.body as Record<string, unknown> | undefined)?.[by.bodyField];
        return `${options.name}:addr:${typeof value === 'string' ? normalizeEmail(value) : request.ip}`;
      },
    });
    const handler: preHandlerAsyncHookHandler = async (request) => {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        throw new AppError('ERR_RATE_LIMITED', {
          headers: { 'retry-after': String(Math.max(1, result.ttlInSeconds)) },
        });
      }
    };
    return handler;
  });
});
