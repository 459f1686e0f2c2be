import { beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  admin,
  call,
  completeRegister,
  confirmed,
  expectError,
  mailTo,
  registered,
  useWorld,
} from './accounts-helpers.js';
import { codeIn, linkIn } from './smtp.js';
import { buildApp } from '../src/app.js';
import { signInvite } from '../src/modules/accounts/invites/tokens.js';

describe('teammate invitations: POST /invite/teammates, GET /invite/url, GET /invite/validate, acceptance', () => {
  const w = useWorld();
  let owner: { token: string; id: string };
  beforeAll(async () => {
    owner = await registered(w, 'owner@contoso.com');
  });

  const invite = (
    emails: unknown,
    token = owner.token,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => call(w.app, { method: 'POST', url: '/invite/teammates', token, body: { emails, ...extra }, headers });
  const validate = (inviteToken: string) =>
    call(w.app, { method: 'GET', url: `/invite/validate?inviteToken=${encodeURIComponent(inviteToken)}` });
  const signup = (email: string, inviteToken?: string) =>
    call(w.app, {
      method: 'POST',
      url: '/v2/user',
      body: { email, ...(inviteToken ? { invite_token: inviteToken } : {}) },
    });

  /** Invites one address and returns the token from the link in the delivered mail. */
  async function invited(email: string, language?: string): Promise<string> {
    const before = w.smtp.messages.length;
    const res = await invite([email], owner.token, language ? { language } : {});
    expect(res.statusCode, res.body).toBe(200);
    return linkIn(await mailTo(w.smtp, email, before), '/confirm-invite').searchParams.get('inviteToken') ?? '';
  }

  it('mails each invitee a link built from PUBLIC_URL (never the Host header) in the chosen language', async () => {
    const before = w.smtp.messages.length;
    const res = await invite(
      ['t1@contoso.com', 'T2@Contoso.com'],
      owner.token,
      { language: 'it' },
      { host: 'evil.example' },
    );
    expect(res.json()).toEqual({ invited: ['t1@contoso.com', 't2@contoso.com'], already_registered: [] });
    for (const to of ['t1@contoso.com', 't2@contoso.com']) {
      const mail = await mailTo(w.smtp, to, before);
      const link = linkIn(mail, '/confirm-invite');
      expect(link.origin).toBe('http://localhost:8080');
      expect(mail.html).not.toContain('evil.example');
      // The inviter by address in the subject, by name and address (and the domain) in the body.
      expect(mail.subject).toBe('owner@contoso.com ti ha invitato a unirti a contoso.com su Suite');
      expect(mail.text).toContain('Ada Lovelace (owner@contoso.com) ti ha invitato a unirti al team di contoso.com');
    }
  });

  it('keeps the invite token to the claims its flow reads: address, audience, single-use id, expiry', async () => {
    const token = await invited('claims@contoso.com');
    const [header = '', payload = ''] = token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toEqual({ alg: 'HS256' });
    expect(Object.keys(payload).sort()).toEqual(['aud', 'email', 'exp', 'jti']);
    expect(payload.email).toBe('claims@contoso.com');
    expect(payload.jti).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // 257 characters before (typ header, iat, a UUID jti) for an address of this length.
    expect(token.length).toBeLessThanOrEqual(200);
    // The screen's flow still works from it: validated, then accepted.
    expect((await validate(token)).json()).toEqual({
      email: 'claims@contoso.com',
      status: 'pending',
      inviter: 'Ada Lovelace',
      team: 'contoso.com',
    });
    expect((await signup('claims@contoso.com', token)).statusCode).toBe(201);
  });

  it('accepts an invite once: the invitee gets a confirmed account and a session to finish registering', async () => {
    const token = await invited('newbie@contoso.com');
    expect((await validate(token)).json()).toMatchObject({ email: 'newbie@contoso.com', status: 'pending' });

    const accepted = await signup('newbie@contoso.com', token);
    expect(accepted.statusCode).toBe(201);
    const body = accepted.json();
    expect(body.profiles[0].type).toBe('PROFESSIONAL');
    const done = await completeRegister(w, body.token, { first_name: 'New', last_name: 'Bie' });
    expect(done.statusCode).toBe(200);
    expect(
      (
        await call(w.app, {
          method: 'POST',
          url: '/auth/login',
          body: { login: 'newbie@contoso.com', password: PASSWORD },
        })
      ).statusCode,
    ).toBe(200);

    expect((await validate(token)).json()).toEqual({ email: 'newbie@contoso.com', status: 'accepted' });
    const again = await signup('newbie@contoso.com', token);
    expectError(again, 409, 'ERR_INVITE_ALREADY_ACCEPTED');
  });

  it('lets exactly one of several simultaneous acceptances win', async () => {
    const token = await invited('twice@contoso.com');
    const results = await Promise.all(Array.from({ length: 4 }, () => signup('twice@contoso.com', token)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 201)) expectError(r, 409, 'ERR_INVITE_ALREADY_ACCEPTED');
  });

  it('answers an invite as accepted when the address registered by itself meanwhile', async () => {
    const token = await invited('self@contoso.com');
    await registered(w, 'self@contoso.com');
    expect((await validate(token)).json()).toEqual({ email: 'self@contoso.com', status: 'accepted' });
    expectError(await signup('self@contoso.com', token), 409, 'ERR_INVITE_ALREADY_ACCEPTED');
  });

  it('reports and refuses an expired invite', async () => {
    const token = await invited('late@contoso.com');
    await w.app.db.kysely
      .updateTable('invites')
      .set({ expires_at: Date.now() - 1 })
      .where('email', '=', 'late@contoso.com')
      .execute();
    // Who to ask for a new one comes with it; a work address may still sign up on its own.
    expect((await validate(token)).json()).toEqual({
      email: 'late@contoso.com',
      status: 'expired',
      personal: false,
      inviter: 'Ada Lovelace',
      team: 'contoso.com',
    });
    expectError(await signup('late@contoso.com', token), 400, 'ERR_INVITE_EXPIRED');
  });

  it('says of an expired invitation for a personal address that it is one, and who sent it', async () => {
    const out = await admin(w, 'invite', 'late-friend@gmail.com');
    const token = new URL(out.slice(out.indexOf('http'))).searchParams.get('inviteToken') ?? '';
    await w.app.db.kysely
      .updateTable('invites')
      .set({ expires_at: Date.now() - 1 })
      .where('email', '=', 'late-friend@gmail.com')
      .execute();
    const answer = await validate(token);
    expect(answer.json()).toEqual({
      email: 'late-friend@gmail.com',
      status: 'expired',
      personal: true,
      inviter: null,
      team: 'gmail.com',
    });
    // What the screen must not offer: sign-up refuses the address without a valid invitation.
    expectError(await signup('late-friend@gmail.com'), 400, 'ERR_PERSONAL_EMAIL_NOT_ALLOWED');
  });

  it('answers a well-signed token whose expiry passed as expired, naming the inviter, even without its row', async () => {
    // The work address was invited by Ada before; this token's own row is gone (or never kept).
    await invited('late-token@contoso.com');
    const long = Date.now() - 8 * 86_400_000;
    const work = await signInvite(w.t.config.keys.invite, 'late-token@contoso.com', long);
    expect((await validate(work.token)).json()).toEqual({
      email: 'late-token@contoso.com',
      status: 'expired',
      personal: false,
      inviter: 'Ada Lovelace',
      team: 'contoso.com',
    });
    const home = await signInvite(w.t.config.keys.invite, 'late-token@gmail.com', long);
    expect((await validate(home.token)).json()).toEqual({
      email: 'late-token@gmail.com',
      status: 'expired',
      personal: true,
      inviter: null,
      team: 'gmail.com',
    });
    // Unexpired without a row is no invitation at all.
    const orphan = await signInvite(w.t.config.keys.invite, 'late-token@contoso.com');
    expectError(await validate(orphan.token), 400, 'ERR_INVITE_INVALID');
  });

  // The invite screen says who invites and to which team; the token no longer names the inviter.
  it('names who invites and to which team while the invitation is pending, never an address', async () => {
    const { token: welcome } = await confirmed(w, 'grace@contoso.com');
    const grace = (await completeRegister(w, welcome, { first_name: 'Grace', last_name: 'Hopper' })).json().token;
    const sendFrom = async (email: string) => {
      const before = w.smtp.messages.length;
      expect((await invite([email], grace)).statusCode).toBe(200);
      return linkIn(await mailTo(w.smtp, email, before), '/confirm-invite').searchParams.get('inviteToken') ?? '';
    };
    const token = await sendFrom('hopper-mate@contoso.com');
    const pending = await validate(token);
    expect(pending.json()).toEqual({
      email: 'hopper-mate@contoso.com',
      status: 'pending',
      inviter: 'Grace Hopper',
      team: 'contoso.com',
    });
    expect(pending.body).not.toContain('grace@');
    // Once used, no one is named any more.
    expect((await signup('hopper-mate@contoso.com', token)).statusCode).toBe(201);
    expect((await validate(token)).json()).toEqual({ email: 'hopper-mate@contoso.com', status: 'accepted' });
    // An administrator's invitation names no one; the team is the invitee's domain.
    const out = await admin(w, 'invite', 'by-admin@contoso.com');
    const byAdmin = new URL(out.slice(out.indexOf('http'))).searchParams.get('inviteToken') ?? '';
    expect((await validate(byAdmin)).json()).toEqual({
      email: 'by-admin@contoso.com',
      status: 'pending',
      inviter: null,
      team: 'contoso.com',
    });
    // An inviter deactivated meanwhile is not named either.
    const later = await sendFrom('hopper-later@contoso.com');
    await admin(w, 'users', 'deactivate', 'grace@contoso.com');
    expect((await validate(later)).json()).toMatchObject({ status: 'pending', inviter: null, team: 'contoso.com' });
  });

  it('refuses tokens that are not invites', async () => {
    expectError(await validate('garbage'), 400, 'ERR_INVITE_INVALID');
    expectError(await validate(owner.token), 400, 'ERR_INVITE_INVALID');
    expectError(await signup('x@contoso.com', 'garbage'), 400, 'ERR_INVITE_INVALID');
    const other = await invited('someone@contoso.com');
    expectError(await signup('else@contoso.com', other), 400, 'ERR_INVITE_INVALID');
  });

  it('lets a personal address in only with an invite for exactly that address, as a PERSONAL profile', async () => {
    const out = await admin(w, 'invite', 'friend@gmail.com', '--language', 'pt');
    const token = new URL(out.slice(out.indexOf('http'))).searchParams.get('inviteToken') ?? '';
    const mail = await mailTo(w.smtp, 'friend@gmail.com');
    expect(mail.subject).toBe('Você foi convidado para o Suite');
    expectError(await signup('friend@gmail.com'), 400, 'ERR_PERSONAL_EMAIL_NOT_ALLOWED');
    expectError(await signup('other@gmail.com', token), 400, 'ERR_PERSONAL_EMAIL_NOT_ALLOWED');
    const res = await signup('friend@gmail.com', token);
    expect(res.statusCode).toBe(201);
    expect(res.json().profiles[0].type).toBe('PERSONAL');
    // A personal account, once registered, cannot invite "teammates" of gmail.com, nor get a team link.
    const done = await completeRegister(w, res.json().token);
    expect(done.statusCode, done.body).toBe(200);
    const session = done.json().token as string;
    expectError(await invite(['pal@gmail.com'], session), 403, 'ERR_FORBIDDEN');
    expectError(await call(w.app, { method: 'GET', url: '/invite/url', token: session }), 403, 'ERR_FORBIDDEN');
  });

  it('answers each teammate rule with its catalogue error', async () => {
    expectError(await invite([]), 400, 'ERR_NO_EMAIL_PROVIDED');
    expectError(await invite(['', '  ']), 400, 'ERR_NO_EMAIL_PROVIDED');
    const bad = await invite(['ok@contoso.com', 'bad@']);
    expectError(bad, 400, 'ERR_INVALID_TEAMMATE_EMAIL');
    const dup = await invite(['dup@contoso.com', 'x@contoso.com', 'DUP@contoso.com']);
    expectError(dup, 400, 'ERR_INVALID_TEAMMATE_EMAIL');
    // The details name the field by its position; nothing submitted is echoed (docs/security.md).
    expect(bad.json().details).toEqual([{ path: 'emails.1', message: 'invalid email' }]);
    expect(dup.json().details).toEqual([{ path: 'emails.2', message: 'duplicate' }]);
    expect(bad.body + dup.body).not.toMatch(/bad@|dup@/i);
    expectError(await invite(['a@fabrikam.com', 'b@gmail.com']), 400, 'ERR_NO_SAME_DOMAIN_EMAIL');
    const mixed = await invite(['a@contoso.com', 'b@fabrikam.com']);
    expectError(mixed, 400, 'ERR_TEAMMATE_DOMAIN');
    expect(mixed.json().message).toBe("The teammate's email address must have the same domain address.");
    expectError(
      await invite([
        '1@contoso.com',
        '2@contoso.com',
        '3@contoso.com',
        '4@contoso.com',
        '5@contoso.com',
        '6@contoso.com',
      ]),
      400,
      'ERR_VALIDATION',
    );
    expectError(await invite(['owner@contoso.com']), 409, 'ERR_ALL_EMAILS_REGISTERED');
    const partly = await invite(['owner@contoso.com', 'fresh@contoso.com']);
    expect(partly.json()).toEqual({ invited: ['fresh@contoso.com'], already_registered: ['owner@contoso.com'] });
    expectError(
      await call(w.app, { method: 'POST', url: '/invite/teammates', body: { emails: ['a@contoso.com'] } }),
      401,
      'ERR_INVALID_ACCESS_TOKEN',
    );
    const stored = await w.app.db.kysely
      .selectFrom('invites')
      .select('email')
      .where('email', 'in', ['a@contoso.com', 'ok@contoso.com', 'dup@contoso.com'])
      .execute();
    expect(stored).toEqual([]);
  });

  it('ends the sessions of an inactive domain at once; they stay ended when it is active again', async () => {
    await admin(w, 'domain', 'set', 'contoso.com', '--inactive');
    try {
      expectError(await invite(['blocked@contoso.com']), 401, 'ERR_INVALID_ACCESS_TOKEN');
      const login = await call(w.app, {
        method: 'POST',
        url: '/auth/login',
        body: { login: 'owner@contoso.com', password: PASSWORD },
      });
      expectError(login, 403, 'ERR_DOMAIN_DISABLED');
    } finally {
      await admin(w, 'domain', 'set', 'contoso.com', '--active');
    }
    expectError(await invite(['blocked@contoso.com']), 401, 'ERR_INVALID_ACCESS_TOKEN');
    const again = await call(w.app, {
      method: 'POST',
      url: '/auth/login',
      body: { login: 'owner@contoso.com', password: PASSWORD },
    });
    expect(again.statusCode).toBe(200);
    owner = { ...owner, token: again.json().token };
  });

  // The person who shared the team link replaces it or turns it off, on every instance at once.
  it('the team link: the same on every visit; "new link" kills the old one, "turn off" every one, on every instance', async () => {
    const sharer = await registered(w, 'sharer@contoso.com');
    const link = (method: 'GET' | 'POST' | 'DELETE', app = w.app) =>
      call(app, { method, url: '/invite/url', token: sharer.token });
    const tokenOf = (url: string) => new URL(url).searchParams.get('inviteToken') ?? '';
    // A second instance on the same database: what one does, the other honours (nothing kept in memory).
    const other = await buildApp(w.t.config, { logger: false });
    await other.ready();
    try {
      const first = (await link('GET')).json();
      expect(first.url).toMatch(/^http:\/\/localhost:8080\/user\/signup\?inviteToken=/);
      const days = (Date.parse(first.expires_at) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
      expect((await link('GET', other)).json()).toEqual(first);
      const old = tokenOf(first.url);
      expect((await validate(old)).json()).toEqual({
        email: '',
        status: 'pending',
        inviter: 'Ada Lovelace',
        team: 'contoso.com',
      });

      const rotated = await link('POST', other);
      expect(rotated.statusCode).toBe(200);
      const fresh = tokenOf(rotated.json().url);
      expect(fresh).not.toBe(old);
      expect((await link('GET')).json().url).toBe(rotated.json().url);
      // The old link is dead at once on both instances; the new one works.
      expectError(await signup('via-old@contoso.com', old), 400, 'ERR_INVITE_LINK_OFF');
      expect((await validate(old)).json()).toEqual({ email: '', status: 'expired' });
      expect((await signup('via-new@contoso.com', fresh)).statusCode).toBe(201);

      const off = await link('DELETE');
      expect(off.json()).toEqual({ url: null, expires_at: null });
      expect((await link('GET', other)).json()).toEqual({ url: null, expires_at: null });
      for (const app of [w.app, other]) {
        const res = await call(app, {
          method: 'POST',
          url: '/v2/user',
          body: { email: 'via-off@contoso.com', invite_token: fresh },
        });
        expectError(res, 400, 'ERR_INVITE_LINK_OFF');
      }
      expect(
        await w.app.db.kysely
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'via-off@contoso.com')
          .executeTakeFirst(),
      ).toBeUndefined();

      // On again: a new link, the turned-off one stays dead.
      const again = (await link('POST')).json();
      expect(tokenOf(again.url)).not.toBe(fresh);
      expect((await validate(tokenOf(again.url))).json()).toEqual({
        email: '',
        status: 'pending',
        inviter: 'Ada Lovelace',
        team: 'contoso.com',
      });
      expectError(await signup('via-off@contoso.com', fresh), 400, 'ERR_INVITE_LINK_OFF');
      // Only a signed-in inviter of a corporate domain manages it.
      expectError(await call(w.app, { method: 'DELETE', url: '/invite/url' }), 401, 'ERR_INVALID_ACCESS_TOKEN');
    } finally {
      await other.close();
    }
  });

  it('GET /invite/url gives a sign-up link limited to the inviter domain', async () => {
    const res = await call(w.app, { method: 'GET', url: '/invite/url', token: owner.token });
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().url);
    expect(`${url.origin}${url.pathname}`).toBe('http://localhost:8080/user/signup');
    const token = url.searchParams.get('inviteToken') ?? '';
    expect((await validate(token)).json()).toEqual({
      email: '',
      status: 'pending',
      inviter: 'Ada Lovelace',
      team: 'contoso.com',
    });
    expectError(await signup('stranger@fabrikam.com', token), 400, 'ERR_INVITE_INVALID');
    expectError(await signup('stranger@gmail.com', token), 400, 'ERR_PERSONAL_EMAIL_NOT_ALLOWED');
    const before = w.smtp.messages.length;
    const joined = await signup('colleague@contoso.com', token);
    expect(joined.statusCode).toBe(201);
    // The team link is reusable and proves nothing about the mailbox: a code is still mailed.
    codeIn(await mailTo(w.smtp, 'colleague@contoso.com', before));
    const row = await w.app.db.kysely
      .selectFrom('users')
      .select('invited_by')
      .where('email', '=', 'colleague@contoso.com')
      .executeTakeFirstOrThrow();
    expect(row.invited_by).toBe(owner.id);
    expectError(await call(w.app, { method: 'GET', url: '/invite/url' }), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('answers ERR_COULD_NOT_INVITE, inviting nobody, when the mail cannot be queued', async () => {
    const db = w.app.db.kysely;
    await db.schema.alterTable('mail_outbox').renameTo('mail_outbox_gone').execute();
    try {
      const res = await invite(['lost1@contoso.com', 'lost2@contoso.com']);
      expectError(res, 500, 'ERR_COULD_NOT_INVITE');
    } finally {
      await db.schema.alterTable('mail_outbox_gone').renameTo('mail_outbox').execute();
    }
    expect(await db.selectFrom('invites').select('email').where('email', 'like', 'lost%').execute()).toEqual([]);
  });
});
