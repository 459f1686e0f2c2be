import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import {
  type AccountsWorld,
  call,
  decodeSession,
  expectError,
  registered,
  signup,
  startWorld,
  useWorld,
} from './accounts-helpers.js';
import { configProblems } from './helpers.js';
import { loadConfig, prepareDataDir } from '../src/config.js';

const OLD = 'old-secret-old-secret-old-secret-0123456789';
const NEW = 'new-secret-new-secret-new-secret-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'suite-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SESSION_SECRET', () => {
  it('is required with NODE_ENV=production, listed with the other start-up problems', () => {
    const problems = configProblems(join(dir, 'prod'), { NODE_ENV: 'production', PORT: 'x' });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^SESSION_SECRET: required when NODE_ENV=production/),
        expect.stringMatching(/^PUBLIC_URL: required/),
        expect.stringMatching(/^PORT/),
      ]),
    );
  });

  it('in development is generated once into DATA_DIR with mode 600 and never overwritten', () => {
    const dataDir = join(dir, 'dev');
    // Written by the caller at start-up (server.ts, bin/admin.ts), never by loadConfig.
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).not.toBe(loadConfig({ DATA_DIR: dataDir }).sessionSecret);
    expect(existsSync(dataDir)).toBe(false);
    prepareDataDir({ DATA_DIR: dataDir });
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecret;
    const file = join(dataDir, 'session-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(first);
    // A secret an operator put there is read, not replaced.
    writeFileSync(file, 'operator-chosen-secret-operator-chosen-0123');
    prepareDataDir({ DATA_DIR: dataDir });
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe('operator-chosen-secret-operator-chosen-0123');
    expect(readFileSync(file, 'utf8')).toBe('operator-chosen-secret-operator-chosen-0123');
  });

  it('derives a different key for sessions, codes and invites (none is the secret itself)', () => {
    const { keys } = loadConfig({ DATA_DIR: join(dir, 'k'), SESSION_SECRET: NEW });
    const hex = [keys.session.sign, keys.code.sign, keys.invite.sign].map((k) => Buffer.from(k).toString('hex'));
    expect(new Set(hex).size).toBe(3);
    expect(hex).not.toContain(Buffer.from(NEW).toString('hex'));
  });
});

describe('rotation with SESSION_SECRET_PREVIOUS', () => {
  let before: AccountsWorld;
  let session: string;
  let code: string;
  let teamLink: string;
  beforeAll(async () => {
    before = await startWorld({ SESSION_SECRET: OLD });
    session = (await registered(before, 'ada@contoso.com')).token;
    code = await signup(before, 'bob@contoso.com');
    const link = await call(before.app, { method: 'GET', url: '/invite/url', token: session });
    teamLink = new URL(link.json().url).searchParams.get('inviteToken') ?? '';
    await before.t.app.close();
  });
  afterAll(async () => before?.close());

  /** The same data, served with `env`'s secrets (as after a redeploy). */
  const redeployed = (env: Record<string, string>) =>
    startWorld({
      DATA_DIR: before.t.dataDir,
      ...(before.t.config.databaseUrl ? { DATABASE_URL: before.t.config.databaseUrl } : {}),
      ...env,
    });

  it('keeps sessions, mailed codes and invite links made with the previous secret valid', async () => {
    const after = await redeployed({ SESSION_SECRET: NEW, SESSION_SECRET_PREVIOUS: OLD });
    try {
      expect((await call(after.app, { method: 'GET', url: '/v2/user/me', token: session })).statusCode).toBe(200);
      const validate = await call(after.app, {
        method: 'GET',
        url: `/invite/validate?inviteToken=${encodeURIComponent(teamLink)}`,
      });
      // A valid team link (a forged or unverifiable one answers 400 ERR_INVITE_INVALID).
      expect({ status: validate.statusCode, body: validate.json() }).toEqual({
        status: 200,
        body: { email: '', status: 'pending', inviter: 'Ada Lovelace', team: 'contoso.com' },
      });
      const confirm = await call(after.app, {
        method: 'PUT',
        url: '/v2/user/confirm',
        body: { token: code, email: 'bob@contoso.com' },
      });
      expect(confirm.statusCode, confirm.body).toBe(200);
      // New sessions are signed with the new secret: accepted without the previous one.
      const fresh = confirm.json().token as string;
      const only = await redeployed({ SESSION_SECRET: NEW });
      try {
        expect((await call(only.app, { method: 'GET', url: '/v2/user/me', token: fresh })).statusCode).toBe(200);
        // Once the previous secret is dropped, what it signed is no longer accepted.
        expect((await call(only.app, { method: 'GET', url: '/v2/user/me', token: session })).statusCode).toBe(401);
        const stale = await call(only.app, {
          method: 'GET',
          url: `/invite/validate?inviteToken=${encodeURIComponent(teamLink)}`,
        });
        expect(stale.json()).toMatchObject({ error_code: 'ERR_INVITE_INVALID' });
      } finally {
        await only.close();
      }
    } finally {
      await after.close();
    }
  });
});

describe('upgrade from the release before HKDF keys and per-device sessions', () => {
  const w = useWorld({ SESSION_SECRET: NEW });

  /** A token as that release issued it: HS256 over the raw secret's bytes, `{ user, iat, exp }`, no session id. */
  const legacyToken = (user: object, key: Uint8Array) =>
    new SignJWT({ user })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);

  it('signs everyone out once: its session tokens answer 401 ERR_INVALID_ACCESS_TOKEN, a new login works', async () => {
    const { token } = await registered(w, 'legacy@contoso.com');
    const { user } = decodeSession(token);
    for (const old of [
      await legacyToken(user, new TextEncoder().encode(NEW)),
      // Even signed with today's session key: without a session id there is no session to find.
      await legacyToken(user, w.t.config.keys.session.sign),
    ]) {
      expectError(
        await call(w.app, { method: 'GET', url: '/v2/user/me', token: old }),
        401,
        'ERR_INVALID_ACCESS_TOKEN',
      );
    }
    expect((await call(w.app, { method: 'GET', url: '/v2/user/me', token })).statusCode).toBe(200);
  });
});
