import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { createTestApp, configProblems, logCapture, type TestApp } from './helpers.js';
import { SELF_HOSTED, signedInUser } from './meetings-support.js';
import { insertSignedInUser } from './helpers.js';
import { startRedis, type RedisFixture } from './redis.js';
import { purgeOldLobbyRequests } from '../src/modules/meetings/index.js';
import { LOBBY_RETENTION_DAYS } from '@suite/contract';

type User = Awaited<ReturnType<typeof signedInUser>>;
type Inject = {
  method?: string;
  url: string;
  payload?: object;
  headers?: Record<string, string>;
  cookie?: string;
  ip?: string;
};

const LOBBY = { ...SELF_HOSTED, MEETING_DEFAULT_ACCESS: 'organisation' };

/** The lobby's calls against one app: a browser is its lobby cookie (none yet: undefined). */
function client(t: TestApp) {
  const call = ({ method = 'GET', url, payload, headers, cookie, ip }: Inject) =>
    t.app.inject({
      method: method as 'GET',
      url: `/api${url}`,
      ...(payload ? { payload } : {}),
      ...(headers ? { headers } : {}),
      ...(cookie ? { cookies: { suite_lobby: cookie } } : {}),
      ...(ip ? { remoteAddress: ip } : {}),
    });
  let guests = 0;
  return {
    call,
    createVc: async (host: User, access?: string) =>
      (
        await call({
          method: 'POST',
          url: '/v2/videoconference',
          payload: access ? { access } : {},
          headers: host.headers,
        })
      ).json(),
    /** A guest record, made from its own address (POST /guest has its own per-address limit). */
    guest: async (name = 'Carla Guest') =>
      (
        await call({
          method: 'POST',
          url: '/guest',
          payload: { name, accepted_terms: { version: 1 } },
          ip: `10.9.${Math.floor(++guests / 200)}.${guests % 200}`,
        })
      ).json()._id as string,
    guestToken: (room_name: string, guest_id: string, cookie?: string, ip?: string) =>
      call({ method: 'POST', url: '/v2/videoconference/guest/token', payload: { room_name, guest_id }, cookie, ip }),
    userToken: (room_name: string, user: User, cookie?: string) =>
      call({ method: 'POST', url: '/v2/videoconference/token', payload: { room_name }, headers: user.headers, cookie }),
    mine: (room: string, cookie?: string) => call({ url: `/v2/videoconference/${room}/lobby/me`, cookie }),
    list: (room: string, user: User) => call({ url: `/v2/videoconference/${room}/lobby`, headers: user.headers }),
    admit: (room: string, id: string, user: User) =>
      call({ method: 'POST', url: `/v2/videoconference/${room}/lobby/requests/${id}/admit`, headers: user.headers }),
    deny: (room: string, id: string, user: User) =>
      call({ method: 'POST', url: `/v2/videoconference/${room}/lobby/requests/${id}/deny`, headers: user.headers }),
    admitAll: (room: string, user: User) =>
      call({ method: 'POST', url: `/v2/videoconference/${room}/lobby/admit-all`, headers: user.headers }),
  };
}

type Client = ReturnType<typeof client>;

/** An app with the lobby on, its client, a host and a colleague of the host's domain. */
async function lobbyWorld() {
  const t = await createTestApp(LOBBY);
  return {
    t,
    c: client(t),
    host: await signedInUser(t.app, 'Ada', 'Host'),
    colleague: await signedInUser(t.app, 'Bruno', 'Colleague'),
  };
}

const lobbyCookie = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === 'suite_lobby')?.value;

/** A user of another domain than the host's (acme.test). */
async function outsider(t: TestApp) {
  const email = `olga.${Math.random().toString(16).slice(2, 8)}@other.test`;
  const { token } = await insertSignedInUser(t.app, {
    email,
    first: 'Olga',
    last: 'Out',
    createdAt: Date.now() - 10_000,
  });
  return { email, headers: { authorization: `Bearer ${token}` } } as User;
}

describe('meeting access levels', () => {
  let t: TestApp, c: Client, host: User, colleague: User;
  beforeAll(async () => ({ t, c, host, colleague } = await lobbyWorld()));
  afterAll(() => t?.close());

  it('takes the operator default, a level the host chooses, and refuses a level the operator forbids', async () => {
    expect((await c.createVc(host)).access).toBe('organisation');
    expect((await c.createVc(host, 'restricted')).access).toBe('restricted');
    const t2 = await createTestApp({ ...LOBBY, MEETING_ACCESS_LEVELS: 'organisation,restricted' });
    try {
      const c2 = client(t2);
      const h2 = await signedInUser(t2.app, 'Ada', 'Host');
      const res = await c2.call({
        method: 'POST',
        url: '/v2/videoconference',
        payload: { access: 'open' },
        headers: h2.headers,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error_code).toBe('ERR_MEETING_ACCESS_NOT_ALLOWED');
      expect((await c2.call({ url: '/v2/videoconference', headers: h2.headers })).json().data).toHaveLength(0);
    } finally {
      await t2.close();
    }
  });

  it('checks the settings once, at start', () => {
    const dir = t.dataDir;
    expect(configProblems(dir, { MEETING_DEFAULT_ACCESS: 'open', MEETING_ACCESS_LEVELS: 'organisation' })).toEqual([
      'MEETING_DEFAULT_ACCESS: must be one of MEETING_ACCESS_LEVELS (organisation)',
    ]);
    expect(configProblems(dir, { MEETING_ACCESS_LEVELS: 'open,everyone' }).join()).toMatch(/MEETING_ACCESS_LEVELS/);
    expect(configProblems(dir, { MEETING_DEFAULT_ACCESS: 'public' }).join()).toMatch(/MEETING_DEFAULT_ACCESS/);
  });

  it('lets the host and co-hosts change the level; anyone else reads "not found"', async () => {
    const vc = await c.createVc(host);
    const patch = (user: User, access: string) =>
      c.call({
        method: 'PATCH',
        url: `/v2/videoconference/${vc._id}/access`,
        payload: { access },
        headers: user.headers,
      });
    expect((await patch(colleague, 'open')).statusCode).toBe(404);
    expect((await patch(host, 'restricted')).json().access).toBe('restricted');
    await c.call({
      method: 'POST',
      url: `/v2/videoconference/${vc._id}/cohosts`,
      payload: { email: colleague.email },
      headers: host.headers,
    });
    expect((await patch(colleague, 'open')).json().access).toBe('open');
    expect((await patch(colleague, 'everyone')).statusCode).toBe(400);
  });

  it('tells the pre-join whether Join goes straight in or asks', async () => {
    const vc = await c.createVc(host);
    const join = async (headers?: Record<string, string>) =>
      (await c.call({ url: `/v2/videoconference/${vc._id}`, headers })).json().join;
    expect(await join()).toBe('ask');
    expect(await join(colleague.headers)).toBe('direct');
    expect(await join((await outsider(t)).headers)).toBe('ask');
    expect(await join(host.headers)).toBe('direct');
  });
});

describe('asking to join', () => {
  let t: TestApp, c: Client, host: User, colleague: User;
  beforeAll(async () => ({ t, c, host, colleague } = await lobbyWorld()));
  afterAll(() => t?.close());

  /** A meeting whose host is in (session open). */
  async function started(access?: string) {
    const vc = await c.createVc(host, access);
    expect((await c.userToken(vc._id, host)).statusCode).toBe(200);
    return vc._id as string;
  }
  /** A guest asks from a new browser: 202, no token, a cookie; returns the cookie and the request's id. */
  async function ask(room: string, name = 'Carla Guest') {
    const guestId = await c.guest(name);
    const res = await c.guestToken(room, guestId);
    expect(res.statusCode).toBe(202);
    expect(JSON.stringify(res.json())).not.toMatch(/token/);
    const cookie = lobbyCookie(res)!;
    expect(cookie).toBeTruthy();
    expect(res.headers['set-cookie']).toMatch(/HttpOnly/i);
    const { requests } = (await c.list(room, host)).json();
    return { guestId, cookie, id: requests.find((r: { name: string }) => r.name === name).id as string };
  }

  it('keeps "waiting for the host" before the host arrives, and records no request', async () => {
    const vc = await c.createVc(host);
    const guestId = await c.guest();
    const res = await c.guestToken(vc._id, guestId);
    expect(res.statusCode).toBe(401);
    expect(res.json().error_code).toBe('ERR_SESSION_NOT_STARTED');
    expect(lobbyCookie(res)).toBeUndefined();
    await c.userToken(vc._id, host);
    expect((await c.list(vc._id, host)).json().requests).toEqual([]);
  });

  it('lets a signed-in colleague straight in on organisation; a guest and another domain wait', async () => {
    const room = await started('organisation');
    expect((await c.userToken(room, colleague)).statusCode).toBe(200);
    await ask(room, 'Gina Guest');
    const other = await outsider(t);
    const res = await c.userToken(room, other);
    expect(res.statusCode).toBe(202);
    expect(res.json().lobby).toEqual({
      status: 'waiting',
      waiting_for: 'Ada',
      admitter_present: false,
      can_ask_again: true,
    });
    const { requests } = (await c.list(room, host)).json();
    expect(
      requests.map((r: { name: string; signed_in: boolean; domain: string }) => [r.name, r.signed_in, r.domain]),
    ).toEqual([
      ['Gina Guest', false, ''],
      ['Olga Out', true, 'other.test'],
    ]);
  });

  it('makes even a colleague ask on restricted, and lets everyone in on open', async () => {
    const restricted = await started('restricted');
    expect((await c.userToken(restricted, colleague)).statusCode).toBe(202);
    const open = await started('open');
    expect((await c.guestToken(open, await c.guest())).statusCode).toBe(200);
  });

  it('waiting → admitted: the token goes to the browser that asked, and to no other', async () => {
    const room = await started();
    const me = await ask(room);
    // Asking again from the same browser is the same request, still waiting, still no token.
    const again = await c.guestToken(room, me.guestId, me.cookie);
    expect(again.statusCode).toBe(202);
    expect((await c.list(room, host)).json().requests).toHaveLength(1);
    expect((await c.admit(room, me.id, host)).json()).toEqual({ admitted: 1 });
    expect((await c.mine(room, me.cookie)).json().status).toBe('admitted');
    const token = await c.guestToken(room, me.guestId, me.cookie);
    expect(token.statusCode).toBe(200);
    expect(token.json().data).toMatchObject({ moderator: false, room });
    // The same guest id from another browser (a copied guest id, no cookie) is a new request, not admitted.
    const elsewhere = await c.guestToken(room, me.guestId);
    expect(elsewhere.statusCode).toBe(202);
    // Another guest who got hold of the admitted browser's cookie is not the admitted person.
    expect((await c.guestToken(room, await c.guest('Mallory'), me.cookie)).statusCode).toBe(202);
    // An admission holds for this session only: the host ends it and starts again, the person asks again.
    await c.call({ method: 'DELETE', url: `/v2/videoconference/${room}/session`, headers: host.headers });
    await c.userToken(room, host);
    const me2 = await ask(room, 'Carla Again');
    expect((await c.guestToken(room, me2.guestId, me2.cookie)).statusCode).toBe(202);
  });

  it('waiting → denied → asks once more → denied → may not ask again', async () => {
    const room = await started();
    const me = await ask(room);
    await c.deny(room, me.id, host);
    expect((await c.mine(room, me.cookie)).json()).toMatchObject({ status: 'denied', can_ask_again: true });
    expect((await c.guestToken(room, me.guestId, me.cookie)).statusCode).toBe(202);
    expect((await c.mine(room, me.cookie)).json().status).toBe('waiting');
    expect((await c.deny(room, me.id, host)).statusCode).toBe(200);
    expect((await c.mine(room, me.cookie)).json()).toMatchObject({ status: 'denied', can_ask_again: false });
    const third = await c.guestToken(room, me.guestId, me.cookie);
    expect(third.statusCode).toBe(403);
    expect(third.json().error_code).toBe('ERR_LOBBY_CLOSED');
    // Nor from a fresh browser as the same person.
    expect((await c.guestToken(room, me.guestId)).json().error_code).toBe('ERR_LOBBY_CLOSED');
    expect((await c.list(room, host)).json().requests).toEqual([]);
  });

  it('waiting → cancelled: gone from the host list; an admit of it changes nothing', async () => {
    const room = await started();
    const me = await ask(room);
    expect(
      (await c.call({ method: 'DELETE', url: `/v2/videoconference/${room}/lobby/me`, cookie: me.cookie })).statusCode,
    ).toBe(204);
    expect((await c.mine(room, me.cookie)).json().status).toBe('cancelled');
    expect((await c.list(room, host)).json().requests).toEqual([]);
    expect((await c.admit(room, me.id, host)).statusCode).toBe(404);
    expect((await c.guestToken(room, me.guestId, me.cookie)).statusCode).toBe(202);
  });

  it('waiting → expired 10 minutes after the page stops asking', async () => {
    const room = await started();
    const me = await ask(room);
    await t.app.db.kysely
      .updateTable('meeting_lobby_requests')
      .set({ last_seen_at: Date.now() - 601_000 })
      .where('id', '=', me.id)
      .execute();
    expect((await c.list(room, host)).json().requests).toEqual([]);
    expect((await c.admit(room, me.id, host)).statusCode).toBe(404);
    expect((await c.mine(room, me.cookie)).json().status).toBe('expired');
    expect((await c.admitAll(room, host)).json()).toEqual({ admitted: 0 });
    expect((await c.guestToken(room, me.guestId, me.cookie)).statusCode).toBe(202);
  });

  it('forgets requests unused for 30 days (the purge job), and keeps the recent ones', async () => {
    const room = await started();
    const old = await ask(room, 'Olga Old');
    await c.deny(room, old.id, host);
    const waiting = await ask(room, 'Walt Stale');
    const recent = await ask(room, 'Rita Recent');
    const long = Date.now() - (LOBBY_RETENTION_DAYS + 1) * 86_400_000;
    await t.app.db.kysely
      .updateTable('meeting_lobby_requests')
      .set({ last_seen_at: long, created_at: long })
      .where('id', 'in', [old.id, waiting.id])
      .execute();
    await t.app.db.kysely
      .updateTable('meeting_lobby_requests')
      .set({ decided_at: long })
      .where('id', '=', old.id)
      .execute();
    expect(await purgeOldLobbyRequests(t.app.db.kysely)).toBe(2);
    const left = await t.app.db.kysely
      .selectFrom('meeting_lobby_requests')
      .select('id')
      .where('id', 'in', [old.id, waiting.id, recent.id])
      .execute();
    expect(left.map((r) => r.id)).toEqual([recent.id]);
  });

  it('refuses an admit for another meeting or by anyone but the host and co-hosts (404, nothing changes)', async () => {
    const roomA = await started();
    const roomB = await started();
    const me = await ask(roomA);
    expect((await c.admit(roomB, me.id, host)).statusCode).toBe(404);
    expect((await c.deny(roomB, me.id, host)).statusCode).toBe(404);
    expect((await c.admit(roomA, me.id, colleague)).statusCode).toBe(404);
    expect((await c.admitAll(roomA, colleague)).statusCode).toBe(404);
    expect((await c.list(roomA, colleague)).statusCode).toBe(404);
    expect((await c.admit('zzz-zzzz-zzz', me.id, host)).statusCode).toBe(404);
    expect((await c.mine(roomA, me.cookie)).json().status).toBe('waiting');
    // Another browser's cookie reads nothing of this one's request.
    expect((await c.mine(roomA, 'not-my-cookie')).statusCode).toBe(404);
    expect((await c.mine(roomA)).statusCode).toBe(404);
  });

  it('admits all waiting people at once', async () => {
    const room = await started();
    const people = [];
    for (let i = 0; i < 10; i++) people.push(await ask(room, `Guest ${i}`));
    expect((await c.admitAll(room, host)).json()).toEqual({ admitted: 10 });
    for (const p of people) expect((await c.guestToken(room, p.guestId, p.cookie)).statusCode).toBe(200);
  });

  it('co-hosts: named by the host among signed-in people of the domain; they admit and go straight in', async () => {
    const room = await started('restricted');
    const cohosts = (payload: object, user = host) =>
      c.call({ method: 'POST', url: `/v2/videoconference/${room}/cohosts`, payload, headers: user.headers });
    const other = await outsider(t);
    expect((await cohosts({ email: other.email })).json().error_code).toBe('ERR_COHOST_NOT_ALLOWED');
    expect((await cohosts({ email: 'nobody@acme.test' })).json().error_code).toBe('ERR_COHOST_NOT_ALLOWED');
    expect((await cohosts({ email: colleague.email }, colleague)).statusCode).toBe(404);
    const me = await ask(room);
    expect((await c.admit(room, me.id, colleague)).statusCode).toBe(404);
    const named = await cohosts({ email: colleague.email.toUpperCase() });
    expect(named.json().data.map((u: { email: string }) => u.email)).toEqual([colleague.email]);
    // A co-host goes straight in on restricted, with moderator rights, and admits.
    expect((await c.userToken(room, colleague)).json()).toMatchObject({ moderator: true });
    expect((await c.list(room, colleague)).json().requests).toHaveLength(1);
    expect((await c.admit(room, me.id, colleague)).json()).toEqual({ admitted: 1 });
    // "End for everyone" from a co-host ends our session too: the next guest waits for the host again.
    const ended = await c.call({
      method: 'DELETE',
      url: `/v2/videoconference/${room}/session`,
      headers: colleague.headers,
    });
    expect(ended.statusCode).toBe(200);
    const late = await c.guestToken(room, await c.guest('Late Guest'));
    expect(late.json().error_code).toBe('ERR_SESSION_NOT_STARTED');
    expect((await c.userToken(room, host)).statusCode).toBe(200);
    // A co-host names nobody; the host removes one.
    const removed = await c.call({
      method: 'DELETE',
      url: `/v2/videoconference/${room}/cohosts/${named.json().data[0].id}`,
      headers: host.headers,
    });
    expect(removed.json().data).toEqual([]);
    expect((await c.list(room, colleague)).statusCode).toBe(404);
    // No longer a co-host: ending the session is not theirs (not found, the session stays).
    const refused = await c.call({
      method: 'DELETE',
      url: `/v2/videoconference/${room}/session`,
      headers: colleague.headers,
    });
    expect(refused.statusCode).toBe(404);
  });

  it('says who they wait for, and "nobody can let you in" when no admitter is in the room', async () => {
    const room = await started();
    const me = await ask(room);
    expect((await c.mine(room, me.cookie)).json()).toMatchObject({ waiting_for: 'Ada', admitter_present: false });
    const beat = (user: User, method = 'PUT') =>
      c.call({ method, url: `/v2/videoconference/${room}/presence`, payload: {}, headers: user.headers });
    expect((await beat(host)).statusCode).toBe(204);
    expect((await c.mine(room, me.cookie)).json()).toMatchObject({ waiting_for: 'Ada', admitter_present: true });
    await c.call({
      method: 'POST',
      url: `/v2/videoconference/${room}/cohosts`,
      payload: { email: colleague.email },
      headers: host.headers,
    });
    await beat(colleague);
    await beat(host, 'DELETE');
    expect((await c.mine(room, me.cookie)).json()).toMatchObject({ waiting_for: 'Bruno', admitter_present: true });
  });

  it('counts a signed-in person who must ask as here only once let in, from the browser let in', async () => {
    const room = await started();
    const other = await outsider(t);
    const beat = (cookie?: string) =>
      c.call({
        method: 'PUT',
        url: `/v2/videoconference/${room}/presence`,
        payload: {},
        headers: other.headers,
        cookie,
      });
    const asked = await c.userToken(room, other);
    const cookie = lobbyCookie(asked)!;
    expect((await beat(cookie)).statusCode).toBe(403);
    const id = (await c.list(room, host)).json().requests[0].id;
    await c.admit(room, id, host);
    expect((await beat()).statusCode).toBe(403);
    expect((await beat(cookie)).statusCode).toBe(204);
    expect((await c.call({ url: `/v2/videoconference/${room}` })).json().participants.names).toEqual(['Olga']);
  });

  it('invitees: a mail each, a personal link past the lobby, revocable; the host sees who joined', async () => {
    const room = await started('restricted');
    const invite = (emails: string[], user = host) =>
      c.call({
        method: 'POST',
        url: `/v2/videoconference/${room}/invitees`,
        payload: { emails },
        headers: user.headers,
      });
    expect((await invite(['x@guest.test'], colleague)).statusCode).toBe(404);
    expect((await invite(['not an address'])).json().error_code).toBe('ERR_VALIDATION');
    const list = await invite(['Iris@Guest.test', 'ivan@guest.test', 'iris@guest.test']);
    expect(list.json().data.map((i: { email: string }) => i.email)).toEqual(['iris@guest.test', 'ivan@guest.test']);
    const mails = await t.app.db.kysely
      .selectFrom('mail_outbox')
      .select(['kind', 'to_address', 'subject', 'text_body'])
      .where('to_address', 'in', ['iris@guest.test', 'ivan@guest.test'])
      .execute();
    expect(mails).toHaveLength(2);
    expect(mails[0]!.subject).toContain(host.email);
    const linkOf = (to: string) =>
      new URL(/http\S+\?invite=\S+/.exec(mails.find((m) => m.to_address === to)!.text_body)![0]).searchParams.get(
        'invite',
      )!;
    // The stored token is hashed: the mail's link is not in the table.
    const stored = await t.app.db.kysely.selectFrom('meeting_invitees').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(linkOf('iris@guest.test'));
    // Inviting again sends nothing new.
    await invite(['iris@guest.test']);
    expect(
      await t.app.db.kysely
        .selectFrom('mail_outbox')
        .select('id')
        .where('to_address', '=', 'iris@guest.test')
        .execute(),
    ).toHaveLength(1);

    const irisGuest = await c.guest('Iris');
    const tokenWith = (invite: string | undefined, guestId = irisGuest) =>
      c.call({
        method: 'POST',
        url: '/v2/videoconference/guest/token',
        payload: { room_name: room, guest_id: guestId, ...(invite ? { invite } : {}) },
        ip: '203.0.113.5',
      });
    expect((await tokenWith(undefined)).statusCode).toBe(202);
    expect((await tokenWith('forged-' + linkOf('iris@guest.test'))).statusCode).toBe(202);
    expect((await tokenWith(linkOf('iris@guest.test'))).statusCode).toBe(200);
    // Another meeting's invitation is worth nothing here.
    const otherRoom = await started('restricted');
    expect(
      (
        await c.call({
          method: 'POST',
          url: '/v2/videoconference/guest/token',
          payload: { room_name: otherRoom, guest_id: irisGuest, invite: linkOf('iris@guest.test') },
          ip: '203.0.113.5',
        })
      ).statusCode,
    ).toBe(202);
    const after = (await c.call({ url: `/v2/videoconference/${room}/invitees`, headers: host.headers })).json().data;
    expect(after.map((i: { email: string; joined_at: string | null }) => [i.email, Boolean(i.joined_at)])).toEqual([
      ['iris@guest.test', true],
      ['ivan@guest.test', false],
    ]);
    // Revoked: the link goes back to asking.
    const ivan = after.find((i: { email: string }) => i.email === 'ivan@guest.test');
    const revoked = await c.call({
      method: 'DELETE',
      url: `/v2/videoconference/${room}/invitees/${ivan.id}`,
      headers: host.headers,
    });
    expect(revoked.json().data.find((i: { id: string }) => i.id === ivan.id).revoked).toBe(true);
    expect((await tokenWith(linkOf('ivan@guest.test'), await c.guest('Ivan'))).statusCode).toBe(202);
  });

  it('limits new requests per address', async () => {
    const room = await started();
    const ip = '198.51.100.7';
    const codes: number[] = [];
    for (let i = 0; i < 31; i++)
      codes.push((await c.guestToken(room, await c.guest(`Flood ${i}`), undefined, ip)).statusCode);
    expect(codes.slice(0, 30).every((s) => s === 202)).toBe(true);
    expect(codes[30]).toBe(429);
    // Another address still asks.
    expect((await c.guestToken(room, await c.guest('Honest'), undefined, '198.51.100.8')).statusCode).toBe(202);
  });
});

/** Reads a Server-Sent Events stream until `until` accepts an event's data. */
async function nextEvent(url: string, init: RequestInit, until: (data: unknown) => boolean) {
  const controller = new AbortController();
  const res = await fetch(url, { ...init, signal: controller.signal });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const seen: unknown[] = [];
  const read = async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended; saw ${JSON.stringify(seen)}`);
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (!data) continue;
        const parsed = JSON.parse(data.slice(6));
        seen.push(parsed);
        if (until(parsed)) return parsed;
      }
    }
  };
  return {
    seen,
    wait: () => read(),
    close: () => controller.abort(),
  };
}

describe('pushed decisions and requests (Server-Sent Events)', () => {
  let t: TestApp, c: Client, host: User, base: string;
  beforeAll(async () => {
    ({ t, c, host } = await lobbyWorld());
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it("pushes a new request to the host's list and the decision to the waiting page, without polling", async () => {
    const vc = await c.createVc(host);
    await c.userToken(vc._id, host);
    const hostStream = await nextEvent(
      `${base}/api/v2/videoconference/${vc._id}/lobby/events`,
      { headers: host.headers },
      (d) => (d as { requests: unknown[] }).requests.length === 1,
    );
    const seenByHost = hostStream.wait();
    const guestId = await c.guest('Sse Guest');
    const asked = await c.guestToken(vc._id, guestId);
    const cookie = lobbyCookie(asked)!;
    const list = (await seenByHost) as { requests: { id: string; name: string }[] };
    expect(list.requests[0]!.name).toBe('Sse Guest');
    const mine = await nextEvent(
      `${base}/api/v2/videoconference/${vc._id}/lobby/me/events`,
      { headers: { cookie: `suite_lobby=${cookie}` } },
      (d) => (d as { status: string }).status === 'admitted',
    );
    const decision = mine.wait();
    await c.admit(vc._id, list.requests[0]!.id, host);
    expect(await decision).toMatchObject({ status: 'admitted' });
    expect(mine.seen[0]).toMatchObject({ status: 'waiting' });
    hostStream.close();
    mine.close();
    expect((await c.guestToken(vc._id, guestId, cookie)).statusCode).toBe(200);
  });

  it('refuses the host stream to anyone but an admitter, and the waiting stream without its cookie', async () => {
    const vc = await c.createVc(host);
    const stranger = await signedInUser(t.app, 'Sam', 'Stranger');
    expect(
      (await fetch(`${base}/api/v2/videoconference/${vc._id}/lobby/events`, { headers: stranger.headers })).status,
    ).toBe(404);
    expect((await fetch(`${base}/api/v2/videoconference/${vc._id}/lobby/me/events`)).status).toBe(404);
  });
});

describe('a Redis outage: 503 with Retry-After, nobody admitted by accident, heals by itself', () => {
  let redis: RedisFixture;
  let t: TestApp;
  let c: Client;
  let host: User;
  beforeAll(async () => {
    redis = await startRedis();
    t = await createTestApp({ ...LOBBY, REDIS_URL: redis.url });
    c = client(t);
    host = await signedInUser(t.app, 'Ada', 'Host');
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('answers 503 while Redis is down and resumes once it answers', async () => {
    const vc = await c.createVc(host);
    await c.userToken(vc._id, host);
    const waiting = await c.guestToken(vc._id, await c.guest('Before'));
    expect(waiting.statusCode).toBe(202);
    const cookie = lobbyCookie(waiting)!;
    const id = (await c.list(vc._id, host)).json().requests[0].id;

    await redis.stop();
    const asked = await c.guestToken(vc._id, await c.guest('During'));
    expect(asked.statusCode).toBe(503);
    expect(asked.headers['retry-after']).toBeTruthy();
    const admitted = await c.admit(vc._id, id, host);
    expect(admitted.statusCode).toBe(503);
    expect(admitted.headers['retry-after']).toBeTruthy();
    expect((await c.admitAll(vc._id, host)).statusCode).toBe(503);
    // Nothing changed: still waiting, still no token.
    expect((await c.mine(vc._id, cookie)).json().status).toBe('waiting');

    await redis.start();
    await expect
      .poll(async () => (await c.admit(vc._id, id, host)).statusCode, { timeout: 15_000, interval: 100 })
      .toBe(200);
    expect((await c.mine(vc._id, cookie)).json().status).toBe('admitted');
  });
});

describe('two instances: ask on one, admit on the other', () => {
  let redis: RedisFixture;
  let t: TestApp;
  let other: FastifyInstance;
  let c: Client;
  let host: User;
  let baseA: string;
  beforeAll(async () => {
    redis = await startRedis();
    t = await createTestApp({ ...LOBBY, REDIS_URL: redis.url });
    // The same database and Redis: another instance behind the same load balancer.
    other = await buildApp(t.config, { logger: false });
    await other.ready();
    c = client(t);
    host = await signedInUser(t.app, 'Ada', 'Host');
    baseA = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await redis?.stop();
  });

  it('pushes the decision taken on instance B to the waiting page on instance A, and the token follows', async () => {
    const vc = await c.createVc(host);
    await c.userToken(vc._id, host);
    const guestId = await c.guest('Two Instances');
    const asked = await c.guestToken(vc._id, guestId);
    const cookie = lobbyCookie(asked)!;
    const mine = await nextEvent(
      `${baseA}/api/v2/videoconference/${vc._id}/lobby/me/events`,
      { headers: { cookie: `suite_lobby=${cookie}` } },
      (d) => (d as { status: string }).status === 'admitted',
    );
    const decision = mine.wait();
    // The host's list on B shows the request made on A.
    const onB = await other.inject({
      method: 'GET',
      url: `/api/v2/videoconference/${vc._id}/lobby`,
      headers: host.headers,
    });
    const [request] = onB.json().requests;
    expect(request.name).toBe('Two Instances');
    const admitted = await other.inject({
      method: 'POST',
      url: `/api/v2/videoconference/${vc._id}/lobby/requests/${request.id}/admit`,
      headers: host.headers,
    });
    expect(admitted.json()).toEqual({ admitted: 1 });
    expect(await decision).toMatchObject({ status: 'admitted' });
    mine.close();
    // The token is given by either instance to the browser that asked.
    const token = await other.inject({
      method: 'POST',
      url: '/api/v2/videoconference/guest/token',
      payload: { room_name: vc._id, guest_id: guestId },
      cookies: { suite_lobby: cookie },
    });
    expect(token.statusCode).toBe(200);
  });
});

describe('start-up warning', () => {
  it('warns when meetings are configured without a token secret: the lobby then guards nothing', async () => {
    const log = logCapture();
    const t = await createTestApp({ MEET_DOMAIN: 'meet.acme.test' }, { logger: { level: 'warn', stream: log.stream } });
    try {
      expect(log.lines.some((l) => l.includes('without a token secret'))).toBe(true);
    } finally {
      await t.close();
    }
    const quiet = logCapture();
    const t2 = await createTestApp(SELF_HOSTED, { logger: { level: 'warn', stream: quiet.stream } });
    try {
      expect(quiet.lines.some((l) => l.includes('without a token secret'))).toBe(false);
    } finally {
      await t2.close();
    }
  });
});
