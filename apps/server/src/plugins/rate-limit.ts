import { isIPv4, isIPv6 } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { normalizeEmail } from '@suite/contract';
import { AppError } from '../errors.js';
import { openCounterStore, type CounterStore } from './counter-store.js';

export type { CounterStore, Count } from './counter-store.js';

export interface LimitOptions {
  /** Requests allowed per window (before RATE_LIMIT_SCALE). */
  max: number;
  /** Window, e.g. '1 minute', '15 minutes', '1 hour' (or milliseconds). */
  window: string | number;
  /**
   * 'ip' (default); 'user': the signed-in user (on a route that declares `config.session`; the IP without one);
   * or a body field whose value (e-mail, in its canonical form) is the key.
   */
  by?: 'ip' | 'user' | { bodyField: string };
  /** Bucket name, so that two routes do not share counters. */
  name: string;
  /**
   * 'all' (default): every request costs. 'failures': every request is counted when it starts (so
   * parallel requests cannot slip past the limit) and refunded when it is answered 2xx, so what stays
   * counted are the failures (login and code checks: an office behind one address is not refused for
   * its colleagues' successful logins).
   */
  counts?: 'all' | 'failures';
}

/**
 * What a request's limits undo once it is answered: `refund` (decrement) and `reset` (forget) on a
 * 2xx answer only, `release` whatever the answer (plugins/throttle.ts's per-address slot).
 */
export interface LimitMarks {
  refund: string[];
  reset: string[];
  release: string[];
  /** The canonical address a 2xx answer proves this client may sign in as (throttle.ts's device cookie). */
  owner?: string;
  /** throttle.ts's alarm of the route: where wrong secrets for the address are counted, and whom to tell. */
  alarm?: { key: string; windowMs: number; owner: string; after: number; notify: (owner: string) => Promise<void> };
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A preHandler that limits a route per IP, user or submitted address; 429 with Retry-After. Per-IP
     * limits are moved to the route's onRequest hooks (decided before the body is parsed).
     */
    limit: (options: LimitOptions) => preHandlerAsyncHookHandler;
    /** The counters behind the limits (shared through Redis when REDIS_URL is set): see counter-store.ts. */
    counters: CounterStore;
  }
  interface FastifyRequest {
    limitMarks: LimitMarks | null;
  }
}

/**
 * Marks a limit that needs nothing of the body (per IP): it is moved from the route's preHandler to its
 * onRequest hooks, so a client over its limit is refused before its body is read and parsed (a 64 KiB
 * nested JSON costs ~2 ms to parse; 1,500 of them from a limited client slowed every other request).
 */
const BEFORE_BODY = Symbol('rate limit decided before the body');
type Hook = ((...args: never[]) => unknown) & { [BEFORE_BODY]?: true };
const beforeBody = (hook: unknown): boolean => typeof hook === 'function' && (hook as Hook)[BEFORE_BODY] === true;

/** The request's marks, made on first use. */
export const marksOf = (request: FastifyRequest): LimitMarks =>
  (request.limitMarks ??= { refund: [], reset: [], release: [] });

/**
 * The client a per-client limit counts: an IPv4 address as it is, an IPv6 address by its /64. One
 * subscriber, or one host, is routinely handed a whole /64 (RFC 6177, SLAAC privacy addresses), so per
 * /128 a single machine could take 2^64 fresh budgets. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`,
 * a dual-stack socket) is its IPv4 address. Anything else (a Unix socket, an unparsable value) is kept
 * as given.
 */
export function clientKey(ip: string): string {
  const address = ip.split('%')[0]!.toLowerCase();
  if (isIPv4(address) || !isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  let text = address;
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${address.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const before = parse(head);
  const after = rest === undefined ? [] : parse(rest);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const UNITS: Record<string, number> = { second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** '10 minutes' → 600000. */
export function windowMs(window: string | number): number {
  if (typeof window === 'number') return window;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(second|minute|hour|day)s?\s*$/.exec(window);
  const unit = match?.[2] ? UNITS[match[2]] : undefined;
  if (!match || unit === undefined) throw new Error(`rate limit window not understood: ${window}`);
  return Number(match[1]) * unit;
}

async function limits(app: FastifyInstance, opts: { scale: number; redisUrl?: string | undefined }) {
  const store = await openCounterStore(opts.redisUrl, app.log);
  app.decorate('counters', store as CounterStore);
  app.addHook('onClose', async () => store.close());
  app.decorateRequest('limitMarks', null);

  // Every route's per-IP limits run first, on the request alone (see BEFORE_BODY); the other preHandlers
  // (authentication, per-user and per-address limits, captcha) keep their order after the body is parsed.
  app.addHook('onRoute', (route) => {
    const preHandlers = [route.preHandler ?? []].flat();
    const early = preHandlers.filter(beforeBody);
    if (early.length === 0) return;
    route.preHandler = preHandlers.filter((hook) => !beforeBody(hook));
    route.onRequest = [...[route.onRequest ?? []].flat(), ...(early as unknown as onRequestHookHandler[])];
  });

  // A held slot is given back before the answer is written: a client that sends its next request as
  // soon as it reads this one must find the slot free, on this instance or any other.
  const releaseSlots = async (marks: LimitMarks) => {
    const keys = marks.release.splice(0);
    for (const key of keys) await store.hit(key, 1, -1);
  };
  app.addHook('onSend', (request, _reply, payload, done) => {
    const marks = request.limitMarks;
    if (!marks || marks.release.length === 0) return done(null, payload);
    releaseSlots(marks).then(
      () => done(null, payload),
      (err: unknown) => {
        request.log.warn({ err }, 'throttle slot not released before the answer');
        done(null, payload);
      },
    );
  });

  // Undo what the marks say once the answer is sent (and any slot onSend did not reach). Callback
  // hooks, so that the answers of every other route pass them without a promise.
  app.addHook('onResponse', (request, reply, done) => {
    const marks = request.limitMarks;
    if (!marks) return done();
    const success = reply.statusCode < 300;
    const undo = async () => {
      await releaseSlots(marks);
      if (!success) return;
      for (const key of marks.reset) await store.reset(key);
      for (const key of marks.refund) await store.hit(key, 1, -1);
    };
    undo().then(() => done(), done);
  });

  app.decorate('limit', (options: LimitOptions) => {
    const by = options.by ?? 'ip';
    const max = Math.max(1, Math.round(options.max * opts.scale));
    const ms = windowMs(options.window);
    const keyOf = (request: FastifyRequest) => {
      if (by === 'ip') return `${options.name}:ip:${clientKey(request.ip)}`;
      if (by === 'user') return `${options.name}:user:${request.user?.id ?? `ip:${clientKey(request.ip)}`}`;
      const value = (request.body as Record<string, unknown> | undefined)?.[by.bodyField];
      return `${options.name}:addr:${typeof value === 'string' ? normalizeEmail(value) : clientKey(request.ip)}`;
    };
    const handler: preHandlerAsyncHookHandler = async (request) => {
      const key = keyOf(request);
      const { count, ttlMs } = await store.hit(key, ms);
      if (options.counts === 'failures') marksOf(request).refund.push(key);
      if (count > max) {
        throw new AppError('ERR_RATE_LIMITED', {
          headers: { 'retry-after': String(Math.max(1, Math.ceil(ttlMs / 1000))) },
        });
      }
    };
    if (by === 'ip') (handler as Hook)[BEFORE_BODY] = true;
    return handler;
  });
}

export default fp(limits, { name: 'rate-limit' });
