import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@suite/contract';
import {
  admin,
  call,
  confirmed,
  expectError,
  mailTo,
  registered,
  signup,
  startWorld,
  type AccountsWorld,
} from './accounts-helpers.js';
import { codeIn } from './smtp.js';

describe('POST /v2/user (sign-up)', () => {
  let w: AccountsWorld;
  beforeAll(async () => {
    w = await startWorld();
  });
  afterAll(async () => w.close());

  const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(w.app, { method: 'POST', url: '/v2/user', body, headers });
  const userCount = async () => (await w.app.db.kysely.selectFrom('users').select('id').execute()).length;

  it('answers 201 and mails a 6-digit code, stored only as a hash', async () => {
    const before = w.smtp.messages.length;
    const res = await post({ email: 'first@contoso.com' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ email: 'first@contoso.com', message: expect.any(String) });
    const code = codeIn(await mailTo(w.smtp, 'first@contoso.com', before));
    expect(code).toMatch(/^\d{6}$/);
    const row = await w.app.db.kysely
      .selectFrom('codes')
      .selectAll()
      .where('email', '=', 'first@contoso.com')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('normalises case, spaces and a trailing dot of the address', async () => {
    const res = await post({ email: '  Mixed.Case@Contoso.COM. ' });
    expect(res.statusCode).toBe(201);
    expect(res.json().email).toBe('mixed.case@contoso.com');
  });

  it.each(['', 'not-an-email', 'a@b.c', 'two@@contoso.com', 'x@contoso'])(
    'rejects %j with ERR_INVALID_EMAIL',
    async (email) => {
      const before = await userCount();
      expectError(await post({ email }), 400, 'ERR_INVALID_EMAIL');
      expect((await post({ email })).json().message).toBe('No valid email address was provided.');
      expect(await userCount()).toBe(before);
    },
  );

  it.each(['someone@gmail.com', 'SOMEONE@GMAIL.COM.', 'x@mail.yahoo.co.uk', 'y@uol.com.br'])(
    'refuses the personal address %j without an invite',
    async (email) => {
      const res = await post({ email });
      expectError(res, 400, 'ERR_PERSONAL_EMAIL_NOT_ALLOWED');
      expect(res.json().message).toBe('No personal email allowed address without invite!');
    },
  );

  it('refuses an address already confirmed and registered', async () => {
    await registered(w, 'taken@contoso.com');
    const res = await post({ email: 'taken@contoso.com' });
    expectError(res, 400, 'ERR_EMAIL_IN_USE');
    expect(res.json().message).toBe('Email address already in use!');
  });

  it('answers 409 for an unconfirmed address and mails a fresh code that replaces the old one', async () => {
    const old = await signup(w, 'pending@contoso.com');
    const before = w.smtp.messages.length;
    const res = await post({ email: 'pending@contoso.com' });
    expectError(res, 409, 'ERR_USER_NOT_CONFIRMED_SIGNUP');
    const fresh = codeIn(await mailTo(w.smtp, 'pending@contoso.com', before));
    if (fresh !== old) {
      const stale = await call(w.app, {
        method: 'PUT',
        url: '/v2/user/confirm',
        body: { token: old, email: 'pending@contoso.com' },
      });
      expectError(stale, 400, 'INVALID_TOKEN');
    }
    const ok = await call(w.app, {
      method: 'PUT',
      url: '/v2/user/confirm',
      body: { token: fresh, email: 'pending@contoso.com' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('applies the domain rules set with the admin CLI', async () => {
    await admin(w, 'domain', 'set', 'closed.com', '--inactive');
    expectError(await post({ email: 'a@closed.com' }), 400, 'ERR_DOMAIN_INACTIVE');
    await admin(w, 'domain', 'set', 'closed.com', '--active');
    expect((await post({ email: 'a@closed.com' })).statusCode).toBe(201);

    await admin(w, 'domain', 'set', 'hosted.com', '--mail-server-hosted');
    expectError(await post({ email: 'a@hosted.com' }), 400, 'ERR_ZIMBRA_DOMAIN_SIGNUP_NOT_ALLOWED');

    await admin(w, 'domain', 'set', 'sso.com', '--sso-only');
    // 400, so that the sign-up screen shows the matching text (spec §8: only 400/401 do).
    const sso = await post({ email: 'a@sso.com' });
    expectError(sso, 400, 'ERR_SSO_LOGIN_ONLY');
    expect(sso.json().message).toBe(ERRORS.ERR_SSO_LOGIN_ONLY.message);
  });

  it('stops at the free-plan limit of confirmed accounts', async () => {
    await admin(w, 'domain', 'set', 'small.com', '--free-limit', '1');
    await confirmed(w, 'one@small.com');
    const res = await post({ email: 'two@small.com' });
    expectError(res, 400, 'ERR_FREE_ACCOUNT_LIMIT');
    expect(res.json().message).toBe('Free account limit reached.');
    await admin(w, 'domain', 'set', 'small.com', '--no-free-limit');
    expect((await post({ email: 'two@small.com' })).statusCode).toBe(201);
  });

  it('gives the last free seat to one of several parallel confirmations', async () => {
    await admin(w, 'domain', 'set', 'burst.com', '--free-limit', '2');
    await confirmed(w, 'first@burst.com');
    const waiting = ['a', 'b', 'c', 'd'].map((l) => `${l}@burst.com`);
    const codes = await Promise.all(waiting.map((email) => signup(w, email)));
    const results = await Promise.all(
      waiting.map((email, i) =>
        call(w.app, { method: 'PUT', url: '/v2/user/confirm', body: { token: codes[i], email } }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 200)) expectError(r, 400, 'ERR_FREE_ACCOUNT_LIMIT');
    const rows = await w.app.db.kysely
      .selectFrom('users')
      .select('email')
      .where('domain', '=', 'burst.com')
      .where('confirmed_at', 'is not', null)
      .execute();
    expect(rows).toHaveLength(2);
  });

  it('creates one account when the same address signs up several times at once', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => post({ email: 'race@contoso.com' })));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const rows = await w.app.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'race@contoso.com')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('writes the mail in the language sent by the UI, else Accept-Language, else English', async () => {
    const subjects: string[] = [];
    for (const [email, body, headers] of [
      ['l1@contoso.com', { language: 'it' }, { 'accept-language': 'es' }],
      ['l2@contoso.com', {}, { 'accept-language': 'fr-FR, es;q=0.8, en;q=0.5' }],
      ['l3@contoso.com', {}, { 'accept-language': 'de' }],
      ['l4@contoso.com', { language: 'hi' }, {}],
      ['l5@contoso.com', {}, { 'accept-language': 'pt-BR' }],
    ] as const) {
      const before = w.smtp.messages.length;
      expect((await post({ email, ...body }, headers)).statusCode).toBe(201);
      subjects.push((await mailTo(w.smtp, email, before)).subject);
    }
    expect(subjects[0]).toContain('codice di conferma');
    expect(subjects[1]).toContain('código de confirmación');
    expect(subjects[2]).toContain('confirmation code');
    expect(subjects[3]).toContain('पुष्टि कोड');
    expect(subjects[4]).toContain('código de confirmação');
  });

  it.each(['user@[192.0.2.1]', 'User@[10.0.0.1].'])(
    'refuses the address literal %j like a personal address: it names no organisation',
    async (email) => {
      const before = await userCount();
      expectError(await post({ email }), 400, 'ERR_PERSONAL_EMAIL_NOT_ALLOWED');
      expect(await userCount()).toBe(before);
    },
  );

  it('rejects a body that is not the declared shape without storing anything', async () => {
    const before = await userCount();
    expectError(await post({ email: 42 }), 400, 'ERR_VALIDATION');
    expectError(await post({ email: 'z@contoso.com', language: 'fr' }), 400, 'ERR_VALIDATION');
    expect(await userCount()).toBe(before);
  });
});

describe('POST /v2/user with PUBLIC_SIGNUP=false', () => {
  it('accepts only invited sign-ups', async () => {
    const w = await startWorld({ PUBLIC_SIGNUP: 'false' });
    try {
      expectError(
        await call(w.app, { method: 'POST', url: '/v2/user', body: { email: 'open@contoso.com' } }),
        403,
        'ERR_FORBIDDEN',
      );
      const out = await admin(w, 'invite', 'asked@contoso.com');
      const token = new URL(out.slice(out.indexOf('http'))).searchParams.get('inviteToken') ?? '';
      const res = await call(w.app, {
        method: 'POST',
        url: '/v2/user',
        body: { email: 'asked@contoso.com', invite_token: token },
      });
      expect(res.statusCode).toBe(201);
    } finally {
      await w.close();
    }
  });
});
