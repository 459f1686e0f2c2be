/**
 * The adversarial suite (docs/security.md): one test per attack, named after it, asserting
 * what the attacker gets. Real server (app.inject, and a real socket where Node's parser is the
 * target), real database, real SMTP on loopback; Jitsi is only a signing key.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { API, CODE_MAIL_SPACING_S, ERRORS } from '@suite/contract';
import {
  type AccountsWorld,
  PASSWORD,
  call,
  changePassword,
  confirmed,
  decodeSession,
  expectError,
  inviteTeammate,
  inviteTokenIn,
  mailTo,
  outboxDrained,
  recoverByMail,
  registered,
  signup,
  startWorld,
  useWorld,
} from './accounts-helpers.js';
import { multipartBody } from './files-helpers.js';
import { SELF_HOSTED } from './meetings-support.js';
import { createTestApp, logCapture } from './helpers.js';
import { SLOWDOWN_BASE_MS, SLOWDOWN_MAX_MS, slowdownMs } from '../src/plugins/throttle.js';
import { codeIn } from './smtp.js';

const enc = (s: string) => new TextEncoder().encode(s);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * The claims of a genuine session (user, session id, kind) without iat/exp: what a forger would copy
 * into a token of their own, so each attack below is refused for its one flaw alone.
 */
const claimsOf = (token: string) => {
  const { user, sid, kind } = decodeSession(token) as ReturnType<typeof decodeSession> & { sid: string; kind: string };
  return { user, sid, kind };
};

/** No body may carry the framework's words, a stack or anything the request sent. */
function expectCatalogueBody(res: LightMyRequestResponse, status: number, code: string, echoed: string[] = []) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error_code', 'message']);
  expect(body.error_code).toBe(code);
  expect(body.message).toBe(ERRORS[code as keyof typeof ERRORS].message);
  for (const part of echoed) expect(res.body).not.toContain(part);
}

/** Deterministic PRNG (mulberry32): the fuzz run is the same on every machine. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The fuzz test reads the per-route request counts from /metrics. */
const METRICS_TOKEN = 'adversarial-metrics-token-0123';
const w = useWorld({ ...SELF_HOSTED, METRICS_TOKEN });
/** The key the server signs sessions with (derived from SESSION_SECRET): what a leaked key would give. */
const sessionKey = () => w.t.config.keys.session.sign;

describe('tokens', () => {
  let victim: { token: string; id: string };
  beforeAll(async () => {
    victim = await registered(w, 'tok-victim@contoso.com');
  });
  const me = (headers: Record<string, string> = {}) => w.app.inject({ method: 'GET', url: '/api/v2/user/me', headers });

  it('no token: 401, nothing about the user', async () => {
    expectCatalogueBody(await me(), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('forged token (signed with another secret): 401', async () => {
    const forged = await new SignJWT(claimsOf(victim.token))
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(enc('another-secret-another-secret-another-1'));
    expectCatalogueBody(await me(bearer(forged)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('alg "none" token: 401', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(
      JSON.stringify({ ...claimsOf(victim.token), iat: Math.floor(Date.now() / 1000), exp: 9_999_999_999 }),
    ).toString('base64url');
    expectCatalogueBody(await me(bearer(`${header}.${body}.`)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('HS512 token with the right secret (algorithm confusion): 401', async () => {
    const token = await new SignJWT(claimsOf(victim.token))
      .setProtectedHeader({ alg: 'HS512' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(sessionKey());
    expectCatalogueBody(await me(bearer(token)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('tampered payload (another user id under the genuine signature): 401', async () => {
    const [h, , s] = victim.token.split('.');
    const other = Buffer.from(
      JSON.stringify({ ...decodeSession(victim.token), user: { ...decodeSession(victim.token).user, _id: 'x' } }),
    ).toString('base64url');
    expectCatalogueBody(await me(bearer(`${h}.${other}.${s}`)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('expired token: 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT(claimsOf(victim.token))
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 60)
      .sign(sessionKey());
    expectCatalogueBody(await me(bearer(token)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('token without exp (valid forever if accepted): 401', async () => {
    const token = await new SignJWT(claimsOf(victim.token))
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .sign(sessionKey());
    expectCatalogueBody(await me(bearer(token)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('a genuine session still works (the attacks above were refused for their flaw alone)', async () => {
    expect((await me(bearer(victim.token))).statusCode).toBe(200);
    const handMade = await new SignJWT(claimsOf(victim.token))
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(sessionKey());
    expect((await me(bearer(handMade))).statusCode).toBe(200);
  });

  it('a session token is the JWS jose signs from its claims, byte for byte, and jose verifies it', async () => {
    // The server MACs with node:crypto, not through jose: the format must not drift from jose's.
    const again = await new SignJWT(decodeJwt(victim.token))
      .setProtectedHeader(decodeProtectedHeader(victim.token))
      .sign(sessionKey());
    expect(again).toBe(victim.token);
    await expect(jwtVerify(victim.token, sessionKey(), { algorithms: ['HS256'] })).resolves.toBeTruthy();
  });

  it('the genuine signature written otherwise, or a header naming a critical extension: 401', async () => {
    const [h, p, s = ''] = victim.token.split('.');
    const last = s.at(-1) === 'A' ? 'B' : 'A';
    for (const signature of [`${s}=`, `${s}A`, `${s.slice(0, -1)}${last}`, `${s.slice(0, 20)}.${s.slice(20)}`, '']) {
      expectCatalogueBody(await me(bearer(`${h}.${p}.${signature}`)), 401, 'ERR_INVALID_ACCESS_TOKEN');
    }
    // An unknown critical extension must be refused even under the right key (RFC 7515 §4.1.11).
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', crit: ['x-unknown'], 'x-unknown': 1 })).toString(
      'base64url',
    );
    const input = `${header}.${p}`;
    const mac = createHmac('sha256', sessionKey()).update(input).digest('base64url');
    expectCatalogueBody(await me(bearer(`${input}.${mac}`)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('token with the right key but no server-side session (made-up sid, or none): 401', async () => {
    const { user } = claimsOf(victim.token);
    for (const claims of [
      { user, sid: 'made-up-session-id', kind: 'session' },
      { user, kind: 'session' },
    ]) {
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(sessionKey());
      expectCatalogueBody(await me(bearer(token)), 401, 'ERR_INVALID_ACCESS_TOKEN');
    }
  });

  it('recovery token used as a session: 401 everywhere but the password change', async () => {
    const recovery = await recoverByMail(w, 'tok-victim@contoso.com');
    expectCatalogueBody(await me(bearer(recovery)), 401, 'ERR_INVALID_ACCESS_TOKEN');
    for (const [method, url] of [
      ['GET', '/api/v2/videoconference'],
      ['GET', '/api/files'],
      ['GET', '/api/invite/url'],
      ['POST', '/api/auth/logout-all'],
    ] as const) {
      const r = await w.app.inject({ method, url, headers: bearer(recovery) });
      expect(r.statusCode, url).toBe(401);
    }
  });

  it('invite token used as a session: 401', async () => {
    const mail = await inviteTeammate(w, victim.token, 'tok-invitee@contoso.com');
    const inviteToken = inviteTokenIn(mail);
    expect(inviteToken).not.toBe('');
    expectCatalogueBody(await me(bearer(inviteToken)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('team invite link token used as a session: 401', async () => {
    const res = await call(w.app, { method: 'GET', url: API.invitationUrl, token: victim.token });
    const teamToken = new URL(res.json().url as string).searchParams.get('inviteToken') ?? '';
    expect(teamToken).not.toBe('');
    expectCatalogueBody(await me(bearer(teamToken)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('session token used as an invite: not a valid invite, no account created for it', async () => {
    const res = await call(w.app, { method: 'GET', url: `${API.validateInvite}?inviteToken=${victim.token}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe('ERR_INVITE_INVALID');
  });

  it('Jitsi meeting token used as a session: 401', async () => {
    const vc = await w.app.inject({
      method: 'POST',
      url: '/api/v2/videoconference',
      headers: bearer(victim.token),
      payload: {},
    });
    expect(vc.statusCode, vc.body).toBe(201);
    const room = vc.json()._id as string;
    const res = await call(w.app, {
      method: 'POST',
      url: API.meetingToken,
      token: victim.token,
      body: { room_name: room },
    });
    expect(res.statusCode, res.body).toBe(200);
    const jitsi = res.json().token as string;
    expect(decodeJwt(jitsi).aud).toBe(SELF_HOSTED.JITSI_APP_ID);
    expectCatalogueBody(await me(bearer(jitsi)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('e-mailed code used as a session: 401', async () => {
    const code = await signup(w, 'tok-code@contoso.com');
    expectCatalogueBody(await me(bearer(code)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('session token used as an e-mailed code: refused by the code check', async () => {
    await signup(w, 'tok-code2@contoso.com');
    const res = await call(w.app, {
      method: 'PUT',
      url: API.confirm,
      body: { email: 'tok-code2@contoso.com', token: victim.token },
    });
    expectError(res, 400, 'ERR_VALIDATION');
  });

  it('share key used as a session: 401', async () => {
    const up = multipartBody(Buffer.from('hello'));
    const file = await w.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...bearer(victim.token), ...up.headers },
      payload: up.payload,
    });
    expect(file.statusCode, file.body).toBe(201);
    const shareRes = await w.app.inject({
      method: 'POST',
      url: `/api/files/${file.json()._id}/shares`,
      headers: bearer(victim.token),
      payload: {},
    });
    expect(shareRes.statusCode, shareRes.body).toBe(201);
    const key = JSON.stringify(shareRes.json()).match(/share_key[=":]+([A-Za-z0-9_-]{16,})/)?.[1] ?? '';
    expect(key).not.toBe('');
    expectCatalogueBody(await me(bearer(key)), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });
});

describe('sessions per device', () => {
  const loginAs = async (email: string, password = PASSWORD, agent = 'Firefox/130') =>
    (
      await w.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'user-agent': agent },
        payload: { login: email, password },
      })
    ).json().token as string;
  const me = (token: string, agent = 'Firefox/130') =>
    w.app.inject({ method: 'GET', url: '/api/v2/user/me', headers: { ...bearer(token), 'user-agent': agent } });

  it('logout after a password change in the same second: the signed-out token is dead at once', async () => {
    const { id } = await registered(w, 'sess-pw@contoso.com');
    const token = await loginAs('sess-pw@contoso.com');
    const changed = await changePassword(w, { id, token }, 'Changed-Pass-77');
    expect(changed.statusCode, changed.body).toBe(200);
    const fresh = changed.json().token as string;
    expect((await call(w.app, { method: 'POST', url: API.logout, token: fresh })).statusCode).toBe(200);
    expectCatalogueBody(await me(fresh), 401, 'ERR_INVALID_ACCESS_TOKEN');
    expectCatalogueBody(await me(token), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('logout on one device ends that device only; "sign out of all devices" ends every one', async () => {
    await registered(w, 'sess-dev@contoso.com');
    const laptop = await loginAs('sess-dev@contoso.com', PASSWORD, 'Firefox/130');
    const phone = await loginAs('sess-dev@contoso.com', PASSWORD, 'Mobile Safari/17');
    const tablet = await loginAs('sess-dev@contoso.com', PASSWORD, 'Chrome/129');
    expect((await call(w.app, { method: 'POST', url: API.logout, token: laptop })).statusCode).toBe(200);
    expectCatalogueBody(await me(laptop), 401, 'ERR_INVALID_ACCESS_TOKEN');
    expect((await me(phone, 'Mobile Safari/17')).statusCode).toBe(200);
    expect((await me(tablet, 'Chrome/129')).statusCode).toBe(200);
    expect((await call(w.app, { method: 'POST', url: API.logoutAll, token: phone })).statusCode).toBe(200);
    expectCatalogueBody(await me(phone), 401, 'ERR_INVALID_ACCESS_TOKEN');
    expectCatalogueBody(await me(tablet), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('a session is listed with the device that signed in before it is ever used', async () => {
    await registered(w, 'sess-new@contoso.com');
    await loginAs('sess-new@contoso.com', PASSWORD, 'Mobile Safari/17');
    const laptop = await loginAs('sess-new@contoso.com', PASSWORD, 'Firefox/130');
    const list = await w.app.inject({
      method: 'GET',
      url: '/api/v2/user/sessions',
      headers: { ...bearer(laptop), 'user-agent': 'Firefox/130' },
    });
    const devices = (list.json().data as { device: string | null }[]).map((s) => s.device).sort();
    // (the sign-up's own session, made without a User-Agent, is listed too)
    expect(devices).toEqual(expect.arrayContaining(['Firefox/130', 'Mobile Safari/17']));
  });

  it('the active sessions list shows each device, marks this one, and signs out another', async () => {
    await registered(w, 'sess-list@contoso.com');
    const laptop = await loginAs('sess-list@contoso.com', PASSWORD, 'Firefox/130');
    const phone = await loginAs('sess-list@contoso.com', PASSWORD, 'Mobile Safari/17');
    await me(phone, 'Mobile Safari/17');
    const list = await w.app.inject({
      method: 'GET',
      url: '/api/v2/user/sessions',
      headers: { ...bearer(laptop), 'user-agent': 'Firefox/130' },
    });
    expect(list.statusCode, list.body).toBe(200);
    const data = list.json().data as { _id: string; device: string | null; current: boolean; last_seen_at: string }[];
    const mine = data.find((s) => s.current);
    const other = data.find((s) => s.device === 'Mobile Safari/17');
    expect(mine?.device).toBe('Firefox/130');
    expect(other?.current).toBe(false);
    expect(Number.isNaN(Date.parse(other?.last_seen_at ?? ''))).toBe(false);
    const end = await w.app.inject({
      method: 'DELETE',
      url: `/api/v2/user/sessions/${other?._id}`,
      headers: bearer(laptop),
    });
    expect(end.statusCode).toBe(200);
    expectCatalogueBody(await me(phone), 401, 'ERR_INVALID_ACCESS_TOKEN');
    expect((await me(laptop)).statusCode).toBe(200);
  });

  it("DELETE /v2/user/sessions/{another user's session}: 404, that session stays", async () => {
    await registered(w, 'sess-a@contoso.com');
    await registered(w, 'sess-b@contoso.com');
    const a = await loginAs('sess-a@contoso.com');
    const b = await loginAs('sess-b@contoso.com');
    const list = await w.app.inject({ method: 'GET', url: '/api/v2/user/sessions', headers: bearer(a) });
    const aSession = (list.json().data as { _id: string; current: boolean }[]).find((s) => s.current)!._id;
    const res = await w.app.inject({ method: 'DELETE', url: `/api/v2/user/sessions/${aSession}`, headers: bearer(b) });
    expectCatalogueBody(res, 404, 'ERR_NOT_FOUND');
    expect((await me(a)).statusCode).toBe(200);
  });

  it('a stolen session cannot change the password without the current one', async () => {
    const { id } = await registered(w, 'sess-steal@contoso.com');
    const stolen = await loginAs('sess-steal@contoso.com');
    const res = await changePassword(w, { id, token: stolen }, 'Thief-Pass-123', { current_password: 'guess-1234' });
    expectError(res, 400, 'ERR_WRONG_CURRENT_PASSWORD');
    const login = await call(w.app, {
      method: 'POST',
      url: API.login,
      body: { login: 'sess-steal@contoso.com', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });
});

describe('IDOR: every route that takes an id, with another user’s id', () => {
  let alice: { token: string; id: string };
  let mallory: { token: string; id: string };
  let fileId: string;
  let shareId: string;
  let roomId: string;
  beforeAll(async () => {
    alice = await registered(w, 'idor-alice@contoso.com');
    mallory = await registered(w, 'idor-mallory@contoso.com');
    const up = multipartBody(Buffer.from('secret contents'));
    const file = await w.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...bearer(alice.token), ...up.headers },
      payload: up.payload,
    });
    fileId = file.json()._id;
    const s = await w.app.inject({
      method: 'POST',
      url: `/api/files/${fileId}/shares`,
      headers: bearer(alice.token),
      payload: {},
    });
    shareId = s.json()._id;
    const vc = await w.app.inject({
      method: 'POST',
      url: '/api/v2/videoconference',
      headers: bearer(alice.token),
      payload: {},
    });
    roomId = vc.json()._id;
  });

  it("PUT /user/{alice} with mallory's session: 403, alice's password unchanged", async () => {
    const res = await changePassword(w, { id: alice.id, token: mallory.token }, 'Mallory-Owns-1');
    expectError(res, 403, 'ERR_FORBIDDEN');
    const login = await call(w.app, {
      method: 'POST',
      url: API.login,
      body: { login: 'idor-alice@contoso.com', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });

  it("DELETE /files/{alice's file}: 404, the file stays", async () => {
    const res = await w.app.inject({ method: 'DELETE', url: `/api/files/${fileId}`, headers: bearer(mallory.token) });
    expect(res.statusCode).toBe(404);
    const list = await w.app.inject({ method: 'GET', url: '/api/files', headers: bearer(alice.token) });
    expect(JSON.stringify(list.json())).toContain(fileId);
  });

  it("GET /files/{alice's file}/shares: 404, no share keys", async () => {
    const res = await w.app.inject({
      method: 'GET',
      url: `/api/files/${fileId}/shares`,
      headers: bearer(mallory.token),
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(shareId);
  });

  it("POST /files/{alice's file}/shares: 404, no link to alice's file", async () => {
    const res = await w.app.inject({
      method: 'POST',
      url: `/api/files/${fileId}/shares`,
      headers: bearer(mallory.token),
      payload: {},
    });
    expect(res.statusCode).toBe(404);
  });

  it("DELETE /files/{alice's file}/shares/{alice's share}: 404, the share stays", async () => {
    const res = await w.app.inject({
      method: 'DELETE',
      url: `/api/files/${fileId}/shares/${shareId}`,
      headers: bearer(mallory.token),
    });
    expect(res.statusCode).toBe(404);
    const shares = await w.app.inject({
      method: 'GET',
      url: `/api/files/${fileId}/shares`,
      headers: bearer(alice.token),
    });
    expect(shares.body).toContain(shareId);
  });

  it('GET /file/{id}/validating_link and download_link with a guessed key: 404, no contents', async () => {
    for (const kind of ['validating_link', 'download_link']) {
      const res = await w.app.inject({
        method: 'GET',
        url: `/api/file/${fileId}/${kind}?share_key=${'A'.repeat(43)}`,
      });
      expect(res.statusCode, kind).toBe(404);
      expect(res.body).not.toContain('secret contents');
    }
  });

  it("DELETE /v2/videoconference/{alice's room} and its session: refused, the room stays", async () => {
    for (const url of [`/api/v2/videoconference/${roomId}`, `/api/v2/videoconference/${roomId}/session`]) {
      const res = await w.app.inject({ method: 'DELETE', url, headers: bearer(mallory.token) });
      expect([403, 404], `${url}: ${res.body}`).toContain(res.statusCode);
    }
    const list = await w.app.inject({ method: 'GET', url: '/api/v2/videoconference', headers: bearer(alice.token) });
    const room = (list.json().data as { _id: string; status: string }[]).find((r) => r._id === roomId);
    expect(room?.status).not.toBe('ended');
  });

  it("GET /v2/videoconference/{alice's room} (public by design): title, status, first names; no host id or address", async () => {
    const res = await w.app.inject({ method: 'GET', url: `/api/v2/videoconference/${roomId}` });
    expect(res.statusCode).toBe(200);
    // host_name is the first name everyone in the meeting sees anyway ("Ada's meeting"), and
    // who is in the room: a count and up to two first names ("Ada and 2 others are here").
    // join: whether Join goes straight in or asks (the lobby), for the caller: nothing about Alice.
    expect(Object.keys(res.json()).sort()).toEqual(['_id', 'host_name', 'join', 'participants', 'status', 'title']);
    expect(Object.keys(res.json().participants).sort()).toEqual(['count', 'names']);
    expect(res.body).not.toContain('@');
    expect(res.body).not.toContain(alice.id);
  });

  it("GET /v2/videoconference lists only the caller's rooms", async () => {
    const res = await w.app.inject({ method: 'GET', url: '/api/v2/videoconference', headers: bearer(mallory.token) });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(roomId);
  });

  it("POST /v2/videoconference/{alice's room}/session/ping with a made-up guest id: refused", async () => {
    const res = await w.app.inject({
      method: 'POST',
      url: `/api/v2/videoconference/${roomId}/session/ping`,
      payload: { guest_id: 'made-up-guest' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('brute force on e-mailed codes', () => {
  const confirm = (email: string, token: string) =>
    call(w.app, { method: 'PUT', url: API.confirm, body: { email, token } });
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('50 parallel wrong codes: exactly 3 counted, then the right one is refused too', async () => {
    const code = await signup(w, 'bf-50@contoso.com');
    const results = await Promise.all(Array.from({ length: 50 }, () => confirm('bf-50@contoso.com', wrong(code))));
    expect(results.every((r) => r.statusCode === 400)).toBe(true);
    const row = await w.app.db.kysely
      .selectFrom('codes')
      .select('attempts')
      .where('email', '=', 'bf-50@contoso.com')
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(3);
    expectError(await confirm('bf-50@contoso.com', code), 400, 'ERR_MAX_TRIES_EXCEEDED');
  });

  it('8 parallel submissions of the valid code: exactly 1 session', async () => {
    const code = await signup(w, 'bf-8@contoso.com');
    const results = await Promise.all(Array.from({ length: 8 }, () => confirm('bf-8@contoso.com', code)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode !== 200).every((r) => r.statusCode === 400)).toBe(true);
  });
});

describe('lock-out and distributed guessing (real limits)', () => {
  let real: AccountsWorld;
  beforeAll(async () => {
    real = await startWorld({ RATE_LIMIT_SCALE: '1' });
    await registered(real, 'owner@contoso.com');
  });
  afterAll(async () => real?.close());
  const loginFrom = (ip: string, password: string) =>
    real.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ip,
      payload: { login: 'owner@contoso.com', password },
    });

  it('35 wrong logins from one client: that client is refused (429), the owner still logs in from another', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) statuses.push((await loginFrom('203.0.113.66', 'Wrong-Guess-1')).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    expect((await loginFrom('198.51.100.7', PASSWORD)).statusCode).toBe(200);
    // the attacker's client stays refused, even with the right password
    expect((await loginFrom('203.0.113.66', PASSWORD)).statusCode).toBe(429);
  });

  it('an office behind one address: 35 correct logins from it all get in (successes are not counted)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) statuses.push((await loginFrom('192.0.2.200', PASSWORD)).statusCode);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it("15 recovery requests from one client and the owner's own: one code mail a minute reaches the owner, and its code works", async () => {
    const forgotFrom = (ip: string) =>
      real.app.inject({
        method: 'POST',
        url: '/api/v2/user/forgot-password',
        remoteAddress: ip,
        payload: { email: 'owner@contoso.com' },
      });
    const before = real.smtp.messages.length;
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await forgotFrom('203.0.113.67')).statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    const mail = await mailTo(real.smtp, 'owner@contoso.com', before);
    const code = codeIn(mail);
    // the owner, from another client, within the minute: answered as always, and the code in the inbox works
    expect((await forgotFrom('198.51.100.8')).statusCode).toBe(200);
    await outboxDrained(real);
    expect(real.smtp.messages.slice(before).filter((m) => m.to.includes('owner@contoso.com'))).toHaveLength(1);
    const used = await real.app.inject({
      method: 'PUT',
      url: '/api/v2/user/forgot-password/confirm',
      remoteAddress: '198.51.100.8',
      payload: { email: 'owner@contoso.com', token: code },
    });
    expect(used.statusCode, used.body).toBe(200);
    expect(CODE_MAIL_SPACING_S).toBe(60);
  });

  it("11 wrong codes from one client: that client is refused, another client's check still answers", async () => {
    const confirmFrom = (ip: string) =>
      real.app.inject({
        method: 'PUT',
        url: '/api/v2/user/forgot-password/confirm',
        remoteAddress: ip,
        payload: { email: 'owner@contoso.com', token: '000000' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await confirmFrom('203.0.113.68')).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await confirmFrom('198.51.100.9')).statusCode).toBe(400);
  });
});

describe('distributed guessing (limits scaled to 0.1: 1 failure per client, 3 per IP, ceiling 10 per address)', () => {
  let small: AccountsWorld;
  /** The server's log: it says when a stranger's guess is slowed down (holding the address's one slot). */
  const log = logCapture();
  const slowedDown = () => log.lines.filter((l) => l.includes('address throttled: slowing down')).length;
  beforeAll(async () => {
    small = await startWorld({ RATE_LIMIT_SCALE: '0.1' }, { logger: { level: 'warn', stream: log.stream } });
    await registered(small, 'target@contoso.com');
  });
  afterAll(async () => small?.close());
  const WRONG = 'Wrong-Guess-1';
  const loginFrom = (ip: string, password: string, cookie?: string) =>
    small.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ip,
      payload: { login: 'target@contoso.com', password },
      ...(cookie ? { headers: { cookie } } : {}),
    });
  /** Polls `done` every few milliseconds until it is true or `ms` have passed; says which. */
  const within = (ms: number, done: () => boolean) =>
    vi.waitUntil(done, { timeout: ms, interval: 5 }).then(
      () => true,
      () => false,
    );
  /** A stranger's guess that holds the address's one slot: the server says it slows it down. */
  const guessHoldingTheSlot = async (ip: string) => {
    const before = slowedDown();
    let refused = false;
    const guess = loginFrom(ip, WRONG);
    void guess.then((r) => (refused = r.statusCode === 429));
    expect(await within(5_000, () => refused || slowedDown() > before)).toBe(true);
    expect(refused).toBe(false);
    return { guess };
  };
  let device = '';

  it('a device that signed in is remembered: a signed HttpOnly cookie that names no address', async () => {
    const res = await loginFrom('198.51.100.30', PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    const set = String(res.headers['set-cookie']);
    expect(set).toMatch(/^suite_device=[\w.~-]+; Max-Age=\d+; Path=\/api; HttpOnly; SameSite=Strict$/);
    expect(set).not.toContain('target');
    // the answer carries a session token: no cache may keep it
    expect(res.headers['cache-control']).toBe('no-store');
    device = set.split(';')[0]!;
    const failed = await loginFrom('198.51.100.30', WRONG);
    expect(failed.headers['set-cookie']).toBeUndefined();
  });

  it('past the ceiling, a burst from many clients: one guess at a time goes on, the rest are refused at once', async () => {
    for (let i = 1; i <= 10; i++) expect((await loginFrom(`192.0.2.${i}`, WRONG)).statusCode).toBe(401);
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => loginFrom(`192.0.3.${i}`, WRONG)));
    const refused = burst.filter((r) => r.statusCode === 429);
    expect(burst.filter((r) => r.statusCode === 401)).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.headers['retry-after']).toBe(String(SLOWDOWN_MAX_MS / 1000));
    // the one that went on waited a bounded delay, far under the web client's 15 s timeout
    expect(slowdownMs(1)).toBe(SLOWDOWN_BASE_MS);
    expect(slowdownMs(100)).toBe(SLOWDOWN_MAX_MS);
    expect(SLOWDOWN_MAX_MS).toBeLessThanOrEqual(2_000);
  });

  it('the owner gets in from a clean client after the burst, and from the trusted device while a guess holds the address', async () => {
    // A clean client is a stranger too: the burst's guess gave the slot back before its answer was sent.
    const clean = await loginFrom('198.51.100.31', PASSWORD);
    expect(clean.statusCode, clean.body).toBe(200);
    // A stranger's guess takes the address's one slot and is delayed; meanwhile:
    const { guess: stranger } = await guessHoldingTheSlot('192.0.4.1');
    expect((await loginFrom('192.0.4.2', WRONG)).statusCode).toBe(429);
    // a forged cookie, or another address's, is a stranger's
    const forged = `suite_device=AAAAAAAAAAAAAAAA.9999999999.${'A'.repeat(32)}`;
    expect((await loginFrom('192.0.4.3', PASSWORD, forged)).statusCode).toBe(429);
    // the owner's trusted device is neither refused nor kept waiting behind the stranger
    const owner = loginFrom('192.0.4.4', PASSWORD, device);
    const first = await Promise.race([stranger.then(() => 'stranger'), owner.then(() => 'owner')]);
    expect(first).toBe('owner');
    expect((await owner).statusCode).toBe(200);
    expect((await stranger).statusCode).toBe(401);
  });
});

describe('account enumeration', () => {
  beforeAll(async () => {
    await registered(w, 'enum-known@contoso.com');
  });
  const login = (address: string) =>
    call(w.app, { method: 'POST', url: API.login, body: { login: address, password: 'Wrong-Password-9' } });
  const forgot = (address: string) =>
    call(w.app, { method: 'POST', url: API.forgotPassword, body: { email: address } });

  it('login: unknown address and known address with a wrong password answer the same status and body', async () => {
    const known = await login('enum-known@contoso.com');
    const unknown = await login('enum-nobody@contoso.com');
    expect({ status: unknown.statusCode, body: unknown.body }).toEqual({ status: known.statusCode, body: known.body });
  });

  it('recovery: unknown and known address answer the same status and body', async () => {
    const known = await forgot('enum-known@contoso.com');
    const unknown = await forgot('enum-nobody@contoso.com');
    expect({ status: unknown.statusCode, body: unknown.body }).toEqual({ status: known.statusCode, body: known.body });
  });

  it('recovery code check: unknown and known address answer a wrong code alike', async () => {
    const body = (email: string) => ({ email, token: '000000' });
    const known = await call(w.app, {
      method: 'PUT',
      url: API.forgotPasswordConfirm,
      body: body('enum-known@contoso.com'),
    });
    const unknown = await call(w.app, {
      method: 'PUT',
      url: API.forgotPasswordConfirm,
      body: body('enum-nobody@contoso.com'),
    });
    expect({ status: unknown.statusCode, body: unknown.body }).toEqual({ status: known.statusCode, body: known.body });
  });
});

describe('open redirects on the server', () => {
  const payloads = [
    '//evil.example/',
    '/\\evil.example',
    '/.//evil.example',
    '/%2e//evil.example',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/\t/evil.example',
    `${'/'.repeat(3)}evil.example/%2e%2e`,
  ];

  it('/auth?redirect=<payload> (10 payloads): the page, never a Location header', async () => {
    mkdirSync(join(w.t.dataDir, 'web'), { recursive: true });
    writeFileSync(join(w.t.dataDir, 'web', 'index.html'), '<!doctype html><title>app</title>');
    const web = await createTestApp({ WEB_DIST: join(w.t.dataDir, 'web') });
    try {
      for (const payload of payloads) {
        const res = await web.app.inject({
          method: 'GET',
          url: `/auth?token=x&redirect=${encodeURIComponent(payload)}`,
          headers: { accept: 'text/html' },
        });
        expect(res.statusCode, payload).toBe(200);
        expect(res.headers.location, payload).toBeUndefined();
        expect(res.body).toContain('<title>app</title>');
      }
    } finally {
      await web.close();
    }
  });

  it('payloads as the path itself (10 payloads): no 3xx to anywhere', async () => {
    for (const payload of payloads) {
      const path = payload.startsWith('/') ? payload : `/${payload}`;
      const res = await w.app.inject({ method: 'GET', url: path.replace(/\t/g, '%09') });
      expect(res.statusCode >= 300 && res.statusCode < 400, `${payload}: ${res.statusCode}`).toBe(false);
      expect(res.headers.location, payload).toBeUndefined();
    }
  });
});

describe('HTML and bidi in names', () => {
  it('a name with a right-to-left override, C1 control or line separator is refused at registration', async () => {
    const { token } = await confirmed(w, 'bidi-reg@contoso.com');
    for (const first of ['Ada\u202egpj.exe', 'Ada\u0085Bcc: x', 'Ada\u2028Lovelace', 'A\u2066da']) {
      const res = await call(w.app, {
        method: 'PUT',
        url: API.completeRegister,
        token,
        body: {
          first_name: first,
          last_name: 'L',
          password: PASSWORD,
          password_confirmation: PASSWORD,
          accepted_terms: { version: 1 },
        },
      });
      expectError(res, 400, 'ERR_INVALID_NAME');
    }
  });

  it('an HTML name reaches the invitee’s real mail escaped in the body, as plain text, never in the subject', async () => {
    const { token } = await confirmed(w, 'html-inviter@contoso.com');
    const reg = await call(w.app, {
      method: 'PUT',
      url: API.completeRegister,
      token,
      body: {
        first_name: '<img src=x onerror=alert(1)>',
        last_name: '<b>Boss</b>',
        password: PASSWORD,
        password_confirmation: PASSWORD,
        accepted_terms: { version: 1 },
      },
    });
    expect(reg.statusCode, reg.body).toBe(200);
    const mail = await inviteTeammate(w, reg.json().token, 'html-invitee@contoso.com');
    // The subject names the inviting address, never the typed name; the plain-text part has it as typed.
    expect(mail.subject).toBe('html-inviter@contoso.com invited you to join contoso.com on Suite');
    expect(mail.text).toContain('<img src=x onerror=alert(1)> <b>Boss</b> (html-inviter@contoso.com)');
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).not.toContain('<b>Boss</b>');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('a name stored before the rule (bidi override, C1, U+2028) never reaches an invite mail subject', async () => {
    const inviter = await registered(w, 'legacy-inviter@contoso.com');
    await w.app.db.kysely
      .updateTable('users')
      .set({ first_name: 'Eve\u202e\u0085', last_name: '\u2028Admin\u2066' })
      .where('id', '=', inviter.id)
      .execute();
    const mail = await inviteTeammate(w, inviter.token, 'legacy-invitee@contoso.com');
    expect(mail.subject).toMatch(/^legacy-inviter@contoso\.com /);
    expect(mail.text).toContain('Eve Admin (legacy-inviter@contoso.com)');
    expect(mail.raw).not.toMatch(/\u202e|\u2066|\u2028|\u0085/);
    expect(mail.subject + mail.text + mail.html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u2028\u2029\u0080-\u009f]/);
  });

  it('a guest name with a bidi override is refused; a meeting link name with one is cleaned in the Jitsi token', async () => {
    const refused = await w.app.inject({
      method: 'POST',
      url: '/api/guest',
      payload: { name: 'Guest\u202eevil', accepted_terms: { version: 1 } },
    });
    expectError(refused, 400, 'ERR_INVALID_NAME');
    for (const name of ['\u3164', '\u2800\u2800', 'Guest\u2060']) {
      const invisible = await w.app.inject({
        method: 'POST',
        url: '/api/guest',
        payload: { name, accepted_terms: { version: 1 } },
      });
      expectError(invisible, 400, 'ERR_INVALID_NAME');
    }
    const guest = await w.app.inject({
      method: 'POST',
      url: '/api/guest',
      payload: { name: '<script>x</script>', accepted_terms: { version: 1 } },
    });
    expect(guest.statusCode, guest.body).toBe(201);
    const host = await registered(w, 'jitsi-host@contoso.com');
    const vc = await w.app.inject({
      method: 'POST',
      url: '/api/v2/videoconference',
      headers: bearer(host.token),
      payload: {},
    });
    const room = vc.json()._id as string;
    await call(w.app, { method: 'POST', url: API.meetingToken, token: host.token, body: { room_name: room } });
    const res = await call(w.app, {
      method: 'POST',
      url: API.guestMeetingToken,
      body: { guest_id: guest.json()._id, room_name: room, display_name: 'Mal\u202elory\u0085\u2028' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const claims = decodeJwt(res.json().data.token) as { context: { user: { name: string } } };
    expect(claims.context.user.name).toBe('Mallory');
    const plain = await call(w.app, {
      method: 'POST',
      url: API.guestMeetingToken,
      body: { guest_id: guest.json()._id, room_name: room },
    });
    const name = (decodeJwt(plain.json().data.token) as { context: { user: { name: string } } }).context.user.name;
    expect(name).toBe('<script>x</script>'); // a JSON string in a signed token; Jitsi renders it as text
  });
});

describe('oversize and malformed requests', () => {
  const marker = 'ECHO<script>42';

  it('malformed JSON: 400 ERR_REQUEST, nothing echoed', async () => {
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"login": "${marker}`,
    });
    expectCatalogueBody(res, 400, 'ERR_REQUEST', [marker, 'JSON', 'Unexpected']);
  });

  it('JSON body over 64 KiB: 413 ERR_PAYLOAD_TOO_LARGE', async () => {
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ login: marker + 'x'.repeat(70_000), password: 'x' }),
    });
    expectCatalogueBody(res, 413, 'ERR_PAYLOAD_TOO_LARGE', [marker]);
  });

  it('unsupported content type: 415 ERR_UNSUPPORTED_MEDIA_TYPE, the type not echoed', async () => {
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': `text/${marker}` },
      payload: 'x',
    });
    expectCatalogueBody(res, 415, 'ERR_UNSUPPORTED_MEDIA_TYPE', [marker]);
  });

  it('unknown route: 404 ERR_NOT_FOUND, the path not echoed; app routes asked with another method stay 404', async () => {
    expectCatalogueBody(await w.app.inject({ method: 'GET', url: `/api/${marker}` }), 404, 'ERR_NOT_FOUND', [marker]);
    expectCatalogueBody(await w.app.inject({ method: 'POST', url: `/api/${marker}` }), 404, 'ERR_NOT_FOUND', [marker]);
    // The web app's routes are not API routes: another method there is a plain 404, no Allow.
    const spa = await w.app.inject({ method: 'POST', url: `/auth?redirect=${marker}` });
    expectCatalogueBody(spa, 404, 'ERR_NOT_FOUND', [marker]);
    expect(spa.headers.allow).toBeUndefined();
  });

  it('HTTP verb tampering (a known path with a method it does not take): 405 with Allow, nothing echoed or done', async () => {
    const owner = await registered(w, 'verb-tamper@contoso.com');
    const sid = claimsOf(owner.token).sid;
    const cases: [string, string, string][] = [
      ['PATCH', '/api/auth/login', 'POST'],
      ['GET', '/api/auth/logout-all', 'POST'],
      ['DELETE', '/api/v2/user/me', 'GET, HEAD'],
      ['PUT', `/api/v2/user/sessions/${sid}`, 'DELETE'],
      ['PATCH', `/api/user/${owner.id}?${marker}=1`, 'PUT'],
      ['OPTIONS', `/api/files/${marker}`, 'DELETE'],
      ['TRACE', '/api/health', 'GET, HEAD'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await w.app.inject({
        method: method as 'GET',
        url,
        headers: { ...bearer(owner.token), 'x-probe': marker },
        ...(method === 'GET' || method === 'TRACE' ? {} : { payload: { login: marker, password: marker } }),
      });
      expectCatalogueBody(res, 405, 'ERR_METHOD_NOT_ALLOWED', [marker]);
      expect(res.headers.allow, `${method} ${url}`).toBe(allow);
    }
    // Nothing was done: the session the PUT and PATCH named is still alive.
    expect(
      (await w.app.inject({ method: 'GET', url: '/api/v2/user/me', headers: bearer(owner.token) })).statusCode,
    ).toBe(200);
  });

  it('path parameter over the length limit: 414 ERR_URI_TOO_LONG, the path not echoed', async () => {
    const res = await w.app.inject({ method: 'GET', url: `/api/v2/videoconference/${'a'.repeat(300)}${marker}` });
    expectCatalogueBody(res, 414, 'ERR_URI_TOO_LONG', [marker, 'aaaaaaaaaa']);
  });

  it('undecodable URL: 400 ERR_REQUEST, the path not echoed', async () => {
    const res = await w.app.inject({ method: 'GET', url: `/api/v2/videoconference/%E0%A4%ZZ${marker}` });
    expectCatalogueBody(res, 400, 'ERR_REQUEST', [marker]);
  });

  it('a NUL or other control character in a path id (PostgreSQL text cannot hold a NUL): 400, never 500', async () => {
    const { token } = await registered(w, 'nul-id@contoso.com');
    const urls = [
      '/api/files/%00/shares',
      '/api/files/a%00b',
      '/api/files/ok/shares/%01',
      '/api/v2/videoconference/%00',
      '/api/v2/user/sessions/%00',
    ];
    let checked = 0;
    for (const url of urls) {
      for (const method of ['GET', 'HEAD', 'DELETE'] as const) {
        const res = await w.app.inject({ method, url, headers: bearer(token) });
        if (res.statusCode === 405) continue; // no such route for this method
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
        if (method !== 'HEAD') expect(res.json().error_code).toBe('ERR_VALIDATION');
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(urls.length);
  });

  it('wrong types, deep nesting and prototype keys: 400, never 500', async () => {
    const bodies = [
      { login: ['a'], password: { $gt: '' } },
      JSON.parse('{"__proto__": {"admin": true}, "login": "a@b.co", "password": "x"}') as object,
      { login: JSON.parse('['.repeat(500) + ']'.repeat(500)) as unknown, password: 'x' },
      [1, 2, 3],
      'just a string',
      null,
    ];
    for (const payload of bodies) {
      const res = await w.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(Object.keys(res.json())).toContain('error_code');
    }
  });

  it('headers over Node’s limit on a real socket: 431 in the catalogue shape', async () => {
    const t = await createTestApp();
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path: '/api/health', headers: { 'x-big': marker + 'x'.repeat(20_000) } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(answer.status).toBe(431);
      expect(JSON.parse(answer.body)).toEqual({
        error_code: 'ERR_HEADERS_TOO_LARGE',
        message: ERRORS.ERR_HEADERS_TOO_LARGE.message,
      });
      expect(answer.body).not.toContain(marker);
    } finally {
      await t.close();
    }
  });
});

/** Requests per route (`METHOD /pattern`) as the server's Prometheus metrics count them. */
async function routeHits(): Promise<Map<string, number>> {
  const res = await w.app.inject({ method: 'GET', url: '/metrics', headers: bearer(METRICS_TOKEN) });
  expect(res.statusCode).toBe(200);
  const hits = new Map<string, number>();
  for (const match of res.body.matchAll(
    /^http_request_duration_seconds_count\{method="([A-Z]+)",route="([^"]*)",status_code="\d+"\} (\d+)$/gm,
  )) {
    const key = `${match[1]} ${match[2]}`;
    hits.set(key, (hits.get(key) ?? 0) + Number(match[3]));
  }
  return hits;
}

describe('fuzzing', () => {
  it("2,000 seeded random requests over every registered route (the app's own route table), each reached: no answer ≥ 500", async () => {
    const random = prng(0x5ec0de);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const session = (await registered(w, 'fuzz@contoso.com')).token;
    // The server's own route table (plugins/routes.ts, filled by onRoute): a new route is fuzzed, and
    // must be reached, without anyone adding it here.
    const routes = w.app.routeTable.map(({ method, url }) => [method, url] as const);
    expect(routes.length).toBeGreaterThan(30);
    const before = await routeHits();
    const strings = [
      '',
      ' ',
      'a@contoso.com',
      'fuzz@contoso.com',
      '123456',
      'x'.repeat(5000),
      '\u0000',
      '\u202e\u0085\u2028',
      '../../etc/passwd',
      "' OR 1=1 --",
      '<script>alert(1)</script>',
      '😀'.repeat(70),
      '%00',
      'null',
      '{"$gt":""}',
      'Correct-Horse-42',
    ];
    const value = (depth: number): unknown => {
      const r = random();
      if (r < 0.35) return pick(strings);
      if (r < 0.45) return Math.floor(random() * 2 ** 53) * (random() < 0.5 ? -1 : 1);
      if (r < 0.5) return random() < 0.5;
      if (r < 0.55) return null;
      if (r < 0.65 && depth < 3) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      if (depth < 3) return object(depth + 1);
      return pick(strings);
    };
    const fields = [
      'email',
      'login',
      'password',
      'password_confirmation',
      'current_password',
      'token',
      'first_name',
      'last_name',
      'name',
      'accepted_terms',
      'emails',
      'room_name',
      'guest_id',
      'display_name',
      'invite_token',
      'language',
      'expires_at',
      'captcha_token',
      '__proto__',
      'constructor',
    ];
    const object = (depth: number) =>
      Object.fromEntries(Array.from({ length: Math.floor(random() * 5) }, () => [pick(fields), value(depth)]));
    const param = () => encodeURIComponent(pick([...strings, 'abc', '0', session.slice(0, 20)]).slice(0, 150));
    const failures: string[] = [];
    for (let i = 0; i < 2000; i++) {
      // Every route once first (the coverage below must not rest on the seed), then at random.
      const [method, path] = i < routes.length ? routes[i]! : pick(routes);
      const url = `${path.replace(/:[A-Za-z]+|\*/g, param)}${random() < 0.3 ? `?${pick(['inviteToken', 'share_key', 'force_download'])}=${param()}` : ''}`;
      const kind = random();
      const headers: Record<string, string> = {};
      if (random() < 0.5) headers.authorization = `Bearer ${random() < 0.6 ? session : pick(strings)}`;
      let payload: string | Buffer | undefined;
      if (method !== 'GET' && method !== 'HEAD' && method !== 'DELETE') {
        if (kind < 0.7) {
          headers['content-type'] = 'application/json';
          payload = JSON.stringify(random() < 0.9 ? object(0) : value(0));
        } else if (kind < 0.8) {
          headers['content-type'] = 'application/json';
          payload = `{"email": ${pick(strings)}`;
        } else if (kind < 0.9) {
          const body = multipartBody(Buffer.from(pick(strings)), `form-data; name="file"; filename="${pick(strings)}"`);
          Object.assign(headers, body.headers);
          payload = body.payload;
        } else {
          headers['content-type'] = pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);
          payload = pick(strings);
        }
      }
      const res = await w.app.inject({
        method: method as 'GET',
        url,
        headers,
        ...(payload === undefined ? {} : { payload }),
      });
      if (res.statusCode >= 500)
        failures.push(`${method} ${url.slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    // Every registered route was reached by at least one request (its handler chain ran, whatever it
    // answered), as the server's own per-route metrics count it. /metrics does not count itself: it is
    // reached by reading them.
    const after = await routeHits();
    const missed = routes
      .filter(
        ([method, url]) =>
          url !== '/metrics' && (after.get(`${method} ${url}`) ?? 0) <= (before.get(`${method} ${url}`) ?? 0),
      )
      .map(([method, url]) => `${method} ${url}`);
    expect(missed).toEqual([]);
    for (const must of ['GET /api/v2/user/sessions', 'DELETE /api/v2/user/sessions/:id', 'POST /api/auth/logout-all'])
      expect(routes.map(([method, url]) => `${method} ${url}`)).toContain(must);
  }, 300_000);
});
