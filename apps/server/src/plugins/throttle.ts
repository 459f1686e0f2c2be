import { setTimeout as sleep } from 'node:timers/promises';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { normalizeEmail, type CaptchaAction } from '@suite/contract';
import { AppError } from '../errors.js';
import { windowMs } from './rate-limit.js';

/**
 * Throttling that protects an account without handing attackers a lock (docs/security.md):
 *
 * - per (address, client IP): at most `perClient` counted requests a window, then 429 for that client
 *   only — a stranger who keeps failing locks out their own client, never the owner's;
 * - per address over all clients: past `ceiling` counted requests a window, each further request is
 *   SLOWED (exponential delay, 250 ms doubling up to 30 s) but never refused, so the right secret from a
 *   client that has not been failing still gets in, and distributed guessing is slowed. On the routes
 *   with a `stepUp` action (no captcha of their own), where a captcha is configured, the slow-down is a
 *   captcha step-up instead: past the ceiling a captcha answer is required (ERR_CAPTCHA_REQUIRED).
 *
 * `counts: 'failures'` (login, code checks): every request is counted when it starts (so parallel
 * guesses cannot slip past the limit) and refunded when it succeeds (2xx): what stays counted are the
 * failures. A success also clears the client's count. `counts: 'all'` (code sends): every request
 * costs, a stranger's sends from one client stop at `perClient`, and many clients are slowed.
 * Counters live in the shared counter store (Redis with REDIS_URL).
 */
export interface ThrottleOptions {
  /** Bucket name. */
  name: string;
  /** Body field holding the address. */
  field: string;
  perClient: number;
  ceiling: number;
  window: string;
  counts: 'failures' | 'all';
  /**
   * Captcha step-up, for routes that do not ask for a captcha on every request (the code checks): where
   * a captcha is configured, a request past the ceiling must carry a captcha answer for this action
   * instead of being slowed. Without one it is refused with ERR_CAPTCHA_REQUIRED and not counted (it
   * tried no secret); with a valid one it goes on at once. Without a captcha configured: the delay.
   */
  stepUp?: CaptchaAction;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A preHandler applying the per-(address, client) limit and the per-address slow-down. */
    throttle: (options: ThrottleOptions) => preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    throttled: { client: string; address: string; counts: 'failures' | 'all' }[] | null;
  }
}

export const SLOWDOWN_BASE_MS = 250;
export const SLOWDOWN_MAX_MS = 30_000;

/** The delay for the n-th counted request past the ceiling (n ≥ 1). */
export const slowdownMs = (over: number) =>
  over <= 0 ? 0 : Math.min(SLOWDOWN_MAX_MS, SLOWDOWN_BASE_MS * 2 ** Math.min(over - 1, 20));

export default fp(async function throttle(app: FastifyInstance, opts: { scale: number }) {
  app.decorateRequest('throttled', null);

  app.decorate('throttle', (options: ThrottleOptions) => {
    const perClient = Math.max(1, Math.round(options.perClient * opts.scale));
    const ceiling = Math.max(1, Math.round(options.ceiling * opts.scale));
    const ms = windowMs(options.window);
    const handler: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
      const raw = (request.body as Record<string, unknown> | undefined)?.[options.field];
      if (typeof raw !== 'string' || !raw.trim()) return;
      const address = `${options.name}:addr:${normalizeEmail(raw)}`;
      const client = `${address}:ip:${request.ip}`;
      const mine = await app.counters.hit(client, ms);
      if (mine.count > perClient) {
        throw new AppError('ERR_RATE_LIMITED', {
          headers: { 'retry-after': String(Math.max(1, Math.ceil(mine.ttlMs / 1000))) },
        });
      }
      const all = await app.counters.hit(address, ms);
      if (options.stepUp && app.captchaEnabled && all.count > ceiling) {
        const token = (request.body as { captcha_token?: unknown }).captcha_token;
        if (typeof token !== 'string' || !token) {
          await app.counters.hit(client, ms, -1);
          await app.counters.hit(address, ms, -1);
          request.log.warn({ bucket: options.name, over: all.count - ceiling }, 'address throttled: captcha asked');
          throw new AppError('ERR_CAPTCHA_REQUIRED');
        }
        (request.throttled ??= []).push({ client, address, counts: options.counts });
        await app.checkCaptcha(request, [options.stepUp]);
        return;
      }
      (request.throttled ??= []).push({ client, address, counts: options.counts });
      const delay = slowdownMs(all.count - ceiling);
      if (delay > 0) {
        request.log.warn({ bucket: options.name, over: all.count - ceiling, delay }, 'address throttled: slowing down');
        await sleep(delay);
      }
    };
    return handler;
  });

  // A success refunds what the request was counted for: only failures stay counted.
  // A callback hook, so that the answers of every other route pass it without a promise.
  app.addHook('onResponse', (request, reply, done) => {
    const marks = request.throttled;
    if (!marks || reply.statusCode >= 300) return done();
    const refund = async () => {
      for (const mark of marks) {
        if (mark.counts !== 'failures') continue;
        await app.counters.reset(mark.client);
        await app.counters.hit(mark.address, 1, -1);
      }
    };
    refund().then(() => done(), done);
  });
});
