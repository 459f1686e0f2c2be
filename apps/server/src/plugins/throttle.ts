import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { normalizeEmail, type CaptchaAction } from '@suite/contract';
import { AppError } from '../errors.js';
import { loadJose, openSignedValue, signValue, type KeyRing } from '../keys.js';
import { clientKey, marksOf, windowMs } from './rate-limit.js';

/**
 * Throttling that protects an account without handing attackers a lock (docs/security.md):
 *
 * - per (address, client): at most `perClient` counted requests a window, then 429 for that client
 *   only — a stranger who keeps failing locks out their own client, never the owner's (a client is an
 *   IPv4 address or an IPv6 /64: rate-limit.ts clientKey);
 * - a trusted device (a signed device cookie entry, earned by a completed sign-in of this account from
 *   this browser, as Kratos and Keycloak do) is kept out of the strangers' bucket: never slowed nor
 *   refused for what other clients did, only its own failures count (past `perClient` it is a stranger
 *   again). Routes that guess a second factor (`trustDevices: false`) never lift it: the cookie proves
 *   a past sign-in, not who holds the password now;
 * - per address over all other clients: past `ceiling` counted requests a window, where a captcha is
 *   configured a request goes on at once with its captcha answer (the routes with a `stepUp` action,
 *   which ask for none normally, require one then: ERR_CAPTCHA_REQUIRED); without a captcha, one
 *   request per address at a time is let through after a short delay (250 ms doubling, at most
 *   SLOWDOWN_MAX_MS, well under the web client's 15 s timeout) and the others are refused at once
 *   (429, Retry-After), so guesses cannot be slept in parallel and no socket is held waiting;
 * - an `alarm`: after `after` wrong secrets for an address in a window (errors thrown with
 *   `wrongSecret`), `notify` once for that window (the owner's "someone knows your password" mail).
 *
 * `counts: 'failures'` (login, code checks): every request is counted when it starts (so parallel
 * guesses cannot slip past the limit) and refunded when it succeeds (2xx): what stays counted are the
 * failures. A success also clears the client's count, and a success that hands out a session sets the
 * device cookie. `counts: 'all'` (code sends): every request costs. Counters live in the shared counter
 * store (Redis with REDIS_URL).
 */
export interface ThrottleOptions {
  /** Bucket name. */
  name: string;
  /** Body field holding the address. */
  field: string;
  /**
   * The address when it is not in the body (a signed-in route: the session's own account); a request
   * it answers undefined for passes unthrottled.
   */
  addressOf?: (request: FastifyRequest) => string | undefined;
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
  /** false: a trusted-device cookie never lifts this route's per-address ceiling (default true). */
  trustDevices?: boolean;
  alarm?: ThrottleAlarm;
}

/** Counts the wrong secrets tried for an address; `notify` runs once a window, at the `after`-th. */
export interface ThrottleAlarm {
  after: number;
  /** Called with the canonical address. A failure is logged, never the request's answer. */
  notify: (owner: string) => Promise<void>;
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
/** The signed-value purpose of a device entry (keys.ts signValue): no other signed value is accepted as one. */
const DEVICE_PURPOSE = 'device';
/** How long a device stays trusted after its last completed sign-in. */
const DEVICE_TTL_S = 180 * 24 * 3600;
/** Accounts one browser remembers (a shared family computer); the oldest is forgotten first. */
const DEVICE_ENTRIES = 4;
/** Longer entries are not ours: not even looked at. */
const ENTRY_MAX = 160;
const DEVICE_ID = /^[\w-]{16}$/;

/**
 * The cookie holds one entry per account this browser completed a sign-in for, '~'-separated. An
 * entry is `device.expires.generation.mac`: the browser's random id (the same in every entry, kept
 * across sign-ins), its expiry, the account's credential generation when it was earned, and a MAC
 * over them bound to the account's id (keys.ts signValue), so nothing in it names the account and it
 * verifies for that account alone. A sign-out of all devices or a new password moves the generation
 * (sessions-repository.ts revoke), and every entry of the older one stops counting.
 */
interface DeviceEntry {
  signed: string;
  device: string;
  expires: number;
  generation: number;
}

function entriesOf(cookie: string | undefined): { signed: string; device: string }[] {
  if (!cookie) return [];
  return cookie
    .split('~')
    .slice(0, DEVICE_ENTRIES)
    .filter((signed) => signed.length <= ENTRY_MAX)
    .map((signed) => ({ signed, device: signed.split('.')[0] ?? '' }))
    .filter((entry) => DEVICE_ID.test(entry.device));
}

/** The entry if it is signed for this account (any generation), else null. */
function openEntry(ring: KeyRing, signed: string, accountId: string): DeviceEntry | null {
  const value = openSignedValue(ring, DEVICE_PURPOSE, signed, [accountId]);
  const [device = '', expires, generation] = value?.split('.') ?? [];
  if (!value || !DEVICE_ID.test(device)) return null;
  return { signed, device, expires: Number(expires), generation: Number(generation) };
}

interface Account {
  id: string;
  generation: number;
}

async function throttle(app: FastifyInstance, opts: { scale: number; deviceKeys: KeyRing; secureCookie: boolean }) {
  const ring = opts.deviceKeys;
  const accountByAddress = async (address: string): Promise<Account | null> => {
    const row = await app.db.kysely
      .selectFrom('users')
      .select(['id', 'credential_generation'])
      .where('email', '=', address)
      .executeTakeFirst();
    return row ? { id: row.id, generation: Number(row.credential_generation) } : null;
  };

  /** The browser's device id when it holds a live entry of the address's account, of its current generation. */
  async function trustedDevice(request: FastifyRequest, address: string): Promise<string | null> {
    const entries = entriesOf(request.cookies[DEVICE_COOKIE]);
    if (entries.length === 0) return null;
    const account = await accountByAddress(address);
    if (!account) return null;
    const now = Date.now();
    for (const { signed } of entries) {
      const entry = openEntry(ring, signed, account.id);
      if (entry && entry.expires * 1000 > now && entry.generation === account.generation) return entry.device;
    }
    return null;
  }

  /**
   * After a completed sign-in of `account`: its entry, first, replacing any earlier one of the account
   * (one entry per browser and account, whatever its generation), then the other accounts' live
   * entries. The browser keeps its device id, so signing in again does not make a fresh device bucket.
   */
  function rememberDevice(request: FastifyRequest, reply: FastifyReply, account: Account) {
    const now = Date.now();
    const entries = entriesOf(request.cookies[DEVICE_COOKIE]);
    const device = entries[0]?.device ?? randomBytes(12).toString('base64url');
    const expires = Math.floor(now / 1000) + DEVICE_TTL_S;
    const mine = signValue(ring, DEVICE_PURPOSE, `${device}.${expires}.${account.generation}`, [account.id]);
    const others = entries
      .filter((entry) => entry.device === device && openEntry(ring, entry.signed, account.id) === null)
      .filter((entry) => Number(entry.signed.split('.')[1]) * 1000 > now)
      .map((entry) => entry.signed);
    reply.setCookie(DEVICE_COOKIE, [mine, ...others].slice(0, DEVICE_ENTRIES).join('~'), {
      maxAge: DEVICE_TTL_S,
      path: '/api',
      httpOnly: true,
      sameSite: 'strict',
      secure: opts.secureCookie,
    });
  }

  /** The account a 2xx answer signs in: a session (full or welcome) in `token`, never a recovery token or a second step. */
  async function signedInBy(payload: unknown, owner: string): Promise<Account | null> {
    const token = (payload as { token?: unknown } | null)?.token;
    if (typeof token !== 'string') return null;
    const { decodeJwt } = await loadJose();
    const claims = decodeJwt(token) as { user?: { _id?: unknown }; kind?: unknown };
    if (claims.kind !== 'session' && claims.kind !== 'welcome') return null;
    const account = await accountByAddress(owner);
    return account && account.id === claims.user?._id ? account : null;
  }

  app.decorate('throttle', (options: ThrottleOptions) => {
    const perClient = Math.max(1, Math.round(options.perClient * opts.scale));
    const ceiling = Math.max(1, Math.round(options.ceiling * opts.scale));
    const ms = windowMs(options.window);
    const failures = options.counts === 'failures';
    const trustDevices = options.trustDevices !== false;
    const handler: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
      const raw = options.addressOf
        ? options.addressOf(request)
        : (request.body as Record<string, unknown> | undefined)?.[options.field];
      if (typeof raw !== 'string' || !raw.trim()) return;
      const owner = normalizeEmail(raw);
      const address = `${options.name}:addr:${owner}`;
      const client = `${address}:ip:${clientKey(request.ip)}`;
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
      if (options.alarm) marks.alarm = { key: `${address}:wrong`, windowMs: ms, owner, ...options.alarm };
      const device = trustDevices ? await trustedDevice(request, owner) : null;
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

  // A completed sign-in proves this browser may sign in as the address: remember it (the device cookie).
  // A callback hook that returns at once for every answer without an address mark (nearly all).
  app.addHook('preSerialization', (request, reply, payload, done) => {
    const owner = request.limitMarks?.owner;
    if (!owner || reply.statusCode >= 300) return done(null, payload);
    signedInBy(payload, owner)
      .then((account) => {
        if (account) rememberDevice(request, reply, account);
      })
      .catch((err: unknown) => request.log.warn({ err }, 'device cookie not set'))
      .finally(() => done(null, payload));
  });

  // A wrong secret under an alarm: counted per address; the `after`-th in a window raises it, once.
  app.addHook('onError', (request, _reply, error, done) => {
    const alarm = request.limitMarks?.alarm;
    if (!alarm || !(error instanceof AppError) || !error.wrongSecret) return done();
    app.counters
      .hit(alarm.key, alarm.windowMs)
      .then(async ({ count }) => {
        if (count === alarm.after) await alarm.notify(alarm.owner);
      })
      .catch((err: unknown) => request.log.error({ err }, 'throttle alarm failed'))
      .finally(() => done());
  });
}

export default fp(throttle, { name: 'throttle', dependencies: ['db', 'rate-limit', 'captcha'] });
