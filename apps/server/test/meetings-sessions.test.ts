import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';
import { hostAndOther, signedInUser } from './meetings-support.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

describe('video conferences, guests and meeting sessions', () => {
  let t: TestApp;
  let host: User;
  let other: User;
  beforeAll(async () => {
    ({ t, host, other } = await hostAndOther());
  });
  afterAll(async () => t.close());

  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers?: Record<string, string>) =>
    t.app.inject({ method, url: `/api${url}`, ...(payload ? { payload } : {}), ...(headers ? { headers } : {}) });
  const createVc = async (title?: string) =>
    (await inject('POST', '/v2/videoconference', title ? { title } : {}, host.headers)).json();
  const createGuest = async (name = 'Carla Guest') =>
    (await inject('POST', '/guest', { name, accepted_terms: { version: 1 } })).json();
  const guestToken = (room_name: string, guest_id: string) =>
    inject('POST', '/v2/videoconference/guest/token', { room_name, guest_id });
  const userToken = (room_name: string, user: User) =>
    inject('POST', '/v2/videoconference/token', { room_name }, user.headers);

  it('creates a video conference whose creator is the host and whose id is the room name', async () => {
    const res = await inject('POST', '/v2/videoconference', { title: 'Weekly sync' }, host.headers);
    expect(res.statusCode).toBe(201);
    const vc = res.json();
    expect(vc).toMatchObject({ title: 'Weekly sync', host: host.id, status: 'not_started' });
    expect(vc._id).toMatch(/^[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    expect(vc.link).toBe(`http://localhost:8080/meet/${vc._id}`);
  });

  // The title is read by every guest (the public GET, the room page): the one name rule.
  it('refuses a title with a bidi override, a zero-width or invisible character or NUL; nothing is created', async () => {
    const before = (await inject('GET', '/v2/videoconference', undefined, host.headers)).json().data.length;
    for (const title of [
      'Pay\u202egnp.exe',
      'Stand\u200b-up',
      'Sync\u0000',
      '\u3164',
      'Team \u2800',
      'All\u2066hands',
    ]) {
      const res = await inject('POST', '/v2/videoconference', { title }, host.headers);
      expect({ title, status: res.statusCode, code: res.json().error_code }).toEqual({
        title,
        status: 400,
        code: 'ERR_INVALID_NAME',
      });
    }
    expect((await inject('GET', '/v2/videoconference', undefined, host.headers)).json().data).toHaveLength(before);
    // An untitled meeting stays possible, and a title is stored the way the rule writes it.
    expect((await inject('POST', '/v2/videoconference', { title: '  ' }, host.headers)).json().title).toBe('');
    expect((await inject('POST', '/v2/videoconference', { title: ' Café  do ☕ ' }, host.headers)).json().title).toBe(
      'Café do ☕',
    );
  });

  it('a title stored before the rule reaches guests without the characters it refuses', async () => {
    const vc = await createVc('Weekly');
    await t.app.db.kysely
      .updateTable('videoconferences')
      .set({ title: 'Pay\u202egnp.exe\u200b' })
      .where('id', '=', vc._id)
      .execute();
    expect((await inject('GET', `/v2/videoconference/${vc._id}`)).json().title).toBe('Paygnp.exe');
  });

  // An untitled meeting reads "Ana's meeting" on every guest's screen, never its id or an address.
  it('gives an untitled meeting its host’s first name under the one name rule, never an address', async () => {
    const untitled = await createVc();
    const titled = await createVc('Weekly');
    const view = async (id: string) => (await inject('GET', `/v2/videoconference/${id}`)).json();
    expect(await view(untitled._id)).toEqual({
      _id: untitled._id,
      title: '',
      status: 'not_started',
      host_name: 'Ana',
      participants: { count: 0, names: [] },
      join: 'direct',
    });
    expect((await view(titled._id)).host_name).toBe('');
    // Signed in, the answer says whether Join starts the meeting (the host) or waits for them.
    const signedIn = async (headers: Record<string, string>) =>
      (await inject('GET', `/v2/videoconference/${untitled._id}`, undefined, headers)).json();
    expect((await signedIn(host.headers)).is_host).toBe(true);
    expect((await signedIn(other.headers)).is_host).toBe(false);
    // A first name the rule refuses (stored before it, or an address typed as a name) is not shown.
    for (const first_name of ['ana@acme.test', 'A\u202ena', '   ']) {
      await t.app.db.kysely.updateTable('users').set({ first_name }).where('id', '=', host.id).execute();
      expect({ first_name, host_name: (await view(untitled._id)).host_name }).toEqual({ first_name, host_name: '' });
    }
    await t.app.db.kysely.updateTable('users').set({ first_name: 'Ana' }).where('id', '=', host.id).execute();
  });

  it('requires a session to create or list', async () => {
    expect((await inject('POST', '/v2/videoconference', {})).statusCode).toBe(401);
    expect((await inject('GET', '/v2/videoconference')).json().error_code).toBe('ERR_INVALID_ACCESS_TOKEN');
  });

  it('lists only the caller’s own conferences, newest first', async () => {
    const mine = await createVc('Mine');
    await inject('POST', '/v2/videoconference', { title: 'Theirs' }, other.headers);
    const list = (await inject('GET', '/v2/videoconference', undefined, host.headers)).json().data;
    expect(list[0]._id).toBe(mine._id);
    expect(list.every((vc: { host: string }) => vc.host === host.id)).toBe(true);
  });

  it('creates a guest from a name and accepted terms', async () => {
    const res = await inject('POST', '/guest', { name: '  Carla   Guest ', accepted_terms: { version: 1 } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Carla Guest', accepted_terms: { version: 1 } });
    expect(res.json()._id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('refuses a guest without a name or accepted terms, storing nothing', async () => {
    const before = await t.app.db.kysely
      .selectFrom('guests')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    for (const body of [
      { accepted_terms: { version: 1 } },
      { name: '   ', accepted_terms: { version: 1 } },
      { name: 'Carla' },
      { name: 'Carla', accepted_terms: { version: 2 } },
    ]) {
      const res = await inject('POST', '/guest', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error_code: 'ERR_VALIDATION',
        message: 'Please, fill out all the required fields.',
      });
    }
    // the one display-name rule: a line break is refused, not replaced by a space
    const broken = await inject('POST', '/guest', { name: 'Carla \n Guest', accepted_terms: { version: 1 } });
    expect({ status: broken.statusCode, code: broken.json().error_code }).toEqual({
      status: 400,
      code: 'ERR_INVALID_NAME',
    });
    const after = await t.app.db.kysely
      .selectFrom('guests')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('makes guests and other users wait until the host’s token starts the session', async () => {
    const vc = await createVc();
    const guest = await createGuest();
    const early = await guestToken(vc._id, guest._id);
    expect(early.statusCode).toBe(401);
    expect(early.json()).toEqual({
      error_code: 'ERR_SESSION_NOT_STARTED',
      message: 'The meeting has not started yet. Waiting for the host.',
    });
    expect((await userToken(vc._id, other)).json().error_code).toBe('ERR_SESSION_NOT_STARTED');

    const hostRes = await userToken(vc._id, host);
    expect(hostRes.statusCode).toBe(200);
    expect(hostRes.json()).toMatchObject({ moderator: true, domain: 'meet.acme.test', room: vc._id });

    const late = await guestToken(vc._id, guest._id);
    expect(late.statusCode).toBe(200);
    expect(late.json().data).toMatchObject({ moderator: false, room: vc._id });
    expect(typeof late.json().data.token).toBe('string');
    expect((await userToken(vc._id, other)).json()).toMatchObject({ moderator: false });

    const list = (await inject('GET', '/v2/videoconference', undefined, host.headers)).json().data;
    expect(list.find((v: { _id: string }) => v._id === vc._id).status).toBe('started');
    expect((await inject('GET', `/v2/videoconference/${vc._id}`)).json()).toEqual({
      _id: vc._id,
      title: '',
      status: 'started',
      host_name: 'Ana',
      // Nobody's room page has reported in yet (presence: meetings-presence.test.ts).
      participants: { count: 0, names: [] },
      // An open meeting: a guest goes straight in (the lobby: meetings-lobby.test.ts).
      join: 'direct',
    });
  });

  it('opens one session even when the host asks for tokens from two tabs at once', async () => {
    const vc = await createVc();
    const answers = await Promise.all([userToken(vc._id, host), userToken(vc._id, host), userToken(vc._id, host)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const open = await t.app.db.kysely
      .selectFrom('meeting_sessions')
      .selectAll()
      .where('videoconference_id', '=', vc._id)
      .execute();
    expect(open).toHaveLength(1);
  });

  it('accepts the room name in any letter case, as Jitsi lowercases it', async () => {
    const vc = await createVc();
    expect((await userToken(vc._id.toUpperCase(), host)).json().room).toBe(vc._id);
  });

  it('ends the session when the host ends it; the room can start again', async () => {
    const vc = await createVc();
    const guest = await createGuest();
    await userToken(vc._id, host);
    expect((await guestToken(vc._id, guest._id)).statusCode).toBe(200);
    const ended = await inject('DELETE', `/v2/videoconference/${vc._id}/session`, undefined, host.headers);
    expect(ended.statusCode).toBe(200);
    expect(ended.json().status).toBe('not_started');
    expect((await guestToken(vc._id, guest._id)).json().error_code).toBe('ERR_SESSION_NOT_STARTED');
    await userToken(vc._id, host);
    expect((await guestToken(vc._id, guest._id)).statusCode).toBe(200);
  });

  it('ends the session after the idle limit without tokens', async () => {
    const vc = await createVc();
    const guest = await createGuest();
    await userToken(vc._id, host);
    // 31 minutes ago: past the 30-minute limit this app was configured with.
    await t.app.db.kysely
      .updateTable('meeting_sessions')
      .set({ last_activity_at: Date.now() - 31 * 60_000 })
      .where('videoconference_id', '=', vc._id)
      .execute();
    expect((await guestToken(vc._id, guest._id)).json().error_code).toBe('ERR_SESSION_NOT_STARTED');
    const row = await t.app.db.kysely
      .selectFrom('meeting_sessions')
      .selectAll()
      .where('videoconference_id', '=', vc._id)
      .executeTakeFirstOrThrow();
    expect(row.end_reason).toBe('idle');
  });

  it('keeps a session open while tokens keep being asked for', async () => {
    const vc = await createVc();
    const guest = await createGuest();
    await userToken(vc._id, host);
    await t.app.db.kysely
      .updateTable('meeting_sessions')
      .set({ last_activity_at: Date.now() - 29 * 60_000 })
      .where('videoconference_id', '=', vc._id)
      .execute();
    expect((await guestToken(vc._id, guest._id)).statusCode).toBe(200);
  });

  it('lets only the host end a conference, after which its link is no longer valid', async () => {
    const vc = await createVc();
    const guest = await createGuest();
    await userToken(vc._id, host);
    expect((await inject('DELETE', `/v2/videoconference/${vc._id}`, undefined, other.headers)).json().error_code).toBe(
      'ERR_VIDEOCONFERENCE_NOT_FOUND',
    );
    const res = await inject('DELETE', `/v2/videoconference/${vc._id}`, undefined, host.headers);
    expect(res.json().status).toBe('ended');
    for (const res2 of [await guestToken(vc._id, guest._id), await userToken(vc._id, host)]) {
      expect(res2.statusCode).toBe(400);
      expect(res2.json()).toEqual({ error_code: 'ERR_INVITE_NOT_VALID', message: 'Invite is not valid' });
    }
  });

  it('answers invalid and unknown room names clearly', async () => {
    const guest = await createGuest();
    for (const room of ['', 'bad room!', '../etc', 'x'.repeat(65)]) {
      const res = await guestToken(room, guest._id);
      expect(res.statusCode).toBe(400);
      expect(res.json().error_code).toBe('ERR_INVITE_NOT_VALID');
    }
    const unknown = await guestToken('zzz-zzzz-zzz', guest._id);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      error_code: 'ERR_VIDEOCONFERENCE_NOT_FOUND',
      message: 'Video conference not found.',
    });
    expect((await inject('GET', '/v2/videoconference/zzz-zzzz-zzz')).statusCode).toBe(404);
    expect((await inject('GET', '/v2/videoconference/bad%20room')).json().error_code).toBe('ERR_INVITE_NOT_VALID');
  });

  it('refuses a guest token for an unknown guest', async () => {
    const vc = await createVc();
    await userToken(vc._id, host);
    const res = await guestToken(vc._id, 'nobody');
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'guest_id', message: 'unknown guest' }]);
    expect((await inject('POST', '/v2/videoconference/guest/token', { room_name: vc._id })).statusCode).toBe(400);
  });
});

describe('meetings without a configured meeting service', () => {
  it('answers ERR_MEETINGS_NOT_CONFIGURED for tokens, with no domain or with a domain but no keys', async () => {
    for (const env of [{}, { MEET_DOMAIN: 'meet.acme.test' }]) {
      const t = await createTestApp(env);
      const host = await signedInUser(t.app);
      const vc = (
        await t.app.inject({ method: 'POST', url: '/api/v2/videoconference', payload: {}, headers: host.headers })
      ).json();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/videoconference/token',
        payload: { room_name: vc._id },
        headers: host.headers,
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error_code: 'ERR_MEETINGS_NOT_CONFIGURED',
        message: 'Meetings are not configured on this server.',
      });
      // Nothing started: the session only opens when a token can actually be given.
      const sessions = await t.app.db.kysely.selectFrom('meeting_sessions').selectAll().execute();
      expect(sessions).toEqual([]);
      await t.close();
    }
  });
});

describe('guest endpoint rate limits', () => {
  it('answers 429 with Retry-After once a caller creates too many guests', async () => {
    const t = await createTestApp();
    let last;
    for (let i = 0; i < 31; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/api/guest',
        payload: { name: `G${i}`, accepted_terms: { version: 1 } },
      });
    }
    expect(last!.statusCode).toBe(429);
    expect(last!.json().error_code).toBe('ERR_RATE_LIMITED');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    await t.close();
  });
});
