import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_API, API, TRUSTED_BROWSER_TTL_MS, apiPath } from '@suite/contract';
import { currentCode } from '../src/modules/accounts/strategies/totp/secrets.js';
import { domainSettingsRepository } from '../src/modules/accounts/domains/settings.js';
import { PASSWORD, admin, call, expectError, registered, turnOnTotp, useWorld } from './accounts-helpers.js';

/**
 * "Trust this browser for 30 days" at the second step of a sign-in: earned by a completed sign-in with
 * the second factor, bound to the account (not to the browser: a copied cookie works elsewhere until
 * revoked, docs/security.md), voided by what ends the account's sessions, and never counted as a
 * second factor. Runs on SQLite, and on PostgreSQL with scripts/with-pg.sh.
 */
describe('trusted browser', () => {
  const w = useWorld();

  const cookieHeader = (cookie: string | null) => (cookie ? { cookie: `suite_trusted=${cookie}` } : {});
  const login = (email: string, cookie: string | null = null) =>
    call(w.app, {
      method: 'POST',
      url: '/auth/login',
      body: { login: email, password: PASSWORD },
      headers: cookieHeader(cookie),
    });
  /** The trusted-browser cookie a response sets, with its attributes; null when none. */
  const trustSet = (res: LightMyRequestResponse) => res.cookies.find((c) => c.name === 'suite_trusted') ?? null;
  /** A sign-in with the app's code (a code of a step not used yet: each is spent once). */
  async function twoStep(
    email: string,
    secret: string,
    offsetMs: number,
    trust: boolean,
    cookie: string | null = null,
  ) {
    const first = await login(email, cookie);
    expect(first.json()).toMatchObject({ second_step: 'totp' });
    return call(w.app, {
      method: 'POST',
      url: '/auth/login/second-step',
      body: {
        email,
        pending_token: first.json().pending_token,
        code: await currentCode(secret, Date.now() + offsetMs),
        trust_browser: trust,
      },
      headers: cookieHeader(cookie),
    });
  }
  const sessionRow = (userId: string) =>
    w.app.db.kysely
      .selectFrom('sessions')
      .select(['amr', 'aal'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();

  it('is earned by the completed second step when asked, and then skips the step for that account only', async () => {
    const ana = await registered(w, 'ana@contoso.com');
    const { secret } = await turnOnTotp(w, ana.token);
    // Not asked for: nothing set, the next sign-in asks for the code again.
    const plain = await twoStep('ana@contoso.com', secret, 0, false);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(trustSet(plain)).toBeNull();

    const first = await login('ana@contoso.com');
    expect(first.json()).toEqual({ second_step: 'totp', pending_token: expect.any(String), trust_allowed: true });
    const trusted = await twoStep('ana@contoso.com', secret, 30_000, true);
    expect(trusted.statusCode, trusted.body).toBe(200);
    const cookie = trustSet(trusted);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth/login' });
    expect(cookie?.maxAge).toBe(TRUSTED_BROWSER_TTL_MS / 1000);
    // Nothing in it names the account.
    expect(cookie?.value).not.toContain(ana.id);
    expect(cookie?.value).not.toContain('ana');

    const skipped = await login('ana@contoso.com', cookie!.value);
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(typeof skipped.json().token).toBe('string');
    // What was proven: the password only, at AAL1 — not a fresh second factor.
    expect(await sessionRow(ana.id)).toMatchObject({ amr: 'password', aal: 1 });
    const factorChange = await call(w.app, {
      method: 'POST',
      url: '/v2/user/passkeys/options',
      token: skipped.json().token,
    });
    expectError(factorChange, 403, 'ERR_PROOF_REQUIRED');
    // The wrong password still fails: the browser replaces the second factor, never the first.
    const wrong = await call(w.app, {
      method: 'POST',
      url: '/auth/login',
      body: { login: 'ana@contoso.com', password: 'not-the-password' },
      headers: cookieHeader(cookie!.value),
    });
    expectError(wrong, 401, 'ERR_INVALID_CREDENTIALS');

    // Another account on the same browser: the entry is not theirs.
    const bruno = await registered(w, 'bruno@contoso.com');
    await turnOnTotp(w, bruno.token);
    expect((await login('bruno@contoso.com', cookie!.value)).json()).toMatchObject({ second_step: 'totp' });
    // A forged or altered entry counts for nothing.
    const altered = cookie!.value.replace(/^\d/, (d) => String((Number(d) + 1) % 10));
    expect((await login('ana@contoso.com', altered)).json()).toMatchObject({ second_step: 'totp' });
  });

  it('ends with "sign out of all devices"', async () => {
    const eva = await registered(w, 'eva@contoso.com');
    const { secret } = await turnOnTotp(w, eva.token);
    const earned = await twoStep('eva@contoso.com', secret, 0, true);
    const cookie = trustSet(earned)!.value;
    expect(typeof (await login('eva@contoso.com', cookie)).json().token).toBe('string');
    const out = await call(w.app, { method: 'POST', url: '/auth/logout-all', token: earned.json().token });
    expect(out.statusCode, out.body).toBeLessThan(300);
    expect((await login('eva@contoso.com', cookie)).json()).toMatchObject({ second_step: 'totp' });
  });

  it('ends with a factor change (new recovery codes)', async () => {
    const fred = await registered(w, 'fred@contoso.com');
    const { secret } = await turnOnTotp(w, fred.token);
    const earned = await twoStep('fred@contoso.com', secret, 0, true);
    const cookie = trustSet(earned)!.value;
    expect(typeof (await login('fred@contoso.com', cookie)).json().token).toBe('string');
    const codes = await call(w.app, {
      method: 'POST',
      url: '/v2/user/recovery-codes',
      token: earned.json().token,
      body: { code: await currentCode(secret, Date.now() + 30_000) },
    });
    expect(codes.statusCode, codes.body).toBe(200);
    expect((await login('fred@contoso.com', cookie)).json()).toMatchObject({ second_step: 'totp' });
  });

  it("ends with an operator's deactivation: reactivated, the account asks for the code again", async () => {
    const gil = await registered(w, 'gil@contoso.com');
    const { secret } = await turnOnTotp(w, gil.token);
    const cookie = trustSet(await twoStep('gil@contoso.com', secret, 0, true))!.value;
    expect(typeof (await login('gil@contoso.com', cookie)).json().token).toBe('string');
    await admin(w, 'users', 'deactivate', 'gil@contoso.com');
    expectError(await login('gil@contoso.com', cookie), 403, 'ERR_USER_NOT_ACTIVE');
    await admin(w, 'users', 'activate', 'gil@contoso.com');
    expect((await login('gil@contoso.com', cookie)).json()).toMatchObject({ second_step: 'totp' });
  });

  it('is refused where the domain policy forbids it: not offered, not earned, not honoured', async () => {
    const ivo = await registered(w, 'ivo@fabrikam.com');
    const { secret } = await turnOnTotp(w, ivo.token);
    const cookie = trustSet(await twoStep('ivo@fabrikam.com', secret, 0, true))!.value;
    await domainSettingsRepository(w.app.db.kysely).set('fabrikam.com', { trustBrowsers: false });
    const first = await login('ivo@fabrikam.com', cookie);
    expect(first.json()).toMatchObject({ second_step: 'totp', trust_allowed: false });
    const asked = await twoStep('ivo@fabrikam.com', secret, 30_000, true, cookie);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(trustSet(asked)).toBeNull();
  });

  it("is switched by the domain's administrator (fresh proof, audited) and by the operator's CLI", async () => {
    const boss = await registered(w, 'boss@northwind.com');
    await admin(w, 'domain', 'admin', 'add', 'northwind.com', 'boss@northwind.com');
    const jo = await registered(w, 'jo@northwind.com');
    const { secret } = await turnOnTotp(w, jo.token);
    const url = apiPath(ADMIN_API.adminSecurityPolicy, { domain: 'northwind.com' });
    const policy = () => call(w.app, { method: 'GET', url, token: boss.token });
    const setPolicy = (body: unknown) => call(w.app, { method: 'PUT', url, token: boss.token, body });
    const trail = async () =>
      (
        await call(w.app, {
          method: 'GET',
          url: `${apiPath(ADMIN_API.adminAudit, { domain: 'northwind.com' })}?kind=policy_changed`,
          token: boss.token,
        })
      ).json().events as { action: string; actor_email: string | null; details: Record<string, unknown> }[];
    expect((await policy()).json()).toMatchObject({ trust_browsers: true });
    expectError(await setPolicy({ trust_browsers: 'no' }), 400, 'ERR_VALIDATION');

    // An administrator whose last proof is old is asked again, and nothing changes.
    await w.app.db.kysely
      .updateTable('sessions')
      .set({ proved_at: Date.now() - 60 * 60_000 })
      .where('user_id', '=', boss.id)
      .execute();
    expectError(await setPolicy({ trust_browsers: false }), 403, 'ERR_PROOF_REQUIRED');
    expect((await policy()).json()).toMatchObject({ trust_browsers: true });
    await w.app.db.kysely
      .updateTable('sessions')
      .set({ proved_at: Date.now() })
      .where('user_id', '=', boss.id)
      .execute();

    const off = await setPolicy({ trust_browsers: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ trust_browsers: false, require_two_step: false });
    expect((await login('jo@northwind.com')).json()).toMatchObject({ second_step: 'totp', trust_allowed: false });
    const refused = await twoStep('jo@northwind.com', secret, 0, true);
    expect(refused.statusCode, refused.body).toBe(200);
    expect(trustSet(refused)).toBeNull();
    expect(await trail()).toEqual([
      expect.objectContaining({
        action: 'trust_browsers',
        actor_email: 'boss@northwind.com',
        details: { from: true, to: false },
      }),
    ]);
    // Setting the same value again is no change: no second event.
    expect((await setPolicy({ trust_browsers: false })).statusCode).toBe(200);
    expect(await trail()).toHaveLength(1);

    // The operator turns it back on; the trail says so, without a person as the actor.
    expect(await admin(w, 'domain', 'set', 'northwind.com', '--trust-browsers')).toContain('trusted browsers allowed');
    expect((await policy()).json()).toMatchObject({ trust_browsers: true });
    expect((await login('jo@northwind.com')).json()).toMatchObject({ second_step: 'totp', trust_allowed: true });
    const earned = await twoStep('jo@northwind.com', secret, 30_000, true);
    expect(trustSet(earned)?.value).toEqual(expect.any(String));
    expect((await trail())[0]).toMatchObject({
      action: 'trust_browsers',
      actor_email: null,
      details: { from: false, to: true },
    });
    expect(await admin(w, 'domain', 'set', 'northwind.com', '--no-trust-browsers')).toContain('no trusted browsers');
  });

  it("a two-step administrator's trusted sign-in asks for the app before a console action, then acts", async () => {
    await registered(w, 'lou@wingtip.com');
    await admin(w, 'domain', 'admin', 'add', 'wingtip.com', 'lou@wingtip.com');
    const lou = await login('lou@wingtip.com');
    const { secret } = await turnOnTotp(w, lou.json().token as string);
    const cookie = trustSet(await twoStep('lou@wingtip.com', secret, 0, true))!.value;
    const session = (await login('lou@wingtip.com', cookie)).json().token as string;
    const moe = await registered(w, 'moe@wingtip.com');
    await turnOnTotp(w, moe.token);
    const reset = () =>
      call(w.app, {
        method: 'POST',
        url: apiPath(ADMIN_API.adminPersonResetTwoStep, { id: moe.id }),
        token: session,
        body: {},
      });
    expectError(await reset(), 403, 'ERR_PROOF_REQUIRED');
    // The console's fresh-proof dialog offers what the Security panel's state names: the app, not the password.
    const state = await call(w.app, { method: 'GET', url: API.security, token: session });
    expect(state.json().reauth).toEqual(['totp']);
    const proved = await call(w.app, {
      method: 'POST',
      url: API.reauth,
      token: session,
      body: { method: 'totp', code: await currentCode(secret, Date.now() + 30_000) },
    });
    expect(proved.statusCode, proved.body).toBe(200);
    expect((await reset()).statusCode).toBe(200);
    expect((await login('moe@wingtip.com')).json().token).toBeDefined();
  });
});
