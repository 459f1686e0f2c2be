import { describe, expect, it } from 'vitest';
import { CODE_MAIL_SPACING_S } from '@suite/contract';
import { call, expectError, mailTo, outboxDrained, registered, signup, useWorld } from './accounts-helpers.js';
import { codeIn } from './smtp.js';

/**
 * "Send again" inside the minute after a code was mailed: refused with ERR_CODE_SENT_RECENTLY and
 * Retry-After, no second mail, the first code still good; alike for addresses with and without an
 * account. RATE_LIMIT_SCALE 1: the spacing is on (the other suites lift it).
 */
describe('code resend cooldown', () => {
  const w = useWorld({ RATE_LIMIT_SCALE: '1' });

  const resend = (email: string) =>
    call(w.app, { method: 'PUT', url: '/v2/user/resend_confirmation', body: { email } });
  const forgot = (email: string) => call(w.app, { method: 'POST', url: '/v2/user/forgot-password', body: { email } });
  const mailsTo = (email: string) => w.smtp.messages.filter((m) => m.to.includes(email)).length;
  /** The last code of (email, purpose) as if mailed more than a minute ago (instead of waiting a minute). */
  const age = (email: string, purpose: 'confirm' | 'recovery') =>
    w.app.db.kysely
      .updateTable('codes')
      .set({ created_at: Date.now() - (CODE_MAIL_SPACING_S + 1) * 1000 })
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .execute();
  const retryAfter = (res: { headers: Record<string, unknown> }) => Number(res.headers['retry-after']);

  it('refuses a resend right after sign-up: no second mail, the first code still confirms', async () => {
    const code = await signup(w, 'cool1@contoso.com');
    const res = await resend('cool1@contoso.com');
    expectError(res, 429, 'ERR_CODE_SENT_RECENTLY');
    expect(retryAfter(res)).toBeGreaterThan(0);
    expect(retryAfter(res)).toBeLessThanOrEqual(CODE_MAIL_SPACING_S);
    await outboxDrained(w);
    expect(mailsTo('cool1@contoso.com')).toBe(1);
    const confirm = await call(w.app, {
      method: 'PUT',
      url: '/v2/user/confirm',
      body: { token: code, email: 'cool1@contoso.com' },
    });
    expect(confirm.statusCode).toBe(200);
  });

  it('a double click after the minute mails one code: one answer 200, the other refused', async () => {
    await signup(w, 'cool2@contoso.com');
    await age('cool2@contoso.com', 'confirm');
    const before = w.smtp.messages.length;
    const answers = await Promise.all([resend('cool2@contoso.com'), resend('cool2@contoso.com')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429]);
    expectError(
      answers.find((a) => a.statusCode === 429)!,
      429,
      'ERR_CODE_SENT_RECENTLY',
    );
    const fresh = codeIn(await mailTo(w.smtp, 'cool2@contoso.com', before));
    await outboxDrained(w);
    expect(mailsTo('cool2@contoso.com')).toBe(2);
    const confirm = await call(w.app, {
      method: 'PUT',
      url: '/v2/user/confirm',
      body: { token: fresh, email: 'cool2@contoso.com' },
    });
    expect(confirm.statusCode).toBe(200);
  });

  it('answers an address without an account alike: 200, then refused inside the minute, never mailed', async () => {
    expect((await resend('nobody-cool@contoso.com')).statusCode).toBe(200);
    const again = await resend('nobody-cool@contoso.com');
    expectError(again, 429, 'ERR_CODE_SENT_RECENTLY');
    expect(retryAfter(again)).toBeGreaterThan(0);
    await outboxDrained(w);
    expect(mailsTo('nobody-cool@contoso.com')).toBe(0);
  });

  it('a sign-up right after a resend for the then unknown address still mails its code', async () => {
    expect((await resend('late-cool@contoso.com')).statusCode).toBe(200);
    const code = await signup(w, 'late-cool@contoso.com');
    expect(code).toMatch(/^\d{6}$/);
  });

  it('recovery: a second ask inside the minute is answered as always and mails nothing new', async () => {
    await registered(w, 'cool3@contoso.com');
    const code = await (async () => {
      const before = w.smtp.messages.length;
      expect((await forgot('cool3@contoso.com')).statusCode).toBe(200);
      return codeIn(await mailTo(w.smtp, 'cool3@contoso.com', before));
    })();
    // (The recovery form's own request, among a stranger's many, must not be refused: see adversarial.test.ts.)
    expect((await forgot('cool3@contoso.com')).statusCode).toBe(200);
    await outboxDrained(w);
    // the sign-up code and one recovery code
    expect(mailsTo('cool3@contoso.com')).toBe(2);
    const used = await call(w.app, {
      method: 'PUT',
      url: '/v2/user/forgot-password/confirm',
      body: { email: 'cool3@contoso.com', token: code },
    });
    expect(used.statusCode).toBe(200);
  });
});
