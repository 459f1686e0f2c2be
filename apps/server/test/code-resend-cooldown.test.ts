import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
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
  const confirm = (email: string, token: string) =>
    call(w.app, { method: 'PUT', url: '/v2/user/confirm', body: { token, email } });
  const forgot = (email: string) => call(w.app, { method: 'POST', url: '/v2/user/forgot-password', body: { email } });
  /** The mails delivered to `email` once the outbox has sent all that the requests before queued. */
  const mailsTo = async (email: string) => {
    await outboxDrained(w);
    return w.smtp.messages.filter((m) => m.to.includes(email)).length;
  };
  /** The last code of (email, purpose) as if mailed more than a minute ago (instead of waiting a minute). */
  const age = (email: string, purpose: 'confirm' | 'recovery') =>
    w.app.db.kysely
      .updateTable('codes')
      .set({ created_at: Date.now() - (CODE_MAIL_SPACING_S + 1) * 1000 })
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .execute();
  /** Refused as sent recently, saying when to try again: within the minute. */
  const expectCooldown = (res: LightMyRequestResponse) => {
    expectError(res, 429, 'ERR_CODE_SENT_RECENTLY');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(CODE_MAIL_SPACING_S);
  };

  it('refuses a resend right after sign-up: no second mail, the first code still confirms', async () => {
    const code = await signup(w, 'cool1@contoso.com');
    expectCooldown(await resend('cool1@contoso.com'));
    expect(await mailsTo('cool1@contoso.com')).toBe(1);
    expect((await confirm('cool1@contoso.com', code)).statusCode).toBe(200);
  });

  it('a double click after the minute mails one code: one answer 200, the other refused', async () => {
    await signup(w, 'cool2@contoso.com');
    await age('cool2@contoso.com', 'confirm');
    const before = w.smtp.messages.length;
    const answers = await Promise.all([resend('cool2@contoso.com'), resend('cool2@contoso.com')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429]);
    expectCooldown(answers.find((a) => a.statusCode === 429)!);
    const fresh = codeIn(await mailTo(w.smtp, 'cool2@contoso.com', before));
    expect(await mailsTo('cool2@contoso.com')).toBe(2);
    expect((await confirm('cool2@contoso.com', fresh)).statusCode).toBe(200);
  });

  it('answers an address without an account alike: 200, then refused inside the minute, never mailed', async () => {
    expect((await resend('nobody-cool@contoso.com')).statusCode).toBe(200);
    expectCooldown(await resend('nobody-cool@contoso.com'));
    expect(await mailsTo('nobody-cool@contoso.com')).toBe(0);
  });

  it('a sign-up right after a resend for the then unknown address still mails its code', async () => {
    expect((await resend('late-cool@contoso.com')).statusCode).toBe(200);
    const code = await signup(w, 'late-cool@contoso.com');
    expect(code).toMatch(/^\d{6}$/);
  });

  it('recovery: a second ask inside the minute is answered as always and mails nothing new', async () => {
    await registered(w, 'cool3@contoso.com');
    const before = w.smtp.messages.length;
    expect((await forgot('cool3@contoso.com')).statusCode).toBe(200);
    const code = codeIn(await mailTo(w.smtp, 'cool3@contoso.com', before));
    // (The recovery form's own request, among a stranger's many, must not be refused: see adversarial.test.ts.)
    expect((await forgot('cool3@contoso.com')).statusCode).toBe(200);
    // the sign-up code and one recovery code
    expect(await mailsTo('cool3@contoso.com')).toBe(2);
    const used = await call(w.app, {
      method: 'PUT',
      url: '/v2/user/forgot-password/confirm',
      body: { email: 'cool3@contoso.com', token: code },
    });
    expect(used.statusCode).toBe(200);
  });
});
