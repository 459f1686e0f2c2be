import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * Counters with a time-to-live, shared by every instance through Redis (REDIS_URL) or kept in this
 * process. The rate limits are built on it; so can any other "count events per key per window" rule.
 *
 * - `hit(key, windowMs)` adds `by` (default 1) and returns the new count and the milliseconds left in
 *   the key's window. The window starts at the key's first hit and is not extended by later ones.
 * - `reset(key)` forgets the key (e.g. after a successful login).
 *
 * None of them ever rejects because of Redis: while Redis is unreachable every instance counts in its
 * own memory (logged once, counted in `fallbacks`) and goes back to the shared counters as soon as
 * Redis answers again, with no restart.
 */
export interface CounterStore {
  hit(key: string, windowMs: number, by?: number): Promise<Count>;
  reset(key: string): Promise<void>;
  /** 'shared': counting in Redis; 'local': Redis configured but unreachable; 'memory': no REDIS_URL. */
  readonly mode: 'shared' | 'local' | 'memory';
  /** How many times the store fell back from Redis to memory since start. */
  readonly fallbacks: number;
}

export interface Count {
  count: number;
  ttlMs: number;
}

/** Keys of this process: bounded by sweeping expired entries once a minute. */
class MemoryCounters {
  private readonly entries = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  hit(key: string, windowMs: number, by = 1): Count {
    const now = Date.now();
    let entry = this.entries.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowMs };
      this.entries.set(key, entry);
    }
    entry.count += by;
    return { count: entry.count, ttlMs: entry.resetAt - now };
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.resetAt <= now) this.entries.delete(key);
  }
}

// One round trip, atomic: add, start the window on the first hit, report what is left of it.
const HIT_SCRIPT = `
local c = redis.call('INCRBY', KEYS[1], ARGV[2])
local t = redis.call('PTTL', KEYS[1])
if t < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); t = tonumber(ARGV[1]) end
return {c, t}`;

const PREFIX = 'suite:rl:';

type RedisWithHit = Redis & { suiteHit(key: string, windowMs: number, by: number): Promise<[number, number]> };

/** Redis connection settings that keep a request from ever waiting long on a dead Redis. */
export const REDIS_OPTIONS = {
  // Without a connection a command fails at once instead of queueing.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 1_000,
  commandTimeout: 500,
  // Keep reconnecting, at most every 2 s, for as long as the process runs.
  retryStrategy: (times: number) => Math.min(times * 200, 2_000),
  lazyConnect: true,
} as const;

/** The store of the rate limits: Redis when `redisUrl` is set (falling back to memory), memory otherwise. */
export async function openCounterStore(
  redisUrl: string | undefined,
  log: FastifyBaseLogger,
): Promise<CounterStore & { close(): Promise<void> }> {
  const memory = new MemoryCounters();
  if (!redisUrl) {
    return {
      mode: 'memory',
      fallbacks: 0,
      hit: async (key, windowMs, by = 1) => memory.hit(key, windowMs, by),
      reset: async (key) => memory.reset(key),
      close: async () => memory.close(),
    };
  }

  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, REDIS_OPTIONS) as RedisWithHit;
  redis.defineCommand('suiteHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  let local = false;
  let fallbacks = 0;
  const toLocal = (err: unknown) => {
    if (local) return;
    local = true;
    fallbacks += 1;
    log.warn({ err }, 'Redis unreachable: rate limits fall back to per-instance memory until it answers again');
  };
  // Every failed reconnect emits 'error': without a listener ioredis reports "Unhandled error event".
  // The first one of an outage is the warning above; the rest are noise.
  redis.on('error', (err) => toLocal(err));
  redis.on('ready', () => {
    if (!local) return;
    local = false;
    log.info('Redis reachable again: rate limits are shared again');
  });
  // Start connecting; an unreachable Redis at start-up is an outage like any other, not a failure.
  await redis.connect().catch((err: unknown) => toLocal(err));

  async function viaRedis<T>(shared: () => Promise<T>, fallback: () => T): Promise<T> {
    if (redis.status !== 'ready') {
      toLocal(new Error(`Redis connection ${redis.status}`));
      return fallback();
    }
    try {
      return await shared();
    } catch (err) {
      toLocal(err);
      return fallback();
    }
  }

  return {
    get mode() {
      return local ? ('local' as const) : ('shared' as const);
    },
    get fallbacks() {
      return fallbacks;
    },
    hit: (key, windowMs, by = 1) =>
      viaRedis(
        async () => {
          const [count, ttlMs] = await redis.suiteHit(PREFIX + key, windowMs, by);
          return { count: Number(count), ttlMs: Number(ttlMs) };
        },
        () => memory.hit(key, windowMs, by),
      ),
    reset: (key) =>
      viaRedis(
        async () => {
          memory.reset(key);
          await redis.del(PREFIX + key);
        },
        () => memory.reset(key),
      ),
    async close() {
      memory.close();
      redis.disconnect();
    },
  };
}
