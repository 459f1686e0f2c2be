/**
 * Attacks on our own HS256 tokens (session bearer tokens, invitation and team-link tokens) now that
 * keys.ts MACs and checks them by hand (node:crypto HMAC) instead of through jose's SignJWT/jwtVerify:
 * what a JWS library gets right and hand-written code tends to get wrong. Each test fails if the hole
 * exists. adversarial.test.ts already covers alg none, HS512, a forged key, a tampered payload, expired
 * and exp-less sessions, `=`/extra/changed signature characters, an unknown `crit`, and tokens of one kind
 * used as another; secrets.test.ts covers rotation through the API. Not repeated here.
 *
 * Real server (app.inject) on a real database (SQLite; PostgreSQL with scripts/with-pg.sh), real SMTP;
 * node:crypto is wrapped only to count the HMACs and comparisons the verifier makes.
 */
import { createHmac as realHmac, randomBytes } from 'node:crypto';
import { SignJWT, UnsecuredJWT, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { API } from '@suite/contract';
import { call, decodeSession, inviteTeammate, inviteTokenIn, registered, useWorld } from './accounts-helpers.js';
import { deriveKeys, signWithRing, verifyWithRing, type KeyRing } from '../src/keys.js';
import { readInviteToken, signInvite, signTeamInvite } from '../src/modules/accounts/invites/tokens.js';

/** How many HMACs and constant-time comparisons the code under test made. */
const counted = vi.hoisted(() => ({ hmac: 0, compare: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return {
    ...real,
    createHmac: (...args: Parameters<typeof real.createHmac>) => {
      counted.hmac++;
      return real.createHmac(...args);
    },
    timingSafeEqual: (...args: Parameters<typeof real.timingSafeEqual>) => {
      counted.compare++;
      return real.timingSafeEqual(...args);
    },
  };
});

const w = useWorld();
const me = (token: string) =>
  w.app.inject({ method: 'GET', url: `/api${API.me}`, headers: { authorization: `Bearer ${token}` } });
const validate = (token: string) =>
  call(w.app, { method: 'GET', url: `${API.validateInvite}?inviteToken=${encodeURIComponent(token)}` });

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
/** `header.payload.MAC` with the MAC made under `key` (what a holder of that key can write). */
const macd = (key: Uint8Array, header: string, payload: string) =>
  `${header}.${payload}.${realHmac('sha256', key).update(`${header}.${payload}`).digest('base64url')}`;

/** What a person or a client sees of a refusal: status, body and the headers that could tell cases apart. */
const seen = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  body: res.body,
  'www-authenticate': res.headers['www-authenticate'],
  'content-length': res.headers['content-length'],
});

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The last character of a 32-byte base64url signature with its lowest (unused) bit flipped: the same bytes. */
const trailingBitFlipped = (signature: string) => B64URL[B64URL.indexOf(signature.at(-1) ?? 'A') ^ 1] ?? '';

const SECRET = 'attack-secret-attack-secret-attack-0123456';
const PREVIOUS = 'previous-secret-previous-secret-prev-0123';
const OTHER_DEPLOYMENT = 'another-company-deployment-secret-0123456';

describe('the verifier, differentially against jose jwtVerify, under the genuine key', () => {
  const ring = deriveKeys(SECRET).session;
  const key = ring.sign;
  const now = Math.floor(Date.now() / 1000);
  const H = b64({ alg: 'HS256', typ: 'JWT' });
  // A signature holding `-` or `_`, so that writing it in standard base64 changes it.
  const claimsWith = (n: number) => ({ n, user: { _id: 'u1' }, sid: 's1', kind: 'session', iat: now, exp: now + 3600 });
  let n = 0;
  while (/^[A-Za-z0-9]+$/.test(macd(key, H, b64(claimsWith(n))).split('.')[2] ?? '')) n++;
  const claims = claimsWith(n);
  const P = b64(claims);
  const genuine = macd(key, H, P);
  const [, , S = ''] = genuine.split('.');
  const options = { algorithms: ['HS256' as const], requiredClaims: ['exp', 'iat'] };

  const ours = (token: string) =>
    verifyWithRing(token, ring, options).then(
      () => true,
      () => false,
    );
  const joses = (token: string) =>
    jwtVerify(token, key, options).then(
      () => true,
      () => false,
    );

  /**
   * Tokens a holder of the key (or an attacker bending a genuine one) could present. `ours`: what the
   * verifier must answer. Every header and payload here is MACed under the genuine key, so a refusal is
   * for the one flaw named, not for the signature.
   */
  const header = (h: unknown) => macd(key, b64(h), P);
  const payload = (p: unknown) => macd(key, H, b64(p));
  const rawHeader = (text: string) => macd(key, Buffer.from(text).toString('base64url'), P);
  const cases: { name: string; token: string; ours: boolean }[] = [
    { name: 'genuine', token: genuine, ours: true },
    // alg confusion
    { name: 'alg none (MACed anyway)', token: header({ alg: 'none' }), ours: false },
    { name: 'alg none, empty signature', token: `${b64({ alg: 'none' })}.${P}.`, ours: false },
    { name: 'alg HS512 header over an HS256 MAC', token: header({ alg: 'HS512' }), ours: false },
    { name: 'alg RS256', token: header({ alg: 'RS256' }), ours: false },
    { name: 'alg ES256', token: header({ alg: 'ES256' }), ours: false },
    { name: 'alg in lower case', token: header({ alg: 'hs256' }), ours: false },
    { name: 'alg with a trailing space', token: header({ alg: 'HS256 ' }), ours: false },
    { name: 'alg missing', token: header({ typ: 'JWT' }), ours: false },
    { name: 'alg as an array', token: header({ alg: ['HS256'] }), ours: false },
    { name: 'alg null', token: header({ alg: null }), ours: false },
    { name: 'b64 false, critical', token: header({ alg: 'HS256', b64: false, crit: ['b64'] }), ours: false },
    { name: 'crit empty', token: header({ alg: 'HS256', crit: [] }), ours: false },
    { name: 'crit a string', token: header({ alg: 'HS256', crit: 'b64' }), ours: false },
    { name: 'crit naming an absent b64', token: header({ alg: 'HS256', crit: ['b64'] }), ours: false },
    // jose's jwtVerify accepts a duplicated recognised name too (b64 true: the payload is unchanged).
    { name: 'crit duplicated', token: header({ alg: 'HS256', b64: true, crit: ['b64', 'b64'] }), ours: true },
    // Parameters that name a key: never where the key comes from, so harmless under the genuine key.
    { name: 'kid of another key', token: header({ alg: 'HS256', kid: 'previous' }), ours: true },
    { name: 'jku to elsewhere', token: header({ alg: 'HS256', jku: 'https://evil.example/jwks' }), ours: true },
    { name: 'typ other than JWT', token: header({ alg: 'HS256', typ: 'at+jwt' }), ours: true },
    // header encodings
    { name: 'header not JSON', token: rawHeader('alg=HS256'), ours: false },
    { name: 'header a JSON array', token: rawHeader('["HS256"]'), ours: false },
    { name: 'header a JSON string', token: rawHeader('"HS256"'), ours: false },
    { name: 'header JSON null', token: rawHeader('null'), ours: false },
    // UTF-8 decoding drops a leading BOM, in jose as here.
    { name: 'header with a BOM', token: rawHeader('\uFEFF{"alg":"HS256"}'), ours: true },
    {
      name: 'header not UTF-8',
      token: macd(key, Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url'), P),
      ours: false,
    },
    { name: 'duplicate alg, none last', token: rawHeader('{"alg":"HS256","alg":"none"}'), ours: false },
    {
      name: 'duplicate alg, HS256 last (JSON: last wins)',
      token: rawHeader('{"alg":"none","alg":"HS256"}'),
      ours: true,
    },
    {
      name: '__proto__ carrying crit and b64',
      token: rawHeader('{"alg":"HS256","__proto__":{"crit":["b64"],"b64":false}}'),
      ours: true,
    },
    { name: 'header base64 with + and /', token: macd(key, `${H}+/`, P), ours: false },
    { name: 'empty header', token: macd(key, '', P), ours: false },
    // payload encodings and claims
    { name: 'payload not JSON', token: payload('{"exp":'), ours: false },
    { name: 'payload a JSON array', token: payload([claims]), ours: false },
    { name: 'payload JSON null', token: payload('null'), ours: false },
    { name: 'payload a number', token: payload('1'), ours: false },
    { name: 'empty payload', token: macd(key, H, ''), ours: false },
    {
      // UTF-8 writes a lone surrogate as U+FFFD: two texts, one MAC input. Neither decodes as base64url.
      name: 'payload with a lone surrogate, MACed as U+FFFD',
      token: `${macd(key, H, `${P}\uFFFD`).replace(`${P}\uFFFD`, `${P}\uD800`)}`,
      ours: false,
    },
    {
      name: 'payload not UTF-8',
      token: macd(key, H, Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url')),
      ours: false,
    },
    { name: 'exp inside __proto__', token: payload(`{"iat":${now},"__proto__":{"exp":${now + 3600}}}`), ours: false },
    {
      name: 'duplicate exp, the past one last',
      token: payload(`{"iat":${now},"exp":${now + 3600},"exp":${now - 60}}`),
      ours: false,
    },
    { name: 'exp a string', token: payload({ ...claims, exp: String(now + 3600) }), ours: false },
    { name: 'expired', token: payload({ ...claims, exp: now - 60 }), ours: false },
    { name: 'nbf in the future', token: payload({ ...claims, nbf: now + 600 }), ours: false },
    { name: 'iat missing', token: payload({ ...claims, iat: undefined }), ours: false },
    // iat in the future is not refused by jose either; a session is still bound to its row (see below).
    { name: 'iat in the future', token: payload({ ...claims, iat: now + 86_400 }), ours: true },
    // structure
    { name: '2 segments', token: `${H}.${P}`, ours: false },
    { name: '4 segments', token: `${genuine}.${S}`, ours: false },
    { name: '5 segments (JWE shape)', token: `${genuine}..${S}`, ours: false },
    { name: 'empty string', token: '', ours: false },
    { name: 'only dots', token: '..', ours: false },
    // signature encodings: jose decodes base64 leniently; ours compares the canonical text, stricter.
    { name: 'signature padded with =', token: `${genuine}=`, ours: false },
    {
      name: 'signature with + and / for - and _',
      token: `${H}.${P}.${S.replace(/-/g, '+').replace(/_/g, '/')}`,
      ours: false,
    },
    { name: 'signature with a space', token: `${H}.${P}.${S.slice(0, 10)} ${S.slice(10)}`, ours: false },
    { name: 'signature with a newline', token: `${genuine}\n`, ours: false },
    // 43 characters carry 258 bits: the last character's lowest 2 bits are not part of the 32 bytes.
    {
      name: 'signature with other trailing bits',
      token: `${H}.${P}.${S.slice(0, -1)}${trailingBitFlipped(S)}`,
      ours: false,
    },
    {
      name: 'signature of raw bytes as standard base64',
      token: `${H}.${P}.${Buffer.from(S, 'base64url').toString('base64')}`,
      ours: false,
    },
    { name: 'signature truncated to 16 bytes', token: `${H}.${P}.${S.slice(0, 22)}`, ours: false },
    { name: 'signature empty', token: `${H}.${P}.`, ours: false },
  ];

  it.each(cases)('$name', async ({ token, ours: expected }) => {
    const [mine, library] = await Promise.all([ours(token), joses(token)]);
    expect(mine).toBe(expected);
    // Never accept what the library refuses (the library may accept what ours refuses: the signature
    // encodings, which ours compares as canonical text).
    if (mine) expect(library).toBe(true);
  });

  it('a sign-in token with a future iat does not outlive "sign out everywhere"', async () => {
    // A token of a leaked key, with iat a day ahead, naming a genuine session: the session row ends it.
    const victim = await registered(w, 'iat-future@contoso.com');
    const real = decodeSession(victim.token) as ReturnType<typeof decodeSession> & { sid: string; kind: string };
    const ahead = Math.floor(Date.now() / 1000) + 86_400;
    const forged = await new SignJWT({ user: real.user, sid: real.sid, kind: real.kind })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(ahead)
      .setExpirationTime(ahead + 3600)
      .sign(w.t.config.keys.session.sign);
    expect((await me(forged)).statusCode).toBe(200);
    const out = await call(w.app, { method: 'POST', url: API.logoutAll, token: victim.token });
    expect(out.statusCode, out.body).toBeLessThan(300);
    expect((await me(forged)).statusCode).toBe(401);
  });
});

describe('byte for byte with jose, both ways (old clients, a rolling deploy)', () => {
  let inviter: { token: string; id: string };
  let invite = '';
  let team = '';
  beforeAll(async () => {
    inviter = await registered(w, 'bytes-inviter@contoso.com');
    const mail = await inviteTeammate(w, inviter.token, 'bytes-invitee@contoso.com');
    invite = inviteTokenIn(mail);
    const link = await call(w.app, { method: 'GET', url: API.invitationUrl, token: inviter.token });
    team = new URL(link.json().url as string).searchParams.get('inviteToken') ?? '';
    expect([invite, team]).not.toContain('');
  });
  const inviteKey = () => w.t.config.keys.invite.sign;

  it('the mailed invite and the team link are what jose signs from their claims, and jose verifies them', async () => {
    for (const [token, audience] of [
      [invite, 'suite:invite'],
      [team, 'suite:team-invite'],
    ] as const) {
      const again = await new SignJWT(decodeJwt(token))
        .setProtectedHeader(decodeProtectedHeader(token))
        .sign(inviteKey());
      expect(again).toBe(token);
      await expect(jwtVerify(token, inviteKey(), { algorithms: ['HS256'], audience })).resolves.toBeTruthy();
    }
  });

  it('signWithRing writes what SignJWT writes, for claims with non-ASCII text and both header shapes', async () => {
    const ring = deriveKeys(SECRET).invite;
    const claims = { email: 'zoë.ñandú+日本@exämple.com', n: 1.5, nested: { a: [1, '"'] } };
    for (const header of [{ alg: 'HS256' as const }, { alg: 'HS256' as const, typ: 'JWT' as const }]) {
      const ours = signWithRing(
        ring,
        header,
        new UnsecuredJWT(claims).setIssuedAt(1_700_000_000).setExpirationTime(2e9),
      );
      const theirs = await new SignJWT(claims)
        .setProtectedHeader(header)
        .setIssuedAt(1_700_000_000)
        .setExpirationTime(2e9)
        .sign(ring.sign);
      expect(ours).toBe(theirs);
    }
  });

  it('invite links signed by jose (the release before, with typ and iat) still open the invite screen', async () => {
    const { email, aud, jti, exp } = decodeJwt(invite);
    const old = await new SignJWT({ email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setAudience(aud as string)
      .setJti(jti as string)
      .setIssuedAt()
      .setExpirationTime(exp as number)
      .sign(inviteKey());
    const res = await validate(old);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email: 'bytes-invitee@contoso.com', status: 'pending' });
    const link = await validate(
      await new SignJWT(decodeJwt(team)).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(inviteKey()),
    );
    expect(link.json()).toMatchObject({ status: 'pending', team: 'contoso.com' });
  });
});

describe('rotation and other deployments (jose-signed tokens of the release before, too)', () => {
  const now = Math.floor(Date.now() / 1000);
  const sign = (key: Uint8Array) =>
    new SignJWT({ sid: 'x' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(key);
  const accepts = (ring: KeyRing, token: string) =>
    verifyWithRing(token, ring, { algorithms: ['HS256'] }).then(
      () => true,
      () => false,
    );

  it('the previous secret’s token passes while SESSION_SECRET_PREVIOUS is set, and not after', async () => {
    const old = await sign(deriveKeys(PREVIOUS).session.sign);
    expect(await accepts(deriveKeys(SECRET, PREVIOUS).session, old)).toBe(true);
    expect(await accepts(deriveKeys(SECRET).session, old)).toBe(false);
    // Rotating again drops the key before: a secret two rotations old verifies nothing.
    expect(await accepts(deriveKeys('third-secret-third-secret-third-0123456', SECRET).session, old)).toBe(false);
  });

  it("another deployment's session and invite tokens verify on neither ring, nor as each other", async () => {
    const theirs = deriveKeys(OTHER_DEPLOYMENT);
    const mine = deriveKeys(SECRET, PREVIOUS);
    const session = await sign(theirs.session.sign);
    const { token: invite } = await signInvite(theirs.invite, 'x@contoso.com');
    expect(await accepts(mine.session, session)).toBe(false);
    expect(await readInviteToken(mine.invite, invite)).toBeNull();
    // Keys are per use: our own session key never verifies an invite, nor an invite key a session.
    expect(await accepts(mine.invite, await sign(mine.session.sign))).toBe(false);
    const { token: ours } = await signInvite(mine.invite, 'x@contoso.com');
    expect(await accepts(mine.session, ours)).toBe(false);
  });

  it('audiences: an invite-key token for another audience, or none, is not an invitation', async () => {
    const ring = deriveKeys(SECRET).invite;
    const exp = now + 3600;
    const made = (aud: string | string[] | undefined, extra: Record<string, unknown> = {}) => {
      const claims = new UnsecuredJWT({ email: 'x@contoso.com', jti: 'j', domain: 'contoso.com', ...extra })
        .setSubject('inviter')
        .setExpirationTime(exp);
      return signWithRing(ring, { alg: 'HS256' }, aud === undefined ? claims : claims.setAudience(aud));
    };
    expect(await readInviteToken(ring, made(undefined))).toBeNull();
    expect(await readInviteToken(ring, made('suite:session'))).toBeNull();
    expect(await readInviteToken(ring, made(['suite:session', 'suite:invite']))).toBeNull();
    // Even expired, a wrong audience is not read (the expiry branch hands back claims as genuine).
    const expired = signWithRing(
      ring,
      { alg: 'HS256' },
      new UnsecuredJWT({ email: 'x@contoso.com', jti: 'j' }).setAudience('suite:session').setExpirationTime(now - 60),
    );
    expect(await readInviteToken(ring, expired)).toBeNull();
    // A team link is read as a team link, never as a personal invitation for its claims' address.
    const link = await signTeamInvite(ring, 'contoso.com', 'inviter', {
      generation: 1,
      createdAt: Date.now(),
      expiresAt: Date.now() + 60_000,
    });
    expect(await readInviteToken(ring, link)).toMatchObject({ kind: 'team', domain: 'contoso.com' });
  });
});

describe('timing: every key is tried and compared, whichever matches', () => {
  const ring = deriveKeys(SECRET, PREVIOUS).session;
  const now = Math.floor(Date.now() / 1000);
  const claims = () => new UnsecuredJWT({ sid: 'x' }).setIssuedAt(now).setExpirationTime(now + 60);
  const tokens = {
    'current key': signWithRing(ring, { alg: 'HS256' }, claims()),
    'previous key': signWithRing(deriveKeys(PREVIOUS).session, { alg: 'HS256' }, claims()),
    'another key': signWithRing(deriveKeys(OTHER_DEPLOYMENT).session, { alg: 'HS256' }, claims()),
  };

  it.each(Object.entries(tokens))('%s: two HMACs and two constant-time comparisons', async (_name, token) => {
    counted.hmac = 0;
    counted.compare = 0;
    await verifyWithRing(token, ring, { algorithms: ['HS256'] }).catch(() => undefined);
    expect(counted).toEqual({ hmac: 2, compare: 2 });
  });

  it('a bad signature says the same whichever key it was made with, and nothing of the keys', async () => {
    const errors = await Promise.all(
      [tokens['another key'], `${tokens['current key'].slice(0, -2)}AA`].map((t) =>
        verifyWithRing(t, ring, { algorithms: ['HS256'] }).catch((error: Error) => error),
      ),
    );
    expect(errors.map((e) => [e.constructor.name, e.message])).toEqual([
      ['JWSSignatureVerificationFailed', 'signature verification failed'],
      ['JWSSignatureVerificationFailed', 'signature verification failed'],
    ]);
  });
});

describe('through the API: every refusal looks the same', () => {
  let victim: { token: string; id: string };
  beforeAll(async () => {
    victim = await registered(w, 'same-refusal@contoso.com');
  });

  it('sessions: bad signature, malformed, wrong alg, another deployment, expired, revoked, huge: one 401', async () => {
    const sessionKey = w.t.config.keys.session.sign;
    const [h = '', p = '', s = ''] = victim.token.split('.');
    const real = decodeSession(victim.token);
    const other = deriveKeys(OTHER_DEPLOYMENT).session.sign;
    const attacker = randomBytes(32);
    const revoked = await registered(w, 'same-refusal-revoked@contoso.com');
    await call(w.app, { method: 'POST', url: API.logout, token: revoked.token });
    const refused = {
      'bad signature': `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`,
      '2 segments': `${h}.${p}`,
      'header not JSON': `${b64('x')}.${p}.${s}`,
      'alg RS256 under the genuine key': macd(sessionKey, b64({ alg: 'RS256', typ: 'JWT' }), p),
      'another deployment': macd(other, h, p),
      'expired under the genuine key': macd(sessionKey, h, b64({ ...real, exp: Math.floor(Date.now() / 1000) - 1 })),
      // The attacker's own key carried in the header (jwk) or pointed at (jku): never used.
      'jwk header with the attacker key': macd(
        attacker,
        b64({ alg: 'HS256', jwk: { kty: 'oct', k: attacker.toString('base64url') } }),
        p,
      ),
      'jku header': macd(attacker, b64({ alg: 'HS256', jku: 'https://evil.example/jwks.json' }), p),
      revoked: revoked.token,
      // Under Node's 16 KiB header limit: a big token costs a MAC over it, nothing more.
      huge: macd(attacker, h, b64({ ...real, pad: 'x'.repeat(11_000) })),
    };
    const expected = seen(await me(`${h}.${p}.${s.slice(0, -2)}`));
    expect(expected.status).toBe(401);
    for (const [name, token] of Object.entries(refused)) expect(seen(await me(token)), name).toEqual(expected);
    // The refusals were for their flaw alone: the genuine token still works.
    expect((await me(victim.token)).statusCode).toBe(200);
  });

  it('invitations: bad signature, malformed, wrong alg, another deployment, a session token: one 400', async () => {
    const inviteKey = w.t.config.keys.invite.sign;
    const link = await call(w.app, { method: 'GET', url: API.invitationUrl, token: victim.token });
    const team = new URL(link.json().url as string).searchParams.get('inviteToken') ?? '';
    const [h = '', p = '', s = ''] = team.split('.');
    const other = deriveKeys(OTHER_DEPLOYMENT);
    const refused = {
      'bad signature': `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`,
      '4 segments': `${team}.${s}`,
      'header not JSON': `${b64('x')}.${p}.${s}`,
      'alg none': `${b64({ alg: 'none' })}.${p}.`,
      'alg HS512 header under the genuine key': macd(inviteKey, b64({ alg: 'HS512' }), p),
      'another deployment (same domain, same claims)': macd(other.invite.sign, h, p),
      'our session key': macd(w.t.config.keys.session.sign, h, p),
      'a session token': victim.token,
      'at the length limit': macd(inviteKey, h, b64({ pad: 'x'.repeat(2900) })).slice(0, 4096),
    };
    const expected = seen(await validate(`${h}.${p}.`));
    expect(expected.status).toBe(400);
    expect(JSON.parse(expected.body)).toMatchObject({ error_code: 'ERR_INVITE_INVALID' });
    for (const [name, token] of Object.entries(refused)) expect(seen(await validate(token)), name).toEqual(expected);
    // The same token given at sign-up (`invite_token`): the same refusal for a forgery as for garbage.
    const signup = (token: string) =>
      call(w.app, {
        method: 'POST',
        url: API.signup,
        body: { email: 'same-refusal-new@contoso.com', invite_token: token },
      });
    const garbage = seen(await signup('x.y.z'));
    expect(JSON.parse(garbage.body)).toMatchObject({ error_code: 'ERR_INVITE_INVALID' });
    for (const name of ['bad signature', 'another deployment (same domain, same claims)', 'our session key'] as const) {
      expect(seen(await signup(refused[name])), name).toEqual(garbage);
    }
    const tooLong = await validate('a'.repeat(4097));
    expect(tooLong.statusCode).toBe(400);
    expect((await validate(team)).statusCode).toBe(200);
  });
});
