import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify, type CryptoKey } from 'jose';
import { createTestApp, type TestApp } from './helpers.js';
import { SELF_HOSTED, signedInUser } from './meetings-support.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

async function startMeeting(t: TestApp, host: User) {
  const vc = (
    await t.app.inject({ method: 'POST', url: '/api/v2/videoconference', payload: {}, headers: host.headers })
  ).json();
  const hostRes = await t.app.inject({
    method: 'POST',
    url: '/api/v2/videoconference/token',
    payload: { room_name: vc._id },
    headers: host.headers,
  });
  const guest = (
    await t.app.inject({
      method: 'POST',
      url: '/api/guest',
      payload: { name: 'Carla Guest', accepted_terms: { version: 1 } },
    })
  ).json();
  const guestRes = await t.app.inject({
    method: 'POST',
    url: '/api/v2/videoconference/guest/token',
    payload: { room_name: vc._id, guest_id: guest._id },
  });
  return { vc, guest, host: hostRes.json(), guestData: guestRes.json().data };
}

describe('self-hosted Jitsi tokens (HS256)', () => {
  let t: TestApp;
  let host: User;
  let m: Awaited<ReturnType<typeof startMeeting>>;
  const secret = new TextEncoder().encode(SELF_HOSTED.JITSI_APP_SECRET);
  // What Prosody's token plugin checks: signature with the shared secret, iss/aud = app id, sub = domain.
  const verify = (token: string) =>
    jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: 'suite-app',
      audience: 'suite-app',
      subject: 'meet.acme.test',
    });

  beforeAll(async () => {
    t = await createTestApp(SELF_HOSTED);
    host = await signedInUser(t.app, 'Ana', 'Host');
    m = await startMeeting(t, host);
  });
  afterAll(async () => t.close());

  it('gives the host a moderator token for the room with recording enabled', async () => {
    const { payload, protectedHeader } = await verify(m.host.token);
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.room).toBe(m.vc._id);
    expect(payload.context).toEqual({
      user: { id: host.id, name: 'Ana Host', email: host.email, avatar: '', moderator: true },
      features: {
        recording: true,
        livestreaming: true,
        transcription: true,
        'outbound-call': false,
        'sip-outbound-call': false,
      },
    });
    expect(payload.moderator).toBe(true);
    const now = Math.floor(Date.now() / 1000);
    expect(payload.nbf).toBeLessThanOrEqual(now);
    expect(payload.exp).toBeGreaterThan(now + 3600);
    expect(m.host).toMatchObject({ moderator: true, domain: 'meet.acme.test', room: m.vc._id });
  });

  it('gives the guest a non-moderator token under the guest’s name, without recording', async () => {
    const { payload } = await verify(m.guestData.token);
    expect(payload.room).toBe(m.vc._id);
    expect(payload.moderator).toBe(false);
    expect(payload.context).toMatchObject({
      user: { id: `guest-${m.guest._id}`, name: 'Carla Guest', moderator: false },
      features: { recording: false, livestreaming: false },
    });
  });

  it('is refused with a different secret, as Jitsi would refuse it', async () => {
    const wrong = new TextEncoder().encode('another-secret-another-secret-0000');
    await expect(jwtVerify(m.host.token, wrong, { algorithms: ['HS256'] })).rejects.toThrow();
    await expect(jwtVerify(m.host.token, secret, { algorithms: ['HS256'], issuer: 'someone-else' })).rejects.toThrow();
  });
});

describe('8x8 JaaS tokens (RS256)', () => {
  let t: TestApp;
  let host: User;
  let publicKey: CryptoKey;
  let m: Awaited<ReturnType<typeof startMeeting>>;
  const appId = 'vpaas-magic-cookie-0123456789abcdef';
  const kid = `${appId}/4f1a2b`;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    publicKey = pair.publicKey;
    // As JaaS keys are often pasted into one-line env values: newlines escaped as \n.
    const pem = (await exportPKCS8(pair.privateKey)).replace(/\n/g, '\\n');
    t = await createTestApp({
      MEETING_DEFAULT_ACCESS: 'open',
      MEET_DOMAIN: '8x8.vc',
      JAAS_APP_ID: appId,
      JAAS_KID: kid,
      JAAS_PRIVATE_KEY: pem,
    });
    host = await signedInUser(t.app, 'Ana', 'Host');
    m = await startMeeting(t, host);
  });
  afterAll(async () => t.close());

  // What JaaS checks: RS256 with the public key registered under kid, iss 'chat', aud 'jitsi', sub = app id.
  const verify = (token: string) =>
    jwtVerify(token, publicKey, { algorithms: ['RS256'], issuer: 'chat', audience: 'jitsi', subject: appId });

  it('signs the host token with the private key under its kid, with features and moderator', async () => {
    expect(decodeProtectedHeader(m.host.token)).toEqual({ alg: 'RS256', kid, typ: 'JWT' });
    const { payload } = await verify(m.host.token);
    expect(payload.room).toBe(m.vc._id);
    expect(payload.context).toMatchObject({
      user: { id: host.id, name: 'Ana Host', email: host.email, moderator: true },
      features: { recording: true, livestreaming: true, transcription: true, 'outbound-call': false },
    });
    expect(typeof payload.nbf).toBe('number');
    expect(m.host).toMatchObject({ domain: '8x8.vc', room: `${appId}/${m.vc._id}`, moderator: true });
  });

  it('signs a guest token without moderator rights', async () => {
    const { payload } = await verify(m.guestData.token);
    expect(payload.context).toMatchObject({
      user: { name: 'Carla Guest', moderator: false },
      features: { recording: false },
    });
    expect(m.guestData.room).toBe(`${appId}/${m.vc._id}`);
  });

  it('does not verify with another key pair', async () => {
    const other = await generateKeyPair('RS256');
    await expect(jwtVerify(m.host.token, other.publicKey, { algorithms: ['RS256'] })).rejects.toThrow();
  });
});

describe('meeting configuration', () => {
  it('refuses to start with an unreadable JaaS private key', async () => {
    await expect(
      createTestApp({
        MEET_DOMAIN: '8x8.vc',
        JAAS_APP_ID: 'vpaas-magic-cookie-x',
        JAAS_KID: 'k',
        JAAS_PRIVATE_KEY: 'not a key',
      }),
    ).rejects.toThrow();
  });
});
