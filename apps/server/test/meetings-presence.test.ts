import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRESENCE_TTL_S } from '@suite/contract';
import { createTestApp, type TestApp } from './helpers.js';
import { SELF_HOSTED, signedInUser } from './meetings-support.js';
import { startRedis, type RedisFixture } from './redis.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

/**
 * "Ada and 2 others are here": the room page's heartbeat and goodbye, what the public view says, expiry,
 * and who may report presence; with presence in this process and in a real redis-server.
 */
let redis: RedisFixture;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => redis?.stop());

describe.each(['memory', 'redis'] as const)('presence in the room (%s store)', (store) => {
  let t: TestApp;
  let host: User;
  let bruno: User;
  let nameless: User;
  beforeAll(async () => {
    t = await createTestApp({ ...SELF_HOSTED, ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) });
    host = await signedInUser(t.app, 'Ana', 'Host');
    bruno = await signedInUser(t.app, 'Bruno', 'Other');
    // An account whose first name is an address: counted, never named.
    nameless = await signedInUser(t.app, 'x@corp.test', 'Nameless');
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => t.close());

  const inject = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    headers?: Record<string, string>,
  ) => t.app.inject({ method, url: `/api${url}`, ...(payload ? { payload } : {}), ...(headers ? { headers } : {}) });
  const createVc = async () => (await inject('POST', '/v2/videoconference', {}, host.headers)).json();
  /** A guest with the meeting token our server signs for `room` (the session must be open). */
  const guestIn = async (room: string, name: string) => {
    const guest = (await inject('POST', '/guest', { name, accepted_terms: { version: 1 } })).json();
    const answer = await inject('POST', '/v2/videoconference/guest/token', { room_name: room, guest_id: guest._id });
    expect(answer.statusCode).toBe(200);
    return { id: guest._id as string, token: answer.json().data.token as string };
  };
  const beat = (room: string, body: object = {}, headers?: Record<string, string>) =>
    inject('PUT', `/v2/videoconference/${room}/presence`, body, headers);
  const leave = (room: string, body: object = {}, headers?: Record<string, string>) =>
    inject('DELETE', `/v2/videoconference/${room}/presence`, body, headers);
  const participants = async (room: string) => {
    const view = await inject('GET', `/v2/videoconference/${room}`);
    expect(view.statusCode).toBe(200);
    return view.json().participants;
  };
  /** Started by the host's token request, as the room page does. */
  const started = async () => {
    const vc = await createVc();
    expect((await inject('POST', '/v2/videoconference/token', { room_name: vc._id }, host.headers)).statusCode).toBe(
      200,
    );
    return vc._id as string;
  };

  it('names the first two to arrive by first name and counts everyone; leaving takes one out at once', async () => {
    const room = await started();
    expect(await participants(room)).toEqual({ count: 0, names: [] });

    expect((await beat(room, {}, host.headers)).statusCode).toBe(204);
    expect(await participants(room)).toEqual({ count: 1, names: ['Ana'] });

    const carla = await guestIn(room, 'Carla Guest');
    expect((await beat(room, { token: carla.token })).statusCode).toBe(204);
    expect((await beat(room, {}, bruno.headers)).statusCode).toBe(204);
    expect((await beat(room, {}, nameless.headers)).statusCode).toBe(204);
    // Only first names, the first two to arrive; a repeated beat does not move anyone to the back.
    expect((await beat(room, {}, host.headers)).statusCode).toBe(204);
    const four = await participants(room);
    expect(four).toEqual({ count: 4, names: ['Ana', 'Carla'] });
    expect(JSON.stringify(four)).not.toMatch(/@|Guest|Host/);

    expect((await leave(room, { token: carla.token })).statusCode).toBe(204);
    expect(await participants(room)).toEqual({ count: 3, names: ['Ana', 'Bruno'] });
    expect((await leave(room, {}, host.headers)).statusCode).toBe(204);
    expect((await leave(room, {}, bruno.headers)).statusCode).toBe(204);
    // The nameless account is counted, not named.
    expect(await participants(room)).toEqual({ count: 1, names: [] });
  });

  it('forgets a participant whose page stopped beating (a crashed tab) once the TTL has passed', async () => {
    const room = await started();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now());
    expect((await beat(room, {}, host.headers)).statusCode).toBe(204);
    expect((await beat(room, {}, bruno.headers)).statusCode).toBe(204);

    // The host's page keeps beating; Bruno's stops.
    vi.setSystemTime(Date.now() + (PRESENCE_TTL_S - 10) * 1000);
    expect((await beat(room, {}, host.headers)).statusCode).toBe(204);
    vi.setSystemTime(Date.now() + 11_000);
    expect(await participants(room)).toEqual({ count: 1, names: ['Ana'] });
    vi.setSystemTime(Date.now() + PRESENCE_TTL_S * 1000);
    expect(await participants(room)).toEqual({ count: 0, names: [] });
  });

  it('refuses presence from whoever could not be in the room, and changes nothing', async () => {
    const room = await started();
    const other = await started();
    const carla = await guestIn(other, 'Carla Guest');

    // No credentials, a forged token, a guest of another meeting: 401, nobody added.
    const refused = [
      await beat(room),
      await beat(room, { token: 'eyJhbGciOiJIUzI1NiJ9.eyJyb29tIjoieCJ9.c2ln' }),
      await beat(room, { token: carla.token }),
      await beat(room, { name: 'Mallory' }),
      await beat(room, {}, { authorization: 'Bearer not-a-session' }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401]);
    expect(refused.map((r) => r.json().error_code)).toEqual(Array(5).fill('ERR_INVALID_ACCESS_TOKEN'));
    // Nor can anyone take someone else out of the room.
    expect((await beat(room, {}, host.headers)).statusCode).toBe(204);
    expect((await leave(room, { token: carla.token })).statusCode).toBe(401);
    expect((await leave(room)).statusCode).toBe(401);
    expect(await participants(room)).toEqual({ count: 1, names: ['Ana'] });

    // The name shown is the account's, never one the request gives.
    expect((await beat(other, { token: carla.token, name: 'Mallory' })).statusCode).toBe(204);
    expect(await participants(other)).toEqual({ count: 1, names: ['Carla'] });

    // A signed-in user cannot be in a room whose host has not started it.
    const waiting = (await createVc())._id;
    const early = await beat(waiting, {}, bruno.headers);
    expect([early.statusCode, early.json().error_code]).toEqual([401, 'ERR_SESSION_NOT_STARTED']);
    expect(await participants(waiting)).toEqual({ count: 0, names: [] });

    // Malformed and unknown rooms answer as every meeting call does.
    expect((await beat('not a room', {}, host.headers)).statusCode).toBe(400);
    expect((await beat('abc-defg-hij', {}, host.headers)).statusCode).toBe(404);
  });

  it('says nothing of who is in an ended meeting', async () => {
    const room = await started();
    expect((await beat(room, {}, host.headers)).statusCode).toBe(204);
    expect((await inject('DELETE', `/v2/videoconference/${room}`, undefined, host.headers)).statusCode).toBe(200);
    const view = (await inject('GET', `/v2/videoconference/${room}`)).json();
    expect(view.status).toBe('ended');
    expect(view.participants).toBeUndefined();
    expect((await beat(room, {}, host.headers)).json().error_code).toBe('ERR_INVITE_NOT_VALID');
  });
});

describe('presence in Redis across instances, and a Redis outage', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ ...SELF_HOSTED, REDIS_URL: redis.url });
    b = await createTestApp({ ...SELF_HOSTED, REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('one instance sees who reported in on another; entries expire by themselves', async () => {
    await a.app.presence.beat('abc-defg-hij', { id: 'u:1', name: 'Ana' }, 60_000);
    // People are listed by arrival to the millisecond: Carla comes in a millisecond later at least.
    const [ana] = await b.app.presence.list('abc-defg-hij');
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(ana!.since), { timeout: 1_000, interval: 1 });
    await b.app.presence.beat('abc-defg-hij', { id: 'g:2', name: 'Carla' }, 60_000);
    expect((await b.app.presence.list('abc-defg-hij')).map((p) => p.name)).toEqual(['Ana', 'Carla']);
    await b.app.presence.leave('abc-defg-hij', 'u:1');
    expect((await a.app.presence.list('abc-defg-hij')).map((p) => p.name)).toEqual(['Carla']);
    // Redis forgets the room by itself once the last beat's TTL has passed (no sweep needed).
    await a.app.presence.beat('xyz-defg-hij', { id: 'u:1', name: 'Ana' }, 50);
    await expect
      .poll(async () => (await b.app.presence.list('xyz-defg-hij')).length, { timeout: 5_000, interval: 20 })
      .toBe(0);
  });

  it('two people who arrive in the same millisecond are listed in one order on every instance', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      await b.app.presence.beat('same-msec-hij', { id: 'u:9', name: 'Zoe' }, 60_000);
      await a.app.presence.beat('same-msec-hij', { id: 'g:3', name: 'Bea' }, 60_000);
      const seen = [await a.app.presence.list('same-msec-hij'), await b.app.presence.list('same-msec-hij')];
      // Same arrival time: the id decides, whichever beat came first.
      for (const list of seen) expect(list.map((p) => p.name)).toEqual(['Bea', 'Zoe']);
      expect(seen[0]![0]!.since).toBe(seen[0]![1]!.since);
    } finally {
      vi.useRealTimers();
    }
  });

  it('Redis down: the heartbeat answers 503 with Retry-After, the public view leaves the count out; back: shown again', async () => {
    const host = await signedInUser(a.app, 'Ana', 'Host');
    const vc = (
      await a.app.inject({ method: 'POST', url: '/api/v2/videoconference', payload: {}, headers: host.headers })
    ).json();
    const token = await a.app.inject({
      method: 'POST',
      url: '/api/v2/videoconference/token',
      payload: { room_name: vc._id },
      headers: host.headers,
    });
    expect(token.statusCode).toBe(200);
    const beat = () =>
      a.app.inject({
        method: 'PUT',
        url: `/api/v2/videoconference/${vc._id}/presence`,
        payload: {},
        headers: host.headers,
      });
    const view = async () => (await a.app.inject({ method: 'GET', url: `/api/v2/videoconference/${vc._id}` })).json();
    expect((await beat()).statusCode).toBe(204);

    await redis.stop();
    try {
      const during = await beat();
      expect(during.statusCode).toBe(503);
      expect(Number(during.headers['retry-after'])).toBeGreaterThan(0);
      expect(during.json().error_code).toBe('ERR_SERVICE_UNAVAILABLE');
      const leaving = await a.app.inject({
        method: 'DELETE',
        url: `/api/v2/videoconference/${vc._id}/presence`,
        payload: {},
        headers: host.headers,
      });
      expect(leaving.statusCode).toBe(503);
      // Joining is not affected: the pre-join still learns the meeting has started.
      const shown = await view();
      expect(shown).toMatchObject({ _id: vc._id, status: 'started' });
      expect(shown.participants).toBeUndefined();
    } finally {
      await redis.start();
    }
    await expect.poll(async () => (await beat()).statusCode, { timeout: 10_000, interval: 50 }).toBe(204);
    expect((await view()).participants).toEqual({ count: 1, names: ['Ana'] });
  });
});
