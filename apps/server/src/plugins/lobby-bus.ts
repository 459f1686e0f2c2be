import type { FastifyBaseLogger } from 'fastify';
import { REDIS_OPTIONS } from './counter-store.js';

/**
 * "Something changed in this meeting's lobby", told to every instance: the waiting pages' and the hosts'
 * streams on any instance then read the database (the one truth) again. Only a meeting id crosses Redis,
 * never a name or a cookie.
 *
 * Through Redis pub/sub when REDIS_URL is set, in this process otherwise. While Redis is down `publish`
 * rejects with LobbyBusUnavailable and `ready()` is false: the lobby's callers then answer 503 and change
 * nothing (a decision nobody would hear of is not taken). When Redis answers again every local listener
 * is told, so streams catch up on what changed meanwhile.
 */
export interface LobbyBus {
  publish(meetingId: string): Promise<void>;
  /** Calls `listener` on every change of the meeting (and after an outage); returns the unsubscribe. */
  subscribe(meetingId: string, listener: () => void): () => void;
  ready(): boolean;
  /**
   * Resolves when the bus carries messages now (with Redis: a round trip on both connections), rejects
   * with LobbyBusUnavailable otherwise. A connection's status alone lags a dead server by a moment.
   */
  check(): Promise<void>;
  close(): void;
}

export class LobbyBusUnavailable extends Error {}

const CHANNEL = 'suite:lobby';

function localListeners() {
  const byMeeting = new Map<string, Set<() => void>>();
  return {
    add(meetingId: string, listener: () => void) {
      const set = byMeeting.get(meetingId) ?? new Set();
      byMeeting.set(meetingId, set);
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && byMeeting.get(meetingId) === set) byMeeting.delete(meetingId);
      };
    },
    emit(meetingId: string) {
      for (const listener of [...(byMeeting.get(meetingId) ?? [])]) listener();
    },
    emitAll() {
      for (const set of [...byMeeting.values()]) for (const listener of [...set]) listener();
    },
  };
}

function memoryLobbyBus(): LobbyBus {
  const listeners = localListeners();
  return {
    async publish(meetingId) {
      // After the caller's answer is on its way: a listener's reading never delays the decision.
      setImmediate(() => listeners.emit(meetingId));
    },
    subscribe: listeners.add,
    ready: () => true,
    check: async () => undefined,
    close: () => undefined,
  };
}

async function redisLobbyBus(url: string, log: FastifyBaseLogger): Promise<LobbyBus> {
  const { Redis } = await import('ioredis');
  const pub = new Redis(url, REDIS_OPTIONS);
  // A subscriber connection is in subscribe mode: it cannot publish, hence two.
  const sub = new Redis(url, REDIS_OPTIONS);
  const listeners = localListeners();
  let down = false;
  const outage = (err: unknown) => {
    if (down) return;
    down = true;
    log.warn({ err }, 'Meeting lobby paused: its Redis does not answer (requests answer 503 until it does)');
  };
  const back = () => {
    if (!down || pub.status !== 'ready' || sub.status !== 'ready') return;
    down = false;
    log.info('Meeting lobby running again: its Redis answers');
    listeners.emitAll();
  };
  for (const connection of [pub, sub]) {
    connection.on('error', outage);
    connection.on('close', () => outage(new Error('Redis connection closed')));
    connection.on('ready', back);
  }
  sub.on('message', (_channel: string, meetingId: string) => listeners.emit(meetingId));
  await Promise.all([pub.connect().catch(outage), sub.connect().catch(outage)]);
  // ioredis subscribes again by itself after a reconnect (autoResubscribe).
  await sub.subscribe(CHANNEL).catch(outage);
  const ready = () => pub.status === 'ready' && sub.status === 'ready';
  return {
    async publish(meetingId) {
      if (!ready()) throw new LobbyBusUnavailable(`Redis connection ${pub.status}/${sub.status}`);
      try {
        await pub.publish(CHANNEL, meetingId);
      } catch (err) {
        outage(err);
        throw new LobbyBusUnavailable('Redis publish failed', { cause: err });
      }
    },
    subscribe: listeners.add,
    ready,
    async check() {
      if (!ready()) throw new LobbyBusUnavailable(`Redis connection ${pub.status}/${sub.status}`);
      try {
        // A subscriber connection answers PING too (with a pong message).
        await Promise.all([pub.ping(), sub.ping()]);
      } catch (err) {
        outage(err);
        throw new LobbyBusUnavailable('Redis does not answer', { cause: err });
      }
    },
    close: () => {
      pub.disconnect();
      sub.disconnect();
    },
  };
}

/** The lobby's bus: Redis pub/sub when `redisUrl` is set, this process's memory otherwise. */
export function openLobbyBus(redisUrl: string | undefined, log: FastifyBaseLogger): Promise<LobbyBus> {
  return redisUrl ? redisLobbyBus(redisUrl, log) : Promise.resolve(memoryLobbyBus());
}
