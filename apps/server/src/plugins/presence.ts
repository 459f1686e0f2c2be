import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { REDIS_OPTIONS } from './counter-store.js';

/** One person in a room, as the room page last reported them. */
export interface Presence {
  /** 'u:<user id>' or 'g:<guest id>': one entry per person, however many tabs they have open. */
  id: string;
  /** First name to show ('' when the person has no usable one: counted, not named). */
  name: string;
  /** When this stay began (ms): the first to arrive are the ones named. */
  since: number;
}

/**
 * Who is in which meeting room, shared by every instance through Redis (REDIS_URL) or kept in this
 * process. Every entry expires by itself `ttlMs` after its last `beat`, so a tab that crashed or lost
 * its network disappears without a `leave`.
 *
 * Unlike the rate limits' counters, presence does not fall back to this process's memory while Redis is
 * down (each instance would show a different room): `beat`, `leave` and `list` reject with
 * PresenceUnavailable, and the callers treat presence as best-effort.
 */
export interface PresenceStore {
  beat(room: string, who: Omit<Presence, 'since'>, ttlMs: number): Promise<void>;
  leave(room: string, id: string): Promise<void>;
  /** The people in the room now, first arrived first. */
  list(room: string): Promise<Presence[]>;
}

/** Redis is configured but cannot be used right now. */
export class PresenceUnavailable extends Error {}

declare module 'fastify' {
  interface FastifyInstance {
    presence: PresenceStore;
  }
}

interface Stay {
  name: string;
  since: number;
  expiresAt: number;
}

/** This process's rooms: bounded by sweeping expired entries once a minute. */
function memoryPresence(): PresenceStore & { close(): void } {
  const rooms = new Map<string, Map<string, Stay>>();
  const live = (room: string, now: number) => {
    const stays = rooms.get(room);
    if (!stays) return undefined;
    for (const [id, stay] of stays) if (stay.expiresAt <= now) stays.delete(id);
    if (stays.size === 0) rooms.delete(room);
    return stays.size ? stays : undefined;
  };
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const room of rooms.keys()) live(room, now);
  }, 60_000);
  sweeper.unref();
  return {
    async beat(room, { id, name }, ttlMs) {
      const now = Date.now();
      const stays = live(room, now) ?? new Map<string, Stay>();
      rooms.set(room, stays);
      stays.set(id, { name, since: stays.get(id)?.since ?? now, expiresAt: now + ttlMs });
    },
    async leave(room, id) {
      rooms.get(room)?.delete(id);
      live(room, Date.now());
    },
    async list(room) {
      const stays = live(room, Date.now());
      return stays ? sorted([...stays].map(([id, { name, since }]) => ({ id, name, since }))) : [];
    },
    close: () => clearInterval(sweeper),
  };
}

const sorted = (list: Presence[]) => list.sort((a, b) => a.since - b.since || a.id.localeCompare(b.id));

const PREFIX = 'suite:presence:';

/**
 * One round trip, atomic: a room is a hash of "<expiresAt>|<since>|<name>" per person; a beat keeps the
 * stay's start while it is live and pushes the whole hash's expiry (everyone gone → the key goes too).
 * ARGV: id, now, expiresAt, name, ttlMs.
 */
const BEAT_SCRIPT = `
local since = ARGV[2]
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local e, s = string.match(old, '^(%d+)|(%d+)|')
  if e and tonumber(e) > tonumber(ARGV[2]) then since = s end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3] .. '|' .. since .. '|' .. ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

type RedisWithBeat = Redis & {
  suitePresenceBeat(key: string, id: string, now: number, expiresAt: number, name: string, ttlMs: number): Promise<1>;
};

async function redisPresence(url: string, log: FastifyBaseLogger): Promise<PresenceStore & { close(): void }> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, REDIS_OPTIONS) as RedisWithBeat;
  redis.defineCommand('suitePresenceBeat', { numberOfKeys: 1, lua: BEAT_SCRIPT });
  let down = false;
  const outage = (err: unknown) => {
    if (down) return;
    down = true;
    log.warn({ err }, 'Presence not shown: its Redis does not answer (shown again once it does)');
  };
  // Every failed reconnect emits 'error' (see counter-store.ts): the first one of an outage is logged.
  redis.on('error', outage);
  redis.on('ready', () => {
    if (down) log.info('Presence shown again: its Redis answers');
    down = false;
  });
  await redis.connect().catch(outage);

  async function run<T>(command: () => Promise<T>): Promise<T> {
    if (redis.status !== 'ready') throw new PresenceUnavailable(`Redis connection ${redis.status}`);
    try {
      return await command();
    } catch (err) {
      outage(err);
      throw new PresenceUnavailable('Redis command failed', { cause: err });
    }
  }

  return {
    beat: (room, { id, name }, ttlMs) =>
      run(async () => {
        const now = Date.now();
        await redis.suitePresenceBeat(PREFIX + room, id, now, now + ttlMs, name, ttlMs);
      }),
    leave: (room, id) => run(async () => void (await redis.hdel(PREFIX + room, id))),
    list: (room) =>
      run(async () => {
        const now = Date.now();
        const list: Presence[] = [];
        const stale: string[] = [];
        for (const [id, value] of Object.entries(await redis.hgetall(PREFIX + room))) {
          const [expiresAt, since, ...name] = value.split('|');
          if (Number(expiresAt) > now) list.push({ id, name: name.join('|'), since: Number(since) });
          else stale.push(id);
        }
        if (stale.length) await redis.hdel(PREFIX + room, ...stale);
        return sorted(list);
      }),
    close: () => redis.disconnect(),
  };
}

/** `app.presence`: in Redis when `redisUrl` is set, in this process otherwise. */
async function presence(app: FastifyInstance, opts: { redisUrl?: string | undefined }) {
  const store = opts.redisUrl ? await redisPresence(opts.redisUrl, app.log) : memoryPresence();
  app.decorate('presence', store as PresenceStore);
  app.addHook('onClose', async () => store.close());
}

export default fp(presence, { name: 'presence' });
