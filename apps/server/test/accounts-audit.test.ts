import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ERRORS } from '@suite/contract';
import { signTeamInvite } from '../src/modules/accounts/invites/tokens.js';
import { MAX_INVITES_PER_ADDRESS_PER_DAY } from '../src/modules/accounts/invites/service.js';
import {
  PASSWORD,
  admin,
  call,
  completeRegister,
  confirmed,
  decodeSession,
  expectError,
  mailTo,
  registered,
  signup,
  useWorld,
} from './accounts-helpers.js';
import { codeIn } from './smtp.js';

/** Every argon2 verification is counted (and still runs for real). */
const argon2 = vi.hoisted(() => ({ verifyCalls: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    verify: (...args: Parameters<typeof real.verify>) => {
      argon2.verifyCalls++;
      return real.verify(...args);
    },
  };
});

describe('accounts: gaps found by the audit', () => {
  const w = useWorld();

  const login = (email: string, password: string) =>
    call(w.app, { method: 'POST', url: '/auth/login', body: { login: email, password } });
  const post = (body: Record<string, unknown>) => call(w.app, { method: 'POST', url: '/v2/user', body });
  const register = (token: string, password = PASSWORD) =>
    completeRegister(w, token, { first_name: 'Grace', last_name: 'Hopper' }, password);
  const teamInvite = (emails: string[], token: string) =>
    call(w.app, { method: 'POST', url: '/invite/teammates', token, body: { emails } });
  const inviteToken = (out: string) => new URL(out.slice(out.indexOf('http'))).searchParams.get('inviteToken') ?? '';

  describe('an account confirmed but never registered (no password)', () => {
    it('signs up again: 409 with a fresh code, then the code step, welcome and login work', async () => {
      await confirmed(w, 'stuck@contoso.com');
      const before = w.smtp.messages.length;
      const again = await post({ email: 'stuck@contoso.com' });
      expectError(again, 409, 'ERR_USER_NOT_CONFIRMED_SIGNUP');
      expect(again.json().message).toBe(ERRORS.ERR_USER_NOT_CONFIRMED_SIGNUP.message);
      const code = codeIn(await mailTo(w.smtp, 'stuck@contoso.com', before));
      const session = await call(w.app, {
        method: 'PUT',
        url: '/v2/user/confirm',
        body: { token: code, email: 'stuck@contoso.com' },
      });
      expect(session.statusCode, session.body).toBe(200);
      expect((await register(session.json().token)).statusCode).toBe(200);
      expect((await login('stuck@contoso.com', PASSWORD)).statusCode).toBe(200);
      // Registered now: the address is in use, and the code calls say "already confirmed".
      expectError(await post({ email: 'stuck@contoso.com' }), 400, 'ERR_EMAIL_IN_USE');
    });

    it('logs in with "not confirmed" (whatever the password), and "Send again" leads to the welcome step', async () => {
      await confirmed(w, 'stuck2@contoso.com');
      expectError(await login('stuck2@contoso.com', 'Anything-123'), 401, 'ERR_USER_NOT_CONFIRMED');
      const before = w.smtp.messages.length;
      const resend = await call(w.app, {
        method: 'PUT',
        url: '/v2/user/resend_confirmation',
        body: { email: 'stuck2@contoso.com' },
      });
      expect(resend.statusCode).toBe(200);
      const code = codeIn(await mailTo(w.smtp, 'stuck2@contoso.com', before));
      const session = await call(w.app, {
        method: 'PUT',
        url: '/v2/user/confirm',
        body: { token: code, email: 'stuck2@contoso.com' },
      });
      expect(session.statusCode).toBe(200);
      expect((await register(session.json().token)).statusCode).toBe(200);
      expect((await login('stuck2@contoso.com', PASSWORD)).statusCode).toBe(200);
    });

    it('a personal address admitted by its (now used) invite gets the code step too, not the personal refusal', async () => {
      const token = inviteToken(await admin(w, 'invite', 'pal@gmail.com'));
      await mailTo(w.smtp, 'pal@gmail.com');
      expect((await post({ email: 'pal@gmail.com', invite_token: token })).statusCode).toBe(201);
      // Never registered; the invite is used up.
      expectError(await post({ email: 'pal@gmail.com', invite_token: token }), 409, 'ERR_INVITE_ALREADY_ACCEPTED');
      const before = w.smtp.messages.length;
      expectError(await post({ email: 'pal@gmail.com' }), 409, 'ERR_USER_NOT_CONFIRMED_SIGNUP');
      const code = codeIn(await mailTo(w.smtp, 'pal@gmail.com', before));
      const session = await call(w.app, {
        method: 'PUT',
        url: '/v2/user/confirm',
        body: { token: code, email: 'pal@gmail.com' },
      });
      expect(session.json().profiles[0].type).toBe('PERSONAL');
      expect((await register(session.json().token)).statusCode).toBe(200);
      expectError(await post({ email: 'pal@gmail.com' }), 400, 'ERR_PERSONAL_EMAIL_NOT_ALLOWED');
    });

    it('a teammate invite still reaches it and leads to the welcome step', async () => {
      const owner = await registered(w, 'lead@contoso.com');
      await confirmed(w, 'halfway@contoso.com');
      const before = w.smtp.messages.length;
      const res = await teamInvite(['halfway@contoso.com'], owner.token);
      expect(res.json()).toEqual({ invited: ['halfway@contoso.com'], already_registered: [] });
      const mail = await mailTo(w.smtp, 'halfway@contoso.com', before);
      const token = /inviteToken=([\w.-]+)/.exec(mail.text)?.[1] ?? '';
      const accepted = await post({ email: 'halfway@contoso.com', invite_token: token });
      expect(accepted.statusCode, accepted.body).toBe(201);
      expect((await register(accepted.json().token)).statusCode).toBe(200);
    });
  });

  it('accepts a 64-code-point emoji password at registration and at login; 65 is too long', async () => {
    const { token } = await confirmed(w, 'emoji@contoso.com');
    const password = '😀'.repeat(64);
    expect(password.length).toBe(128);
    expectError(await register(token, '😀'.repeat(65)), 400, 'USER_VALIDATION_FAILED');
    expect((await register(token, password)).statusCode).toBe(200);
    expect((await login('emoji@contoso.com', password)).statusCode).toBe(200);
    expectError(await login('emoji@contoso.com', '😀'.repeat(65)), 401, 'ERR_INVALID_CREDENTIALS');
  });

  // Answer times are compared in `npm run bench` (bench/enumeration.mjs): a time ratio is a property of
  // a quiet machine. What makes them equal is checked here: an address with no account costs the same
  // argon2 verification as a registered one with a wrong password.
  it('runs one argon2 verification for an unknown user, as for a wrong password (timing parity)', async () => {
    await registered(w, 'timing@contoso.com');
    for (const [email, password] of [
      ['nobody-here@contoso.com', 'Wrong-Pass-1'],
      ['timing@contoso.com', 'Wrong-Pass-1'],
      ['nobody-here@contoso.com', 'x'.repeat(200)],
      ['not-an-address', 'Wrong-Pass-1'],
    ] as const) {
      const before = argon2.verifyCalls;
      expectError(await login(email, password), 401, 'ERR_INVALID_CREDENTIALS');
      expect(argon2.verifyCalls - before, email).toBe(1);
    }
  });

  it('mails the new code for an expired one in the language the confirm request names', async () => {
    await signup(w, 'late-it@contoso.com');
    await w.app.db.kysely
      .updateTable('codes')
      .set({ expires_at: Date.now() - 1 })
      .where('email', '=', 'late-it@contoso.com')
      .execute();
    const before = w.smtp.messages.length;
    const res = await call(w.app, {
      method: 'PUT',
      url: '/v2/user/confirm',
      headers: { 'accept-language': 'es' },
      body: { token: '000000', email: 'late-it@contoso.com', language: 'it' },
    });
    expectError(res, 400, 'ERR_TOKEN_EXPIRED');
    expect((await mailTo(w.smtp, 'late-it@contoso.com', before)).subject).toContain('codice di conferma');
  });

  it('answers ERR_OTHER for an unexpected failure of either code check', async () => {
    await signup(w, 'other@contoso.com');
    const db = w.app.db.kysely;
    await db.schema.alterTable('codes').renameTo('codes_gone').execute();
    try {
      for (const url of ['/v2/user/confirm', '/v2/user/forgot-password/confirm']) {
        const res = await call(w.app, { method: 'PUT', url, body: { token: '123456', email: 'other@contoso.com' } });
        expectError(res, 400, 'ERR_OTHER');
        expect(res.json().message).toBe('Other error');
      }
    } finally {
      await db.schema.alterTable('codes_gone').renameTo('codes').execute();
    }
  });

  it('answers 503 ERR_SERVICE_UNAVAILABLE, not "invalid token", when the session check cannot reach the database', async () => {
    const { token } = await registered(w, 'outage@contoso.com');
    const spy = vi.spyOn(w.app.db.kysely, 'selectFrom').mockImplementationOnce(() => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    });
    try {
      const res = await call(w.app, { method: 'GET', url: '/v2/user/me', token });
      expectError(res, 503, 'ERR_SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toBeDefined();
    } finally {
      spy.mockRestore();
    }
    expect((await call(w.app, { method: 'GET', url: '/v2/user/me', token })).statusCode).toBe(200);
  });

  it('answers 413 for an over-long body on an account route, before any work', async () => {
    const before = argon2.verifyCalls;
    const res = await login('big@contoso.com', 'x'.repeat(70 * 1024));
    expectError(res, 413, 'ERR_PAYLOAD_TOO_LARGE');
    expectError(await post({ email: `${'a'.repeat(70 * 1024)}@contoso.com` }), 413, 'ERR_PAYLOAD_TOO_LARGE');
    expect(argon2.verifyCalls).toBe(before);
  });

  describe('address literals (user@[1.2.3.4])', () => {
    it('get in only with an invite for exactly that address, as PERSONAL, and cannot invite or share a team link', async () => {
      expectError(await post({ email: 'host@[192.0.2.7]' }), 400, 'ERR_PERSONAL_EMAIL_NOT_ALLOWED');
      const token = inviteToken(await admin(w, 'invite', 'host@[192.0.2.7]'));
      const res = await post({ email: 'host@[192.0.2.7]', invite_token: token });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().profiles[0].type).toBe('PERSONAL');
      // Registered (the invite's session opens the welcome step alone), still no inviting.
      const done = await completeRegister(w, res.json().token);
      expect(done.statusCode, done.body).toBe(200);
      const session = done.json().token as string;
      expectError(await teamInvite(['mate@[192.0.2.7]'], session), 403, 'ERR_FORBIDDEN');
      expectError(await call(w.app, { method: 'GET', url: '/invite/url', token: session }), 403, 'ERR_FORBIDDEN');
    });
  });

  describe('team links and invitations', () => {
    let owner: { token: string; id: string };
    beforeAll(async () => {
      owner = await registered(w, 'boss@fabrikam.com');
    });
    const validate = (token: string) =>
      call(w.app, { method: 'GET', url: `/invite/validate?inviteToken=${encodeURIComponent(token)}` });

    it('refuses an expired team link', async () => {
      const old = Date.now() - 31 * 86_400_000;
      const token = await signTeamInvite(w.t.config.keys.invite, 'fabrikam.com', owner.id, {
        generation: 1,
        createdAt: old,
        expiresAt: old + 30 * 86_400_000,
      });
      expect((await validate(token)).json()).toEqual({ email: '', status: 'expired' });
      expectError(await post({ email: 'late@fabrikam.com', invite_token: token }), 400, 'ERR_INVITE_EXPIRED');
    });

    it('admits nobody through the team link of an inviter who is no longer active', async () => {
      const inviter = await registered(w, 'leaver@fabrikam.com');
      const link = await call(w.app, { method: 'GET', url: '/invite/url', token: inviter.token });
      const token = new URL(link.json().url).searchParams.get('inviteToken') ?? '';
      expect((await post({ email: 'via-link@fabrikam.com', invite_token: token })).statusCode).toBe(201);
      await admin(w, 'users', 'deactivate', 'leaver@fabrikam.com');
      expectError(await validate(token), 400, 'ERR_INVITE_INVALID');
      expectError(await post({ email: 'via-link2@fabrikam.com', invite_token: token }), 400, 'ERR_INVITE_INVALID');
    });

    it(`invites one mailbox at most ${MAX_INVITES_PER_ADDRESS_PER_DAY} times a day: then 429 with Retry-After`, async () => {
      for (let i = 0; i < MAX_INVITES_PER_ADDRESS_PER_DAY; i++) {
        expect((await teamInvite(['flooded@fabrikam.com'], owner.token)).statusCode).toBe(200);
      }
      const capped = await teamInvite(['flooded@fabrikam.com', 'calm@fabrikam.com'], owner.token);
      expectError(capped, 429, 'ERR_RATE_LIMITED');
      expect(Number(capped.headers['retry-after'])).toBeGreaterThan(3600);
      // The address is named by its position in the request, never echoed.
      expect(capped.json().details).toEqual([{ path: 'emails.0', message: 'invited too often today' }]);
      expect(capped.body).not.toContain('flooded@');
      // All or nothing: the other address was not invited either.
      const rows = await w.app.db.kysely
        .selectFrom('invites')
        .select('email')
        .where('email', '=', 'calm@fabrikam.com')
        .execute();
      expect(rows).toEqual([]);
      // Another inviter of the domain cannot add to the pile either.
      const other = await registered(w, 'deputy@fabrikam.com');
      expectError(await teamInvite(['flooded@fabrikam.com'], other.token), 429, 'ERR_RATE_LIMITED');
      expect(decodeSession(other.token).user.email).toBe('deputy@fabrikam.com');
    });
  });
});
