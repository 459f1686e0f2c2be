import { describe, expect, it } from 'vitest';
import {
  PASSWORD,
  call,
  changePassword,
  completeRegister,
  decodeSession,
  mailTo,
  recoverByMail,
  useWorld,
} from './accounts-helpers.js';
import { codeIn, linkIn } from './smtp.js';

/** What a client speaking only HTTP and SMTP sees, from sign-up to password recovery. */
describe('accounts: the whole path over HTTP and SMTP', () => {
  const w = useWorld();

  it('signs up, confirms, registers, invites, logs in and recovers a password', async () => {
    const email = 'ada@contoso.com';
    const signup = await call(w.app, { method: 'POST', url: '/v2/user', body: { email, language: 'pt' } });
    expect(signup.statusCode).toBe(201);
    expect(signup.json()).toMatchObject({ email });
    const codeMail = await mailTo(w.smtp, email);
    expect(codeMail.subject).toContain('código de confirmação');
    // The HTML shows it too, grouped 3-3 by two adjacent spans: their text is the six digits.
    expect(codeMail.html.replace(/<\/?span[^>]*>/g, '')).toContain(codeIn(codeMail));

    const confirm = await call(w.app, {
      method: 'PUT',
      url: '/v2/user/confirm',
      body: { token: codeIn(codeMail), email },
    });
    expect(confirm.statusCode).toBe(200);
    const { token, profiles } = confirm.json();
    expect(profiles).toHaveLength(1);
    expect(profiles[0].type).toBe('PROFESSIONAL');
    const payload = decodeSession(token);
    // the spec's payload, plus iat, the session id (sid) and its kind (sessions per device)
    expect(Object.keys(payload).sort()).toEqual(['exp', 'iat', 'kind', 'sid', 'user']);
    expect(Object.keys(payload.user).sort()).toEqual(['_id', 'email', 'preferences', 'profile_id']);
    expect(payload.user).toMatchObject({ email, profile_id: profiles[0]._id });

    const register = await completeRegister(w, token);
    expect(register.statusCode).toBe(200);
    expect(register.json().profiles[0].info).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', email });
    const session = register.json().token as string;

    const me = await call(w.app, { method: 'GET', url: '/v2/user/me', token: session });
    expect(me.json()).toMatchObject({ email, confirmed: true, registered: true });

    const before = w.smtp.messages.length;
    const invite = await call(w.app, {
      method: 'POST',
      url: '/invite/teammates',
      token: session,
      body: { emails: ['grace@contoso.com'] },
    });
    expect(invite.statusCode).toBe(200);
    expect(invite.json()).toEqual({ invited: ['grace@contoso.com'], already_registered: [] });
    const inviteMail = await mailTo(w.smtp, 'grace@contoso.com', before);
    const link = linkIn(inviteMail, '/confirm-invite');
    expect(link.origin).toBe('http://localhost:8080');
    expect(inviteMail.subject).toBe(`${email} invited you to join contoso.com on Suite`);
    expect(inviteMail.text).toContain(`Ada Lovelace (${email}) invited you to join the contoso.com team on Suite.`);

    const login = await call(w.app, { method: 'POST', url: '/auth/login', body: { login: email, password: PASSWORD } });
    expect(login.statusCode).toBe(200);
    expect(login.json().profiles[0].type).toBe('PROFESSIONAL');

    const recoveryToken = await recoverByMail(w, email);
    const id = decodeSession(recoveryToken).user._id;
    const update = await changePassword(w, { id, token: recoveryToken }, 'Brand-New-Pass-7', {});
    expect(update.statusCode).toBe(200);

    const old = await call(w.app, { method: 'POST', url: '/auth/login', body: { login: email, password: PASSWORD } });
    expect(old.statusCode).toBe(401);
    const fresh = await call(w.app, {
      method: 'POST',
      url: '/auth/login',
      body: { login: email, password: 'Brand-New-Pass-7' },
    });
    expect(fresh.statusCode).toBe(200);
    expect((await call(w.app, { method: 'GET', url: '/v2/user/me', token: fresh.json().token })).statusCode).toBe(200);
    // The password change ended the older sessions but not the one it handed back.
    expect((await call(w.app, { method: 'GET', url: '/v2/user/me', token: session })).statusCode).toBe(401);
    expect((await call(w.app, { method: 'GET', url: '/v2/user/me', token: update.json().token })).statusCode).toBe(200);
  });

  it('documents every account call in the OpenAPI document at /api/docs', async () => {
    const doc = (await w.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/api/v2/user',
      '/api/v2/user/confirm',
      '/api/v2/user/resend_confirmation',
      '/api/v2/user/complete-register',
      '/api/user/{id}',
      '/api/v2/user/forgot-password',
      '/api/v2/user/forgot-password/confirm',
      '/api/v2/user/me',
      '/api/auth/login',
      '/api/auth/logout',
      '/api/invite/teammates',
      '/api/invite/url',
      '/api/invite/validate',
    ]) {
      expect(
        paths.some((k) => k === p || k === p.replace('/api', '')),
        p,
      ).toBe(true);
    }
  });
});
