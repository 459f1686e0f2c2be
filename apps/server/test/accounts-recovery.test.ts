import { beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  call,
  changePassword,
  decodeSession,
  expectError,
  mailTo,
  outboxDrained,
  registered,
  useWorld,
} from './accounts-helpers.js';
import { codeIn } from './smtp.js';

describe('password recovery: POST /v2/user/forgot-password and PUT /v2/user/forgot-password/confirm', () => {
  const w = useWorld();
  beforeAll(async () => {
    await registered(w, 'rec@contoso.com');
  });

  const forgot = (email: string, headers: Record<string, string> = {}) =>
    call(w.app, { method: 'POST', url: '/v2/user/forgot-password', body: { email }, headers });
  const confirm = (email: string, token: string) =>
    call(w.app, { method: 'PUT', url: '/v2/user/forgot-password/confirm', body: { email, token } });

  it('answers a known and an unknown address alike, and mails only the known one', async () => {
    const before = w.smtp.messages.length;
    const known = await forgot('rec@contoso.com', { 'accept-language': 'es' });
    const unknown = await forgot('nobody-here@contoso.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    const mail = await mailTo(w.smtp, 'rec@contoso.com', before);
    expect(mail.subject).toContain('restablecer la contraseña');
    await outboxDrained(w);
    expect(w.smtp.messages.some((m) => m.to.includes('nobody-here@contoso.com'))).toBe(false);
  });

  it('answers wrong codes alike for known and unknown addresses, up to the try limit', async () => {
    const before = w.smtp.messages.length;
    await forgot('rec@contoso.com');
    await forgot('nobody-two@contoso.com');
    await mailTo(w.smtp, 'rec@contoso.com', before);
    for (const expected of ['INVALID_TOKEN', 'INVALID_TOKEN', 'ERR_MAX_TRIES_EXCEEDED']) {
      const a = await confirm('rec@contoso.com', '000000');
      const b = await confirm('nobody-two@contoso.com', '000000');
      // 000000 could be the real code one time in a million; then this test says so plainly.
      expect(a.json().error_code).toBe(expected);
      expect(b.body).toBe(a.body);
    }
  });

  it('requires an address, well formed', async () => {
    const empty = await forgot('  ');
    expectError(empty, 400, 'ERR_EMAIL_NOT_PROVIDED');
    expect(empty.json().message).toBe('The email was not provided!');
    expectError(await forgot('nope'), 400, 'ERR_INVALID_EMAIL');
  });

  // The code answers a single-purpose recovery token (≤ 15 minutes), not a session.
  it('leads from the mailed code to a recovery token, a new password (which signs in) and a login with it', async () => {
    const before = w.smtp.messages.length;
    await forgot('rec@contoso.com');
    const code = codeIn(await mailTo(w.smtp, 'rec@contoso.com', before));
    const res = await confirm('rec@contoso.com', code);
    expect(res.statusCode).toBe(200);
    const { token, profiles } = res.json();
    expect(profiles[0].type).toBe('PROFESSIONAL');
    expectError(await confirm('rec@contoso.com', code), 400, 'INVALID_TOKEN');

    const claims = decodeSession(token) as ReturnType<typeof decodeSession> & { kind?: string };
    expect(claims.kind).toBe('recovery');
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(15 * 60);
    // only good for setting the password: not a session anywhere else
    expectError(await call(w.app, { method: 'GET', url: '/v2/user/me', token }), 401, 'ERR_INVALID_ACCESS_TOKEN');
    const putWith = (bearer: string) =>
      changePassword(w, { id: claims.user._id, token: bearer }, 'Recovered-Pass-3', {});
    const put = await putWith(token);
    expect(put.statusCode).toBe(200);
    // setting the password signs in; the recovery token is spent
    expect((await call(w.app, { method: 'GET', url: '/v2/user/me', token: put.json().token })).statusCode).toBe(200);
    expectError(await putWith(token), 401, 'ERR_INVALID_ACCESS_TOKEN');
    const login = (password: string) =>
      call(w.app, { method: 'POST', url: '/auth/login', body: { login: 'rec@contoso.com', password } });
    expect((await login('Recovered-Pass-3')).statusCode).toBe(200);
    expectError(await login(PASSWORD), 401, 'ERR_INVALID_CREDENTIALS');
  });

  it('mails a new code when an expired one is used', async () => {
    // The password change above also sent a notice to this address: let it go out first.
    await outboxDrained(w);
    const before = w.smtp.messages.length;
    await forgot('rec@contoso.com');
    const old = codeIn(await mailTo(w.smtp, 'rec@contoso.com', before));
    await w.app.db.kysely
      .updateTable('codes')
      .set({ expires_at: 1 })
      .where('email', '=', 'rec@contoso.com')
      .where('purpose', '=', 'recovery')
      .execute();
    const after = w.smtp.messages.length;
    expectError(await confirm('rec@contoso.com', old), 400, 'ERR_TOKEN_EXPIRED');
    const fresh = codeIn(await mailTo(w.smtp, 'rec@contoso.com', after));
    expect((await confirm('rec@contoso.com', fresh)).statusCode).toBe(200);
  });

  it('answers ERR_COULD_NOT_RECOVER_PASSWORD when the mail cannot be queued', async () => {
    const broken = await (await import('./accounts-helpers.js')).startWorld();
    try {
      await registered(broken, 'fault@contoso.com');
      await broken.app.db.kysely.schema.alterTable('mail_outbox').renameTo('mail_outbox_gone').execute();
      const res = await call(broken.app, {
        method: 'POST',
        url: '/v2/user/forgot-password',
        body: { email: 'fault@contoso.com' },
      });
      expectError(res, 500, 'ERR_COULD_NOT_RECOVER_PASSWORD');
      expect(res.body).not.toMatch(/mail_outbox|sql|at /i);
      await broken.app.db.kysely.schema.alterTable('mail_outbox_gone').renameTo('mail_outbox').execute();
    } finally {
      await broken.close();
    }
  });
});
