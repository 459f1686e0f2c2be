import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { normalizeEmail, type CaptchaAction } from '@suite/contract';
import { AppError } from '../errors.js';
import type { KeyRing } from '../keys.js';
import { marksOf, windowMs } from './rate-limit.js';

/**
 * Throttling that protects an account without handing attackers a lock (docs/security.md):
 *
 * - per (address, client IP): at most `perClient` counted requests a window, then 429 for that client
 *   only — a stranger who keeps failing locks out their own client, never the owner's;
 * - a trusted device (a signed device cookie, set when this address succeeded from it before, as
 *   Kratos and Keycloak do) is kept out of the strangers' bucket: never slowed nor refused for what
 *   other clients did, only its own failures count (past `perClient` it is a stranger again);
 * - per address over all other clients: past `ceiling` counted requests a window, where a captcha is
 *   configured a request goes on at once with its captcha answer (the routes with a `stepUp` action,
 *   which ask for none normally, require one then: ERR_CAPTCHA_REQUIRED); without a captcha, one
 *   request per address at a time is let through after a short delay (250 ms doubling, at most
 *   SLOWDOWN_MAX_MS, well under the web client's 15 s timeout) and the others are refused at once
 *   (429, Retry-After), so guesses cannot be slept in parallel and no socket is held waiting.
 *
 * `counts: 'failures'` (login, code checks): every request is counted when it starts (so parallel
 * guesses cannot slip past the limit) and refunded when it succeeds (2xx): what stays counted are the
 * failures. A success also clears the client's count and sets the device cookie. `counts: 'all'` (code
 * sends): every request costs. Counters live in the shared counter store (Redis with REDIS_URL).
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
   * a captcha is configured, a request past the ceiling must carry a captcha answer for this action.
   * Without one it is refused with ERR_CAPTCHA_REQUIRED and not counted (it tried no secret); with a
   * valid one it goes on at once.
   */
  stepUp?: CaptchaAction;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A preHandler applying the per-(address, client) limit and the per-address ceiling. */
    throttle: (options: ThrottleOptions) => preHandlerAsyncHookHandler;
  }
}

export const SLOWDOWN_BASE_MS = 250;
export const SLOWDOWN_MAX_MS = 2_000;
/** A slot held by an instance that died frees itself after this. */
const SLOT_TTL_MS = SLOWDOWN_MAX_MS + 10_000;

/** The delay for the n-th counted request past the ceiling (n ≥ 1). */
export const slowdownMs = (over: number) =>
  over <= 0 ? 0 : Math.min(SLOWDOWN_MAX_MS, SLOWDOWN_BASE_MS * 2 ** Math.min(over - 1, 20));

const DEVICE_COOKIE = 'suite_device';
/** How long a device stays trusted after its last success. */
const DEVICE_TTL_S = 180 * 24 * 3600;
/** Addresses one browser remembers (a shared family computer); the oldest is forgotten first. */
const DEVICE_ENTRIES = 4;

const deviceMac = (key: Uint8Array, nonce: string, address: string, expires: string) =>
  createHmac('sha256', key).update(`device\n${nonce}\n${address}\n${expires}`).digest().subarray(0, 24);

/** The cookie's entries: `nonce.expires.mac`, '~'-separated (nothing in them names the address). */
function deviceEntries(header: string | undefined): string[] {
  if (!header) return [];
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === DEVICE_COOKIE && value) return value.split('~').slice(0, DEVICE_ENTRIES);
  }
  return [];
}

/** The device id of the entry that `address` signed in with from this browser (and is unexpired), or null. */
function trustedDevice(ring: KeyRing, header: string | undefined, address: string, now = Date.now()) {
  for (const entry of deviceEntries(header)) {
    const [nonce, expires, mac] = entry.split('.');
    if (!nonce || !expires || !mac || !(Number(expires) * 1000 > now)) continue;
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== 24) continue;
    if (ring.verify.some((key) => timingSafeEqual(deviceMac(key, nonce, address, expires), given))) return nonce;
  }
  return null;
}

/** The cookie to set after `address` succeeded: a fresh entry for it, first, and the other addresses' entries. */
function deviceCookie(ring: KeyRing, header: string | undefined, address: string, secure: boolean) {
  const now = Date.now();
  const expires = String(Math.floor(now / 1000) + DEVICE_TTL_S);
  const nonce = randomBytes(12).toString('base64url');
  const mine = `${nonce}.${expires}.${deviceMac(ring.sign, nonce, address, expires).toString('base64url')}`;
  const others = deviceEntries(header).filter((entry) => {
    const expiresAt = Number(entry.split('.')[1]) * 1000;
    return expiresAt > now && trustedDevice(ring, `${DEVICE_COOKIE}=${entry}`, address, now) === null;
  });
  const value = [mine, ...others].slice(0, DEVICE_ENTRIES).join('~');
  return `${DEVICE_COOKIE}=${value}; Max-Age=${DEVICE_TTL_S}; Path=/api; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export default fp(async function throttle(
  app: FastifyInstance,
  opts: { scale: number; deviceKeys: KeyRing; secureCookie: boolean },
) {
  app.decorate('throttle', (options: ThrottleOptions) => {
    const perClient = Math.max(1, Math.round(options.perClient * opts.scale));
    const ceiling = Math.max(1, Math.round(options.ceiling * opts.scale));
    const ms = windowMs(options.window);
    const failures = options.counts === 'failures';
    const handler: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
      const raw = (request.body as Record<string, unknown> | undefined)?.[options.field];
      if (typeof raw !== 'string' || !raw.trim()) return;
      const owner = normalizeEmail(raw);
      const address = `${options.name}:addr:${owner}`;
      const client = `${address}:ip:${request.ip}`;
      const mine = await app.counters.hit(client, ms);
      if (mine.count > perClient) {
        throw new AppError('ERR_RATE_LIMITED', {
          headers: { 'retry-after': String(Math.max(1, Math.ceil(mine.ttlMs / 1000))) },
        });
      }
      const marks = marksOf(request);
      if (failures) {
        marks.reset.push(client);
        marks.owner = owner;
      }
      const device = trustedDevice(opts.deviceKeys, request.headers.cookie, owner);
      if (device) {
        const key = `${address}:dev:${device}`;
        const own = await app.counters.hit(key, ms);
        if (failures) marks.reset.push(key);
        if (own.count <= perClient) return;
      }

      const all = await app.counters.hit(address, ms);
      if (failures) marks.refund.push(address);
      if (all.count <= ceiling) return;
      const notCounted = async () => {
        marks.reset = [];
        marks.refund = [];
        await app.counters.hit(client, ms, -1);
        await app.counters.hit(address, ms, -1);
      };
      if (app.captchaEnabled) {
        // The routes without a stepUp action check their own captcha answer next.
        if (!options.stepUp) return;
        const token = (request.body as { captcha_token?: unknown }).captcha_token;
        if (typeof token !== 'string' || !token) {
          await notCounted();
          request.log.warn({ bucket: options.name, over: all.count - ceiling }, 'address throttled: captcha asked');
          throw new AppError('ERR_CAPTCHA_REQUIRED');
        }
        await app.checkCaptcha(request, [options.stepUp]);
        return;
      }
      // No captcha: one stranger's request per address at a time, briefly delayed; the rest refused now.
      const slot = `${address}:slot`;
      const taken = await app.counters.hit(slot, SLOT_TTL_MS);
      if (taken.count > 1) {
        await app.counters.hit(slot, SLOT_TTL_MS, -1);
        await notCounted();
        request.log.warn({ bucket: options.name, over: all.count - ceiling }, 'address throttled: refused');
        throw new AppError('ERR_RATE_LIMITED', { retryAfterS: SLOWDOWN_MAX_MS / 1000 });
      }
      marks.release.push(slot);
      const delay = slowdownMs(all.count - ceiling);
      request.log.warn({ bucket: options.name, over: all.count - ceiling, delay }, 'address throttled: slowing down');
      await sleep(delay);
    };
    return handler;
  });

  // A success proves this browser may sign in as the address: remember it (the device cookie).
  app.addHook('onSend', (request, reply, payload, done) => {
    const owner = request.limitMarks?.owner;
    if (owner && reply.statusCode < 300) {
      reply.header('set-cookie', deviceCookie(opts.deviceKeys, request.headers.cookie, owner, opts.secureCookie));
    }
    done(null, payload);
  });
});
