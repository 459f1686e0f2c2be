/**
 * The adversarial suite, fourth review: this round's sign-in changes ("Trust this browser for 30
 * days", identifier-first SSO discovery, the "Send again" cooldown, the 404 page, the console's
 * sections) attacked by someone who did not write them: as an outsider, as a person of another
 * domain and as someone holding a copied or forged cookie. One `it` per attack, named after it. An
 * attack the product stops asserts the refusal (it guards the behaviour); an attack that succeeds
 * asserts the secure behaviour and fails until it is fixed. Real server (app.inject), real database
 * (SQLite, and PostgreSQL under scripts/with-pg.sh), real SMTP on loopback, real authenticator-app
 * codes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_API, CODE_MAIL_SPACING_S, TRUSTED_BROWSER_TTL_MS, apiPath } from '@suite/contract';
import { buildApp } from '../src/app.js';
import { deriveKeys, signValue } from '../src/keys.js';
import { browserTrusted } from '../src/modules/accounts/identity/trusted-browser.js';
import { currentCode } from '../src/modules/accounts/strategies/totp/secrets.js';
import { domainSettingsRepository } from '../src/modules/accounts/domains/settings.js';
import {
  type AccountsWorld,
  PASSWORD,
  admin,
  call,
  changePassword,
  expectError,
  mailTo,
  outboxDrained,
  registered,
  signup,
  startWorld,
  turnOnTotp,
  useWorld,
} from './accounts-helpers.js';
import { createTestApp } from './helpers.js';

const w = useWorld();

// --- the browser as plain HTTP ---
const TRUST = 'suite_trusted';
const withTrust = (cookie: string | null) => (cookie ? { cookie: `${TRUST}=${cookie}` } : {});
const login = (email: string, cookie: string | null = null, password = PASSWORD) =>
  call(w.app, { method: 'POST', url: '/auth/login', body: { login: email, password }, headers: withTrust(cookie) });
const trustSet = (res: LightMyRequestResponse) => res.cookies.find((c) => c.name === TRUST)?.value ?? null;
const me = (token: string) => call(w.app, { method: 'GET', url: '/v2/user/me', token });
/** Each test uses codes of its own time step: an app code is spent once. */
const code = (secret: string, steps: number) => currentCode(secret, Date.now() + steps * 30_000);

/** Password, then the app's code, with "Trust this browser" ticked: the answer and the cookie it sets. */
async function trustedSignIn(email: string, secret: string, steps = 0, cookie: string | null = null) {
  const first = await login(email, cookie);
  expect(first.json(), first.body).toMatchObject({ second_step: 'totp' });
  const res = await call(w.app, {
    method: 'POST',
    url: '/auth/login/second-step',
    body: { email, pending_token: first.json().pending_token, code: await code(secret, steps), trust_browser: true },
    headers: withTrust(cookie),
  });
  expect(res.statusCode, res.body).toBe(200);
  const trust = trustSet(res);
  expect(trust).not.toBeNull();
  return { token: res.json().token as string, cookie: trust! };
}
const skipsStep = async (email: string, cookie: string | null, password = PASSWORD) => {
  const res = await login(email, cookie, password);
  return typeof res.json().token === 'string';
};
const userRow = (email: string) =>
  w.app.db.kysely
    .selectFrom('users')
    .select(['id', 'credential_generation'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();

describe('trusted browser: forged, moved, expired', () => {
  it('an entry signed with another key, for another purpose, or pasted from the device cookie skips nothing', async () => {
    const ana = await registered(w, 'ana@r4-forge.com');
    const { secret } = await turnOnTotp(w, ana.token);
    const earned = await trustedSignIn('ana@r4-forge.com', secret);
    expect(await skipsStep('ana@r4-forge.com', earned.cookie)).toBe(true);
    const { credential_generation } = await userRow('ana@r4-forge.com');
    const value = `${Date.now() + TRUSTED_BROWSER_TTL_MS}.${Number(credential_generation)}`;
    // Another server's secret (a copy of the code is not a copy of the key).
    const otherKey = signValue(
      deriveKeys('an-attacker-chosen-secret-of-enough-length-1234').device,
      'trusted-browser',
      value,
      [ana.id],
    );
    expect(await skipsStep('ana@r4-forge.com', otherKey)).toBe(false);
    // The right key, another cookie's purpose (the throttle's device cookie is signed with the same key).
    const otherPurpose = signValue(w.t.config.keys.device, 'device', value, [ana.id]);
    expect(await skipsStep('ana@r4-forge.com', otherPurpose)).toBe(false);
    // The device cookie a completed sign-in sets, pasted in as the trust cookie.
    const plain = await login('ana@r4-forge.com', earned.cookie);
    const device = plain.cookies.find((c) => c.name === 'suite_device')?.value;
    expect(device).toBeDefined();
    for (const entry of device!.split('~')) expect(await skipsStep('ana@r4-forge.com', entry)).toBe(false);
    // Not bound to anyone: a MAC over the value alone.
    expect(await skipsStep('ana@r4-forge.com', signValue(w.t.config.keys.device, 'trusted-browser', value))).toBe(
      false,
    );
    // The real entry with a longer life written in: the MAC no longer matches.
    const [, gen, mac] = earned.cookie.split('.');
    expect(await skipsStep('ana@r4-forge.com', `${Date.now() + 10 * TRUSTED_BROWSER_TTL_MS}.${gen}.${mac}`)).toBe(
      false,
    );
  });

  it('an entry past its 30 days counts for nothing (the expiry is inside the MAC)', async () => {
    const bo = await registered(w, 'bo@r4-expiry.com');
    const { secret } = await turnOnTotp(w, bo.token);
    const earned = await trustedSignIn('bo@r4-expiry.com', secret);
    const row = await userRow('bo@r4-expiry.com');
    const ring = w.t.config.keys.device;
    expect(browserTrusted(ring, earned.cookie, row)).toBe(true);
    expect(browserTrusted(ring, earned.cookie, row, Date.now() + TRUSTED_BROWSER_TTL_MS + 60_000)).toBe(false);
  });

  it("one browser shared by two domains' people: each entry opens its own account only", async () => {
    const cat = await registered(w, 'cat@r4-tenant-a.com');
    const dan = await registered(w, 'dan@r4-tenant-b.com');
    const catApp = await turnOnTotp(w, cat.token);
    const danApp = await turnOnTotp(w, dan.token);
    const catTrust = await trustedSignIn('cat@r4-tenant-a.com', catApp.secret);
    // Dan signs in on the same browser: the cookie comes back with both entries.
    const both = await trustedSignIn('dan@r4-tenant-b.com', danApp.secret, 0, catTrust.cookie);
    expect(both.cookie.split('~')).toHaveLength(2);
    expect(await skipsStep('cat@r4-tenant-a.com', both.cookie)).toBe(true);
    expect(await skipsStep('dan@r4-tenant-b.com', both.cookie)).toBe(true);
    // Each entry alone, moved to the other account: the step is asked.
    const [danEntry, catEntry] = both.cookie.split('~');
    expect(await skipsStep('dan@r4-tenant-b.com', catEntry!)).toBe(false);
    expect(await skipsStep('cat@r4-tenant-a.com', danEntry!)).toBe(false);
  });

  it('a wrong app code with "trust" ticked earns no cookie, and a spent pending token cannot earn one later', async () => {
    const eli = await registered(w, 'eli@r4-earn.com');
    const { secret } = await turnOnTotp(w, eli.token);
    const first = await login('eli@r4-earn.com');
    const pending = first.json().pending_token as string;
    const wrong = await call(w.app, {
      method: 'POST',
      url: '/auth/login/second-step',
      body: { email: 'eli@r4-earn.com', pending_token: pending, code: '000000', trust_browser: true },
    });
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrong.statusCode).toBeLessThan(500);
    expect(trustSet(wrong)).toBeNull();
    const right = await call(w.app, {
      method: 'POST',
      url: '/auth/login/second-step',
      body: { email: 'eli@r4-earn.com', pending_token: pending, code: await code(secret, 0) },
    });
    expect(right.statusCode, right.body).toBe(200);
    expect(trustSet(right)).toBeNull();
    // The same pending token again, now asking for trust: spent.
    const replay = await call(w.app, {
      method: 'POST',
      url: '/auth/login/second-step',
      body: { email: 'eli@r4-earn.com', pending_token: pending, code: await code(secret, 1), trust_browser: true },
    });
    expect(replay.statusCode).toBeGreaterThanOrEqual(400);
    expect(trustSet(replay)).toBeNull();
    // Another account's pending token with this one's address: no session, no cookie.
    const fay = await registered(w, 'fay@r4-earn.com');
    const fayApp = await turnOnTotp(w, fay.token);
    const fayPending = (await login('fay@r4-earn.com')).json().pending_token as string;
    const crossed = await call(w.app, {
      method: 'POST',
      url: '/auth/login/second-step',
      body: {
        email: 'eli@r4-earn.com',
        pending_token: fayPending,
        code: await code(fayApp.secret, 0),
        trust_browser: true,
      },
    });
    expect(crossed.statusCode).toBeGreaterThanOrEqual(400);
    expect(trustSet(crossed)).toBeNull();
  });
});

describe('trusted browser: what must end it', () => {
  it('ends with a password change made from another device', async () => {
    const gus = await registered(w, 'gus@r4-end.com');
    const { secret } = await turnOnTotp(w, gus.token);
    const shared = await trustedSignIn('gus@r4-end.com', secret, 0);
    // The owner, elsewhere, changes the password (the shared computer's user learns the new one later).
    const own = await trustedSignIn('gus@r4-end.com', secret, 1);
    const changed = await changePassword(w, { id: gus.id, token: own.token }, 'Changed-Pass-r4');
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await skipsStep('gus@r4-end.com', shared.cookie, 'Changed-Pass-r4')).toBe(false);
  });

  it('"this wasn\'t me" ends the trust a thief earned with the app he set up', async () => {
    await registered(w, 'hal@r4-end.com');
    // The thief has the password and a fresh session: he turns on his own app…
    await outboxDrained(w);
    const before = w.smtp.messages.length;
    const thiefApp = await turnOnTotp(w, (await login('hal@r4-end.com')).json().token as string);
    const mail = await mailTo(w.smtp, 'hal@r4-end.com', before);
    const notMe = /\/security\/not-me#([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(notMe, mail.text).toBeDefined();
    // …and trusts his browser with it.
    const thief = await trustedSignIn('hal@r4-end.com', thiefApp.secret, 1);
    expect(browserTrusted(w.t.config.keys.device, thief.cookie, await userRow('hal@r4-end.com'))).toBe(true);
    const revert = await call(w.app, { method: 'POST', url: '/v2/user/factor-revert', body: { token: notMe } });
    expect(revert.statusCode, revert.body).toBe(200);
    expect(browserTrusted(w.t.config.keys.device, thief.cookie, await userRow('hal@r4-end.com'))).toBe(false);
    // The owner turns on their own app: the thief's cookie and password do not skip its step.
    const owner = (await login('hal@r4-end.com')).json().token as string;
    await turnOnTotp(w, owner);
    expect(await skipsStep('hal@r4-end.com', thief.cookie)).toBe(false);
  });

  it("ends with a domain administrator's reset of the person's two-step verification", async () => {
    const boss = await registered(w, 'boss@r4-reset.com');
    await admin(w, 'domain', 'admin', 'add', 'r4-reset.com', 'boss@r4-reset.com');
    const ivy = await registered(w, 'ivy@r4-reset.com');
    const first = await turnOnTotp(w, ivy.token);
    const trust = await trustedSignIn('ivy@r4-reset.com', first.secret);
    const reset = await call(w.app, {
      method: 'POST',
      url: apiPath(ADMIN_API.adminPersonResetTwoStep, { id: ivy.id }),
      token: boss.token,
      body: {},
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // The person sets the app up again; the old browser is asked for the new app's code.
    const fresh = (await login('ivy@r4-reset.com')).json().token as string;
    await turnOnTotp(w, fresh);
    expect(await skipsStep('ivy@r4-reset.com', trust.cookie)).toBe(false);
  });

  it("ends with an operator's deactivation of the whole domain: re-activated, the old browser asks for the code", async () => {
    const uma = await registered(w, 'uma@r4-domain-off.com');
    const { secret } = await turnOnTotp(w, uma.token);
    const trust = await trustedSignIn('uma@r4-domain-off.com', secret);
    await admin(w, 'domain', 'set', 'r4-domain-off.com', '--inactive');
    expect(await skipsStep('uma@r4-domain-off.com', trust.cookie)).toBe(false);
    await admin(w, 'domain', 'set', 'r4-domain-off.com', '--active');
    // The person's own deactivation voids the trust (trusted-browser.test.ts); the domain's must too.
    expect(await skipsStep('uma@r4-domain-off.com', trust.cookie)).toBe(false);
  });

  it('a domain policy that forbids trusted browsers ends the trust already given (allowing it again revives none)', async () => {
    const jo = await registered(w, 'jo@r4-policy.com');
    const { secret } = await turnOnTotp(w, jo.token);
    const trust = await trustedSignIn('jo@r4-policy.com', secret);
    const settings = domainSettingsRepository(w.app.db.kysely);
    await settings.set('r4-policy.com', { trustBrowsers: false });
    expect(await skipsStep('jo@r4-policy.com', trust.cookie)).toBe(false);
    // The administrator forbade it after a lost laptop; allowing it again later must not bring that laptop back.
    await settings.set('r4-policy.com', { trustBrowsers: true });
    expect(await skipsStep('jo@r4-policy.com', trust.cookie)).toBe(false);
  });

  it("a domain's administrator can forbid trusted browsers from the console's security policy", async () => {
    const ken = await registered(w, 'ken@r4-console.com');
    await admin(w, 'domain', 'admin', 'add', 'r4-console.com', 'ken@r4-console.com');
    const url = apiPath(ADMIN_API.adminSecurityPolicy, { domain: 'r4-console.com' });
    const put = await call(w.app, { method: 'PUT', url, token: ken.token, body: { trust_browsers: false } });
    expect(put.statusCode, put.body).toBe(200);
    await turnOnTotp(w, ken.token);
    expect((await login('ken@r4-console.com')).json()).toMatchObject({ second_step: 'totp', trust_allowed: false });
  });
});

describe('trusted browser: what a trusted sign-in may do', () => {
  it('a trusted sign-in (password only, AAL1) re-proved by password still cannot change a factor', async () => {
    const lea = await registered(w, 'lea@r4-aal.com');
    const { secret } = await turnOnTotp(w, lea.token);
    const trust = await trustedSignIn('lea@r4-aal.com', secret);
    const session = (await login('lea@r4-aal.com', trust.cookie)).json().token as string;
    const reauth = await call(w.app, {
      method: 'POST',
      url: '/v2/user/reauth',
      token: session,
      body: { method: 'password', password: PASSWORD },
    });
    expect(reauth.statusCode, reauth.body).toBe(200);
    expectError(
      await call(w.app, { method: 'POST', url: '/v2/user/passkeys/options', token: session }),
      403,
      'ERR_PROOF_REQUIRED',
    );
    // New recovery codes need an app code in the request itself.
    const codes = await call(w.app, {
      method: 'POST',
      url: '/v2/user/recovery-codes',
      token: session,
      body: { code: '' },
    });
    expect(codes.statusCode).toBeGreaterThanOrEqual(400);
    expect(codes.statusCode).toBeLessThan(500);
    // Turning the app off needs an app code too.
    const off = await call(w.app, {
      method: 'POST',
      url: '/v2/user/totp/disable',
      token: session,
      body: { password: PASSWORD, code: '000000' },
    });
    expect(off.statusCode).toBeGreaterThanOrEqual(400);
    expect(off.statusCode).toBeLessThan(500);
    expect(await skipsStep('lea@r4-aal.com', null)).toBe(false);
  });

  it("a two-step administrator's trusted sign-in (AAL1) cannot turn off another person's second factor without the app", async () => {
    const max = await registered(w, 'max@r4-admin.com');
    await admin(w, 'domain', 'admin', 'add', 'r4-admin.com', 'max@r4-admin.com');
    const maxApp = await turnOnTotp(w, max.token);
    const trust = await trustedSignIn('max@r4-admin.com', maxApp.secret);
    // The shared computer: someone else who knows Max's password signs in there without his phone.
    const session = (await login('max@r4-admin.com', trust.cookie)).json().token as string;
    expect(session).toBeDefined();
    const ned = await registered(w, 'ned@r4-admin.com');
    await turnOnTotp(w, ned.token);
    const reset = await call(w.app, {
      method: 'POST',
      url: apiPath(ADMIN_API.adminPersonResetTwoStep, { id: ned.id }),
      token: session,
      body: {},
    });
    // A factor change of one's own asks for the app at AAL2; another person's must not ask for less.
    expectError(reset, 403, 'ERR_PROOF_REQUIRED');
    expect((await login('ned@r4-admin.com')).json()).toMatchObject({ second_step: 'totp' });
  });

  it("another domain's administrator reaches neither this domain's policy nor its people", async () => {
    const own = await registered(w, 'own@r4-home.com');
    await admin(w, 'domain', 'admin', 'add', 'r4-home.com', 'own@r4-home.com');
    const stranger = await registered(w, 'oz@r4-away.com');
    await admin(w, 'domain', 'admin', 'add', 'r4-away.com', 'oz@r4-away.com');
    const policy = apiPath(ADMIN_API.adminSecurityPolicy, { domain: 'r4-home.com' });
    expectError(await call(w.app, { method: 'GET', url: policy, token: stranger.token }), 404, 'ERR_NOT_FOUND');
    expectError(
      await call(w.app, { method: 'PUT', url: policy, token: stranger.token, body: { require_two_step: true } }),
      404,
      'ERR_NOT_FOUND',
    );
    const person = apiPath(ADMIN_API.adminPerson, { id: own.id });
    expectError(await call(w.app, { method: 'GET', url: person, token: stranger.token }), 404, 'ERR_NOT_FOUND');
    expectError(
      await call(w.app, {
        method: 'POST',
        url: apiPath(ADMIN_API.adminPersonDeactivate, { id: own.id }),
        token: stranger.token,
        body: {},
      }),
      404,
      'ERR_NOT_FOUND',
    );
    expect((await me(own.token)).statusCode).toBe(200);
    const mine = await call(w.app, { method: 'GET', url: policy, token: own.token });
    expect(mine.json().require_two_step).toBe(false);
  });
});

describe('enumeration through the new entry flow', () => {
  it('identifier-first discovery answers an address with an account and one without alike', async () => {
    await registered(w, 'pia@r4-enum.com');
    const discover = (email: string) => call(w.app, { method: 'POST', url: '/sso/discover', body: { email } });
    const known = await discover('pia@r4-enum.com');
    const unknown = await discover('nobody-pia@r4-enum.com');
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.body).toBe(unknown.body);
    await admin(w, 'users', 'deactivate', 'pia@r4-enum.com');
    expect((await discover('pia@r4-enum.com')).body).toBe(unknown.body);
  });

  it('the trust offer says nothing before the password: a wrong password answers alike with and without a cookie', async () => {
    const quin = await registered(w, 'quin@r4-enum.com');
    const { secret } = await turnOnTotp(w, quin.token);
    const trust = await trustedSignIn('quin@r4-enum.com', secret);
    const wrongKnown = await login('quin@r4-enum.com', trust.cookie, 'Not-The-Password-1');
    const wrongUnknown = await login('nobody-quin@r4-enum.com', trust.cookie, 'Not-The-Password-1');
    expect(wrongKnown.statusCode).toBe(401);
    expect(wrongKnown.body).toBe(wrongUnknown.body);
    expect(trustSet(wrongKnown)).toBeNull();
  });
});

describe('"Send again" cooldown', () => {
  let cw: AccountsWorld;
  beforeAll(async () => {
    cw = await startWorld({ RATE_LIMIT_SCALE: '1' });
  }, 60_000);
  afterAll(async () => cw.close());
  const resend = (email: string) =>
    call(cw.app, { method: 'PUT', url: '/v2/user/resend_confirmation', body: { email } });
  const age = (email: string) =>
    cw.app.db.kysely
      .updateTable('codes')
      .set({ created_at: Date.now() - (CODE_MAIL_SPACING_S + 1) * 1000 })
      .where('email', '=', email)
      .where('purpose', '=', 'confirm')
      .execute();

  it('answers a pending account and an unknown address alike, first ask and second ask', async () => {
    await signup(cw, 'rae@r4-cool.com');
    await age('rae@r4-cool.com');
    const known = [await resend('rae@r4-cool.com'), await resend('rae@r4-cool.com')];
    const unknown = [await resend('nobody-rae@r4-cool.com'), await resend('nobody-rae@r4-cool.com')];
    expect(known.map((r) => r.statusCode)).toEqual(unknown.map((r) => r.statusCode));
    expect(known[0]!.body).toBe(unknown[0]!.body);
    expect(known[1]!.json().error_code).toBe(unknown[1]!.json().error_code);
  });

  it("a stranger's ask before a sign-up does not hold back the new account's first code", async () => {
    expect((await resend('sam@r4-cool.com')).statusCode).toBe(200);
    await outboxDrained(cw);
    const before = cw.smtp.messages.length;
    const code = await signup(cw, 'sam@r4-cool.com');
    expect(code).toMatch(/\S/);
    expect(cw.smtp.messages.length).toBeGreaterThan(before);
  });

  it("a stranger's resend inside the owner's minute does not lock the owner out: the code mailed confirms", async () => {
    await signup(cw, 'tia@r4-cool.com');
    await age('tia@r4-cool.com');
    await outboxDrained(cw);
    const before = cw.smtp.messages.length;
    // The stranger asks first…
    expect((await resend('tia@r4-cool.com')).statusCode).toBe(200);
    // …the owner's own ask inside the minute is refused with a wait, never a lock-out…
    const owner = await resend('tia@r4-cool.com');
    expectError(owner, 429, 'ERR_CODE_SENT_RECENTLY');
    expect(Number(owner.headers['retry-after'])).toBeLessThanOrEqual(CODE_MAIL_SPACING_S);
    // …and the code the stranger's ask mailed to the owner's inbox confirms the account.
    const mail = await mailTo(cw.smtp, 'tia@r4-cool.com', before);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code, mail.text).toBeDefined();
    const confirm = await call(cw.app, {
      method: 'PUT',
      url: '/v2/user/confirm',
      body: { token: code, email: 'tia@r4-cool.com' },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
  });
});

describe('the not-found page', () => {
  /** A server with a stand-in web build (its index.html alone). */
  async function withWeb(run: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<void>) {
    const t = await createTestApp();
    const dist = join(t.dataDir, 'web');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    const app = await buildApp({ ...t.config, webDist: dist }, { logger: false });
    try {
      await run(app);
    } finally {
      await app.close();
      await t.close();
    }
  }

  it('answers 404 with the app, reflecting nothing of the address asked for', async () => {
    await withWeb(async (app) => {
      for (const url of [
        '/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
        '/x%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
        '/app/admin/x/%3Csvg%20onload%3Dalert(1)%3E',
        '//evil.example/%2e%2e',
      ]) {
        const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        expect(res.statusCode, url).toBe(404);
        expect(res.headers.location, url).toBeUndefined();
        expect(res.body, url).not.toMatch(/alert|onerror|onload|evil\.example/);
      }
    });
  });

  it('a home section that does not exist answers 404 (the web shows the not-found page there), not 200', async () => {
    await withWeb(async (app) => {
      for (const url of ['/app/no-such-section', '/app/%3Cb%3E']) {
        const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        expect(res.statusCode, url).toBe(404);
      }
    });
  });
});
