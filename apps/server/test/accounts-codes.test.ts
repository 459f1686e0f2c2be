import { describe, expect, it } from 'vitest';
import { call, expectError, mailTo, outboxDrained, registered, signup, useWorld } from './accounts-helpers.js';
import { SEND_BUDGET, codesRepository } from '../src/modules/accounts/codes/repository.js';
import { codeIn } from './smtp.js';

/** A code that is surely wrong: differs from the real one in the last digit. */
const wrong = (code: string) => code.slice(0, 5) + String((Number(code[5]) + 1) % 10);

describe('e-mail codes: PUT /v2/user/confirm and PUT /v2/user/resend_confirmation', () => {
  const w = useWorld();

  const confirm = (email: string, token: string) =>
    call(w.app, { method: 'PUT', url: '/v2/user/confirm', body: { token, email } });
  const resend = (email: string) =>
    call(w.app, { method: 'PUT', url: '/v2/user/resend_confirmation', body: { email } });

  it('confirms with the mailed code and answers the token and the profiles', async () => {
    const code = await signup(w, 'c1@contoso.com');
    const res = await confirm('c1@contoso.com', code);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      token: expect.any(String),
      profiles: [expect.objectContaining({ type: 'PROFESSIONAL' })],
    });
  });

  it('answers INVALID_TOKEN, then kills the code at the third wrong try until a new one is requested', async () => {
    const code = await signup(w, 'c2@contoso.com');
    const first = await confirm('c2@contoso.com', wrong(code));
    expectError(first, 400, 'INVALID_TOKEN');
    expect(first.json().message).toBe('Invalid token');
    expectError(await confirm('c2@contoso.com', wrong(code)), 400, 'INVALID_TOKEN');
    const third = await confirm('c2@contoso.com', wrong(code));
    expectError(third, 400, 'ERR_MAX_TRIES_EXCEEDED');
    expect(third.json().message).toBe('Max number of tries exceeded.');
    expectError(await confirm('c2@contoso.com', code), 400, 'ERR_MAX_TRIES_EXCEEDED');

    const before = w.smtp.messages.length;
    expect((await resend('c2@contoso.com')).statusCode).toBe(200);
    const fresh = codeIn(await mailTo(w.smtp, 'c2@contoso.com', before));
    expect((await confirm('c2@contoso.com', fresh)).statusCode).toBe(200);
  });

  it('invalidates the previous code on resend', async () => {
    const old = await signup(w, 'c3@contoso.com');
    const before = w.smtp.messages.length;
    expect((await resend('c3@contoso.com')).statusCode).toBe(200);
    const fresh = codeIn(await mailTo(w.smtp, 'c3@contoso.com', before));
    if (old !== fresh) expectError(await confirm('c3@contoso.com', old), 400, 'INVALID_TOKEN');
    expect((await confirm('c3@contoso.com', fresh)).statusCode).toBe(200);
  });

  it('says in the resent mail that the code replaces the earlier one, when and from which browser it was asked', async () => {
    const start = w.smtp.messages.length;
    await signup(w, 'again@contoso.com');
    const first = await mailTo(w.smtp, 'again@contoso.com', start);
    expect(first.subject).toBe('Your Suite confirmation code');
    expect(first.text).not.toContain('replaces');

    const asked = Date.now();
    const before = w.smtp.messages.length;
    const userAgent = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0 <b>Helpdesk</b>';
    const res = await call(w.app, {
      method: 'PUT',
      url: '/v2/user/resend_confirmation',
      body: { email: 'again@contoso.com' },
      headers: { 'user-agent': userAgent },
    });
    expect(res.statusCode).toBe(200);
    const mail = await mailTo(w.smtp, 'again@contoso.com', before);
    expect(mail.subject).toBe('Your new Suite confirmation code');
    expect(mail.text).toContain('This code replaces the one we sent you earlier, which no longer works.');
    // The request's own time (UTC, to the minute) and browser, never the header's text.
    const utc = (t: number) =>
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(t);
    const when = /Asked for on (.+) UTC from Firefox on Linux\./.exec(mail.text)?.[1];
    expect([utc(asked), utc(Date.now())]).toContain(when);
    expect(mail.text).toContain('Never share the code: nobody from Suite will ask you for it.');
    expect(mail.html + mail.text).not.toContain('Helpdesk');
    expect((await confirm('again@contoso.com', codeIn(mail))).statusCode).toBe(200);
  });

  it('answers an expired code by mailing a new one', async () => {
    const old = await signup(w, 'c4@contoso.com');
    await w.app.db.kysely
      .updateTable('codes')
      .set({ expires_at: Date.now() - 1 })
      .where('email', '=', 'c4@contoso.com')
      .execute();
    const before = w.smtp.messages.length;
    const res = await confirm('c4@contoso.com', old);
    expectError(res, 400, 'ERR_TOKEN_EXPIRED');
    expect(res.json().message).toBe('Expired token. A new one has sent.');
    const mail = await mailTo(w.smtp, 'c4@contoso.com', before);
    expect(mail.subject).toBe('Your new Suite confirmation code');
    const fresh = codeIn(mail);
    expect((await confirm('c4@contoso.com', fresh)).statusCode).toBe(200);
  });

  it('sends one new code when an expired code is submitted many times at once', async () => {
    const old = await signup(w, 'c5@contoso.com');
    await w.app.db.kysely
      .updateTable('codes')
      .set({ expires_at: Date.now() - 1 })
      .where('email', '=', 'c5@contoso.com')
      .execute();
    const before = w.smtp.messages.length;
    const results = await Promise.all(Array.from({ length: 6 }, () => confirm('c5@contoso.com', old)));
    const codes = results.map((r) => r.json().error_code);
    expect(codes).toContain('ERR_TOKEN_EXPIRED');
    // Submissions handled after the new code exists are plain wrong guesses against it.
    expect(codes.every((c) => ['ERR_TOKEN_EXPIRED', 'INVALID_TOKEN', 'ERR_MAX_TRIES_EXCEEDED'].includes(c))).toBe(true);
    await mailTo(w.smtp, 'c5@contoso.com', before);
    const row = await w.app.db.kysely
      .selectFrom('codes')
      .select('sends')
      .where('email', '=', 'c5@contoso.com')
      .executeTakeFirstOrThrow();
    expect(row.sends).toBe(2);
  });

  it('tells an already confirmed (and registered) user so, on confirm and on resend', async () => {
    await registered(w, 'c6@contoso.com');
    const res = await confirm('c6@contoso.com', '123456');
    expectError(res, 400, 'ERR_USER_ALREADY_CONFIRMED');
    expect(res.json().message).toBe('The user is already confirmed');
    expectError(await resend('c6@contoso.com'), 400, 'ERR_USER_ALREADY_CONFIRMED');
  });

  it('answers INVALID_TOKEN for an address that never signed up, and resend sends nothing to it', async () => {
    expectError(await confirm('nobody@contoso.com', '123456'), 400, 'INVALID_TOKEN');
    const before = w.smtp.messages.length;
    expect((await resend('nobody@contoso.com')).statusCode).toBe(200);
    await outboxDrained(w);
    expect(w.smtp.messages.slice(before).some((m) => m.to.includes('nobody@contoso.com'))).toBe(false);
  });

  it('rejects a code that is not 6 digits and a malformed resend address', async () => {
    for (const token of ['12345', '1234567', '12a456', ''])
      expectError(await confirm('c1@contoso.com', token), 400, 'ERR_VALIDATION');
    expectError(await resend('not-an-email'), 400, 'ERR_INVALID_EMAIL');
  });

  it('counts at most 3 of 50 parallel wrong guesses', async () => {
    const code = await signup(w, 'c7@contoso.com');
    const results = await Promise.all(Array.from({ length: 50 }, () => confirm('c7@contoso.com', wrong(code))));
    const codes = results.map((r) => r.json().error_code);
    expect(codes.filter((c) => c === 'INVALID_TOKEN').length).toBeLessThanOrEqual(2);
    expect(codes.every((c) => c === 'INVALID_TOKEN' || c === 'ERR_MAX_TRIES_EXCEEDED')).toBe(true);
    const row = await w.app.db.kysely
      .selectFrom('codes')
      .select('attempts')
      .where('email', '=', 'c7@contoso.com')
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(3);
    expectError(await confirm('c7@contoso.com', code), 400, 'ERR_MAX_TRIES_EXCEEDED');
  });

  it('lets exactly one of 8 parallel correct submissions succeed', async () => {
    const code = await signup(w, 'c8@contoso.com');
    const results = await Promise.all(Array.from({ length: 8 }, () => confirm('c8@contoso.com', code)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(400);
      expect(['INVALID_TOKEN', 'ERR_USER_ALREADY_CONFIRMED']).toContain(r.json().error_code);
    }
  });

  it('purges codes that expired more than a day ago, and only those', async () => {
    await signup(w, 'old@contoso.com');
    await signup(w, 'live@contoso.com');
    const db = w.app.db.kysely;
    await db
      .updateTable('codes')
      .set({ expires_at: Date.now() - 2 * 86_400_000 })
      .where('email', '=', 'old@contoso.com')
      .execute();
    expect(await codesRepository(db).purgeExpired()).toBeGreaterThanOrEqual(1);
    const left = await db
      .selectFrom('codes')
      .select('email')
      .where('email', 'in', ['old@contoso.com', 'live@contoso.com'])
      .execute();
    expect(left.map((r) => r.email)).toEqual(['live@contoso.com']);
  });

  it('never mails more codes than the budget, even for parallel requests', async () => {
    // RATE_LIMIT_SCALE 2: the budget doubled, the one-a-minute spacing lifted (tested below).
    const keys = { hmac: w.t.config.keys.code, scale: 2, ttlMs: 600_000 };
    const results = await Promise.allSettled(
      Array.from({ length: 2 * SEND_BUDGET + 7 }, () =>
        codesRepository(w.app.db.kysely).issue(keys, 'budget@contoso.com', 'confirm'),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2 * SEND_BUDGET);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(
      refused.every((r) => r.reason.code === 'ERR_RATE_LIMITED' && Number(r.reason.headers['retry-after']) > 0),
    ).toBe(true);
  });

  it('issues one code a minute per address, even for parallel requests; a spent code does not wait', async () => {
    const keys = { hmac: w.t.config.keys.code, scale: 1, ttlMs: 600_000 };
    const codes = codesRepository(w.app.db.kysely);
    const issued = await Promise.all(
      Array.from({ length: 8 }, () => codes.issue(keys, 'spaced@contoso.com', 'confirm')),
    );
    const fresh = issued.filter((c): c is string => typeof c === 'string');
    expect(fresh).toHaveLength(1);
    // the one code issued stays the one to use
    expect(await codes.check(keys, 'spaced@contoso.com', 'confirm', fresh[0]!)).toEqual({ kind: 'ok' });
    // used: the next one is not spaced
    expect(typeof (await codes.issue(keys, 'spaced@contoso.com', 'confirm'))).toBe('string');
    expect(await codes.issue(keys, 'spaced@contoso.com', 'confirm')).toBeNull();
  });
});
