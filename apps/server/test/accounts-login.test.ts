import { beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, admin, call, decodeSession, expectError, registered, signup, useWorld } from './accounts-helpers.js';

describe('POST /auth/login, POST /auth/logout, GET /v2/user/me', () => {
  const w = useWorld();
  beforeAll(async () => {
    await registered(w, 'lin@contoso.com');
  });

  const login = (body: Record<string, unknown>) => call(w.app, { method: 'POST', url: '/auth/login', body });

  it('logs in with e-mail and password and answers the session and profiles', async () => {
    const res = await login({ login: ' LIN@contoso.com ', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const { token, profiles } = res.json();
    expect(profiles[0]).toMatchObject({
      type: 'PROFESSIONAL',
      info: { first_name: 'Ada', last_name: 'Lovelace', email: 'lin@contoso.com' },
    });
    const payload = decodeSession(token);
    expect(payload.user).toEqual({
      _id: expect.any(String),
      email: 'lin@contoso.com',
      preferences: {},
      profile_id: profiles[0]._id,
    });
    expect(payload.exp - payload.iat).toBe(12 * 3600);
  });

  it('answers an unknown address and a wrong password identically', async () => {
    const unknown = await login({ login: 'ghost@contoso.com', password: PASSWORD });
    const wrong = await login({ login: 'lin@contoso.com', password: 'Wrong-Password-1' });
    const malformed = await login({ login: 'not-an-email', password: PASSWORD });
    expectError(unknown, 401, 'ERR_INVALID_CREDENTIALS');
    for (const r of [wrong, malformed]) {
      expect(r.statusCode).toBe(unknown.statusCode);
      expect(r.body).toBe(unknown.body);
    }
  });

  it('requires both fields', async () => {
    expectError(await login({ login: '', password: PASSWORD }), 400, 'ERR_VALIDATION');
    expectError(await login({ login: 'lin@contoso.com', password: '' }), 400, 'ERR_VALIDATION');
    expectError(await login({ login: 'lin@contoso.com' }), 400, 'ERR_VALIDATION');
  });

  it('tells an unconfirmed user to confirm first', async () => {
    await signup(w, 'unconf@contoso.com');
    const res = await login({ login: 'unconf@contoso.com', password: 'whatever-1' });
    expectError(res, 401, 'ERR_USER_NOT_CONFIRMED');
  });

  it('refuses a deactivated user, and their open sessions stop working', async () => {
    const { token } = await registered(w, 'off@contoso.com');
    await admin(w, 'users', 'deactivate', 'off@contoso.com');
    expectError(await login({ login: 'off@contoso.com', password: PASSWORD }), 403, 'ERR_USER_NOT_ACTIVE');
    expectError(await login({ login: 'off@contoso.com', password: 'bad-password-9' }), 401, 'ERR_INVALID_CREDENTIALS');
    expectError(await call(w.app, { method: 'GET', url: '/v2/user/me', token }), 401, 'ERR_INVALID_ACCESS_TOKEN');
    await admin(w, 'users', 'activate', 'off@contoso.com');
    expect((await login({ login: 'off@contoso.com', password: PASSWORD })).statusCode).toBe(200);
  });

  it('applies the domain rules: disabled domain, SSO-only domain', async () => {
    await registered(w, 'dom@fabrikam.com');
    await admin(w, 'domain', 'set', 'fabrikam.com', '--inactive');
    const disabled = await login({ login: 'dom@fabrikam.com', password: PASSWORD });
    expectError(disabled, 403, 'ERR_DOMAIN_DISABLED');
    expect(disabled.json().message).toBe('Domain is disabled.');
    await admin(w, 'domain', 'set', 'fabrikam.com', '--active', '--sso-only');
    expectError(await login({ login: 'dom@fabrikam.com', password: PASSWORD }), 403, 'ERR_SSO_LOGIN_ONLY');
    await admin(w, 'domain', 'set', 'fabrikam.com', '--password-login');
    expect((await login({ login: 'dom@fabrikam.com', password: PASSWORD })).statusCode).toBe(200);
  });

  it('answers its catalogue errors when the stored account is broken', async () => {
    await registered(w, 'broken@contoso.com');
    const db = w.app.db.kysely;
    await db
      .updateTable('users')
      .set({ password_hash: 'not-a-hash' })
      .where('email', '=', 'broken@contoso.com')
      .execute();
    const res = await login({ login: 'broken@contoso.com', password: PASSWORD });
    expectError(res, 500, 'ERR_COULD_NOT_AUTHENTICATE');
    expect(res.body).not.toContain('hash');

    await registered(w, 'noprofile@contoso.com');
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'noprofile@contoso.com')
      .executeTakeFirstOrThrow();
    await db.deleteFrom('profiles').where('user_id', '=', user.id).execute();
    expectError(await login({ login: 'noprofile@contoso.com', password: PASSWORD }), 500, 'ERR_COULD_NOT_GET_PROFILE');
  });

  it('GET /v2/user/me answers who is signed in; without a valid bearer, 401', async () => {
    const { token } = (await login({ login: 'lin@contoso.com', password: PASSWORD })).json();
    const me = await call(w.app, { method: 'GET', url: '/v2/user/me', token });
    expect(me.json()).toMatchObject({
      email: 'lin@contoso.com',
      confirmed: true,
      registered: true,
      profiles: [{ type: 'PROFESSIONAL' }],
    });
    expectError(await call(w.app, { method: 'GET', url: '/v2/user/me' }), 401, 'ERR_INVALID_ACCESS_TOKEN');
    expectError(
      await call(w.app, { method: 'GET', url: '/v2/user/me', token: `${token}x` }),
      401,
      'ERR_INVALID_ACCESS_TOKEN',
    );
  });

  it('logout ends this session; a new login works', async () => {
    const { token } = (await login({ login: 'lin@contoso.com', password: PASSWORD })).json();
    const out = await call(w.app, { method: 'POST', url: '/auth/logout', token });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    expectError(await call(w.app, { method: 'GET', url: '/v2/user/me', token }), 401, 'ERR_INVALID_ACCESS_TOKEN');
    expectError(await call(w.app, { method: 'POST', url: '/auth/logout', token }), 401, 'ERR_INVALID_ACCESS_TOKEN');
    // Logging in again at once (same second as the logout) gives a session that works.
    const again = (await login({ login: 'lin@contoso.com', password: PASSWORD })).json();
    expect((await call(w.app, { method: 'GET', url: '/v2/user/me', token: again.token })).statusCode).toBe(200);
  });
});
