import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jwtVerify } from 'jose';
import { createTestApp, type TestApp } from './helpers.js';
import { SELF_HOSTED, hostAndOther, signedInUser } from './meetings-support.js';

type User = Awaited<ReturnType<typeof signedInUser>>;
const MINUTE = 60_000;

/** Session pings, names signed into tokens, the guest-token rate limit, and the JaaS runtime config. */
describe('keeping a meeting session alive while people are in the room', () => {
  let t: TestApp;
  let host: User;
  let other: User;
  beforeAll(async () => {
    // A 30-minute idle limit and a fake clock (only Date: the database and the server keep real timers).
    ({ t, host, other } = await hostAndOther());
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => t.close());

  const inject = (method: 'POST', url: string, payload: object, headers?: Record<string, string>) =>
    t.app.inject({ method, url: `/api${url}`, payload, ...(headers ? { headers } : {}) });
  const createVc = async () => (await inject('POST', '/v2/videoconference', {}, host.headers)).json();
  const createGuest = async (name = 'Carla Guest') =>
    (await inject('POST', '/guest', { name, accepted_terms: { version: 1 } })).json();
  const guestToken = (room_name: string, guest_id: string, extra: object = {}) =>
    inject('POST', '/v2/videoconference/guest/token', { room_name, guest_id, ...extra });
  const userToken = (room_name: string, user: User, extra: object = {}) =>
    inject('POST', '/v2/videoconference/token', { room_name, ...extra }, user.headers);
  const ping = (room: string, body: object, headers?: Record<string, string>) =>
    inject('POST', `/v2/videoconference/${room}/session/ping`, body, headers);
  const clock = (start: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    return (minutes: number) => vi.setSystemTime(Date.now() + minutes * MINUTE);
  };

  it('pings from the room keep the session open past the idle limit; without them it ends', async () => {
    const advance = clock(Date.now());
    const vc = await createVc();
    const guest = await createGuest();
    expect((await userToken(vc._id, host)).statusCode).toBe(200);
    expect((await guestToken(vc._id, guest._id)).statusCode).toBe(200);

    // A two-hour meeting: nobody asks for a token any more, the pages in the room ping every 20 minutes.
    for (let i = 0; i < 6; i++) {
      advance(20);
      const guestPing = await ping(vc._id, { guest_id: guest._id });
      expect(guestPing.statusCode).toBe(200);
      // A third of the 30-minute limit, capped at 5 minutes.
      expect(guestPing.json()).toEqual({ status: 'started', ping_interval_s: 300 });
    }
    // A newcomer two hours in is let in, not told to wait for a host who is there.
    expect((await userToken(vc._id, other)).json()).toMatchObject({ moderator: false, room: vc._id });

    // Everybody gone: 31 minutes later the session has ended by itself.
    advance(31);
    expect((await userToken(vc._id, other)).json().error_code).toBe('ERR_SESSION_NOT_STARTED');
    expect((await ping(vc._id, { guest_id: guest._id })).json().status).toBe('not_started');
  });

  it('a signed-in participant’s ping counts too; only the host’s ping reopens an ended session', async () => {
    const advance = clock(Date.now());
    const vc = await createVc();
    await userToken(vc._id, host);
    advance(25);
    expect((await ping(vc._id, {}, other.headers)).json().status).toBe('started');
    advance(25);
    expect((await userToken(vc._id, other)).statusCode).toBe(200);

    await t.app.inject({
      method: 'DELETE',
      url: `/api/v2/videoconference/${vc._id}/session`,
      headers: host.headers,
    });
    expect((await ping(vc._id, {}, other.headers)).json().status).toBe('not_started');
    expect((await userToken(vc._id, other)).json().error_code).toBe('ERR_SESSION_NOT_STARTED');
    expect((await ping(vc._id, {}, host.headers)).json().status).toBe('started');
    expect((await userToken(vc._id, other)).statusCode).toBe(200);
  });

  it('answers a ping without identity, with an unknown guest or for a bad room clearly', async () => {
    const vc = await createVc();
    const anonymous = await ping(vc._id, {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error_code).toBe('ERR_INVALID_ACCESS_TOKEN');
    const unknown = await ping(vc._id, { guest_id: 'nobody' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([{ path: 'guest_id', message: 'unknown guest' }]);
    expect((await ping('zzz-zzzz-zzz', {}, host.headers)).json().error_code).toBe('ERR_VIDEOCONFERENCE_NOT_FOUND');
    expect((await ping('bad%20room', {}, host.headers)).json().error_code).toBe('ERR_INVITE_NOT_VALID');
  });

  it('signs the name given by the meeting link into the token, as plain bounded text', async () => {
    const vc = await createVc();
    const guest = await createGuest('Carla Guest');
    const secret = new TextEncoder().encode(SELF_HOSTED.JITSI_APP_SECRET);
    const nameIn = async (token: string) =>
      ((await jwtVerify(token, secret, { algorithms: ['HS256'] })).payload.context as { user: { name: string } }).user
        .name;

    const hostRes = await userToken(vc._id, host, { display_name: '  Ana \n<b>Lima</b> ' });
    expect(await nameIn(hostRes.json().token)).toBe('Ana <b>Lima</b>');
    const guestRes = await guestToken(vc._id, guest._id, { display_name: 'Dora Link' });
    expect(await nameIn(guestRes.json().data.token)).toBe('Dora Link');
    // Blank or missing: the profile's and the guest's own names.
    expect(await nameIn((await userToken(vc._id, host, { display_name: '   ' })).json().token)).toBe('Ana Host');
    expect(await nameIn((await guestToken(vc._id, guest._id)).json().data.token)).toBe('Carla Guest');
    expect((await userToken(vc._id, host, { display_name: 'x'.repeat(201) })).statusCode).toBe(400);
  });
});

describe('guest-token rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(SELF_HOSTED);
  });
  afterAll(async () => t.close());

  it('counts per guest, so many guests behind one address can wait together', async () => {
    const host = await signedInUser(t.app);
    const vc = (
      await t.app.inject({ method: 'POST', url: '/api/v2/videoconference', payload: {}, headers: host.headers })
    ).json();
    const guests = await Promise.all(
      Array.from({ length: 12 }, async (_, i) =>
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/guest',
            payload: { name: `Guest ${i}`, accepted_terms: { version: 1 } },
            remoteAddress: `10.0.0.${i + 1}`,
          })
        ).json(),
      ),
    );
    const ask = (guestId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/videoconference/guest/token',
        payload: { room_name: vc._id, guest_id: guestId },
        remoteAddress: '203.0.113.7',
      });
    // Twelve guests in one office, each waiting a minute (12 tries): 144 requests from one address.
    for (let round = 0; round < 12; round++) {
      const answers = await Promise.all(guests.map((g: { _id: string }) => ask(g._id)));
      expect(answers.map((a) => a.json().error_code)).toEqual(guests.map(() => 'ERR_SESSION_NOT_STARTED'));
    }
    // One guest hammering is stopped, with Retry-After; the others are not affected.
    const one = guests[0]._id as string;
    let last = await ask(one);
    for (let i = 0; i < 60 && last.statusCode !== 429; i++) last = await ask(one);
    expect(last.statusCode).toBe(429);
    expect(last.json().error_code).toBe('ERR_RATE_LIMITED');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask(guests[1]._id)).json().error_code).toBe('ERR_SESSION_NOT_STARTED');
  });
});

describe('runtime config for JaaS', () => {
  it('publishes the JaaS app id with the meeting domain; none for self-hosted Jitsi', async () => {
    const { generateKeyPair, exportPKCS8 } = await import('jose');
    const pair = await generateKeyPair('RS256', { extractable: true });
    const jaas = await createTestApp({
      MEET_DOMAIN: '8x8.vc',
      JAAS_APP_ID: 'vpaas-magic-cookie-abc',
      JAAS_KID: 'vpaas-magic-cookie-abc/k1',
      JAAS_PRIVATE_KEY: await exportPKCS8(pair.privateKey),
    });
    const self = await createTestApp(SELF_HOSTED);
    try {
      expect((await jaas.app.inject({ url: '/api/config' })).json()).toMatchObject({
        meetDomain: 'https://8x8.vc',
        jaasAppId: 'vpaas-magic-cookie-abc',
      });
      expect((await self.app.inject({ url: '/api/config' })).json()).toMatchObject({
        meetDomain: 'https://meet.acme.test',
        jaasAppId: null,
      });
    } finally {
      await jaas.close();
      await self.close();
    }
  });
});
