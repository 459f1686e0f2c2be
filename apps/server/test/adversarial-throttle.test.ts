/**
 * The adversarial suite, throttling and device trust (F1, F9, F11 and the one signed-value
 * mechanism): each describe replays one finding of the review against the real server (app.inject),
 * the real database, real SMTP on loopback and, where the step-up is what decides, a loopback stand-in
 * for reCAPTCHA's siteverify (so that what is evaluated past a ceiling is exact, not a race).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  PASSWORD,
  call,
  changePassword,
  expectError,
  outboxDrained,
  registered,
  startWorld,
  type AccountsWorld,
  turnOnTotp,
} from './accounts-helpers.js';
import { LANGUAGES } from '@suite/contract';
import { captchaEnv as siteverifyEnv, startSiteverify } from './siteverify.js';
import { mailContent } from '../src/emails/index.js';
import { currentCode } from '../src/modules/accounts/strategies/totp/secrets.js';
import { WRONG_SECOND_FACTOR_ALARM } from '../src/modules/accounts/identity/alarms.js';
import { clientKey } from '../src/plugins/rate-limit.js';
import { deriveKeys, openSignedValue, sameSecret, signValue } from '../src/keys.js';

const captchaEnv = (url: string) => ({ ...siteverifyEnv(url), RATE_LIMIT_SCALE: '1' });

/** What a browser keeps of the device cookie: `suite_device=<value>`, from a Set-Cookie header (or ''). */
function deviceCookieOf(res: LightMyRequestResponse): string {
  const set = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('suite_device='));
  return set ? set.split(';')[0]! : '';
}
const entriesOf = (cookie: string) => cookie.slice('suite_device='.length).split('~');
const deviceIdOf = (cookie: string) => entriesOf(cookie)[0]!.split('.')[0];

/** 80 argon2 logins and 400 code checks: more than the default 20 s on a loaded shared machine. */
const ATTACK_TIMEOUT_MS = 90_000;

/** A recovery-code-shaped guess: checked (against the account's recovery codes) and wrong. */
const WRONG_CODE = 'aaaaa-aaaaa';

/** An account that logs in with PASSWORD, signed up with a captcha answer when `captcha`. */
const account = (w: AccountsWorld, email: string, captcha: boolean) =>
  registered(w, email, captcha ? { captcha_token: 'ok:signup' } : {});

/** Turns two-step verification on with the authenticator app; returns its secret. */
const turnOnTwoStep = async (w: AccountsWorld, token: string) => (await turnOnTotp(w, token)).secret;

const login = (w: AccountsWorld, ip: string, email: string, password: string, cookie = '', captcha = true) =>
  w.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    payload: { login: email, password, ...(captcha ? { captcha_token: 'ok:login' } : {}) },
    ...(cookie ? { headers: { cookie } } : {}),
  });
const secondStep = (w: AccountsWorld, ip: string, email: string, pending: string, code: string, cookie = '') =>
  w.app.inject({
    method: 'POST',
    url: '/api/auth/login/second-step',
    remoteAddress: ip,
    payload: { email, pending_token: pending, code },
    ...(cookie ? { headers: { cookie } } : {}),
  });

/** The owner's whole sign-in from `ip`: the password step, then the app's current code (answered 200). */
async function ownerSignsIn(w: AccountsWorld, ip: string, email: string, secret: string, captcha = true) {
  const step = await login(w, ip, email, PASSWORD, '', captcha);
  const done = await secondStep(w, ip, email, step.json().pending_token as string, await currentCode(secret));
  expect(done.statusCode, done.body).toBe(200);
  return { step, done };
}

/**
 * Runs the tasks at most 4 at a time: the attack's clients overlap as the review's did, without 40
 * argon2 logins and their captcha checks at once on the shared test machine (a captcha check slower
 * than its 3 s timeout answers 503, which is not what is tested here).
 */
async function fewAtOnce<T>(tasks: (() => Promise<T>)[], width = 4): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

/** The mails of the "someone knows your password" alarm delivered to `to`. */
const alarms = (w: AccountsWorld, to: string) =>
  w.smtp.messages.filter((m) => m.to.includes(to) && m.subject.startsWith('Someone knows your'));

describe('F1 two-step codes guessed from many addresses', () => {
  describe('with the captcha step-up past the ceiling', () => {
    let standIn: Awaited<ReturnType<typeof startSiteverify>>;
    let w: AccountsWorld;
    beforeAll(async () => {
      standIn = await startSiteverify();
      w = await startWorld(captchaEnv(standIn.url));
    });
    afterAll(async () => {
      await w?.close();
      await standIn?.close();
    });

    /**
     * The review's attack: 40 client addresses that know the password, each signing in (twice: a pending
     * step takes 5 codes) and sending 10 wrong codes, carrying whatever cookie the sign-in set plus
     * `cookie`. Returns how many codes were evaluated and how many were refused for a captcha.
     */
    async function attack(email: string, cookie: string) {
      const outcomes = await fewAtOnce(
        Array.from({ length: 40 }, (_, client) => async () => {
          const ip = `203.0.${113 + Math.floor(client / 20)}.${10 + (client % 20)}`;
          const codes: string[] = [];
          for (let round = 0; round < 2; round++) {
            const signedIn = await login(w, ip, email, PASSWORD, cookie);
            expect(signedIn.statusCode, signedIn.body).toBe(200);
            expect(signedIn.json()).toEqual({
              second_step: 'totp',
              pending_token: expect.any(String),
              trust_allowed: true,
            });
            // The password alone earns no trust.
            expect(deviceCookieOf(signedIn)).toBe('');
            const pending = signedIn.json().pending_token as string;
            for (let guess = 0; guess < 5; guess++) {
              codes.push((await secondStep(w, ip, email, pending, WRONG_CODE, cookie)).json().error_code as string);
            }
          }
          return codes;
        }),
      );
      const all = outcomes.flat();
      return {
        sent: all.length,
        evaluated: all.filter((c) => c === 'ERR_SECOND_STEP_INVALID' || c === 'ERR_SECOND_STEP_EXPIRED').length,
        refused: all.filter((c) => c === 'ERR_CAPTCHA_REQUIRED').length,
      };
    }

    it('the right password alone sets no device cookie; the completed second step does', async () => {
      const owner = await account(w, 'solo@contoso.com', true);
      const secret = await turnOnTwoStep(w, owner.token);
      const { step: first, done } = await ownerSignsIn(w, '198.51.100.20', 'solo@contoso.com', secret);
      expect(first.json().second_step).toBe('totp');
      expect(first.headers['set-cookie']).toBeUndefined();
      expect(String(done.headers['set-cookie'])).toMatch(
        /^suite_device=[\w.~-]+; Max-Age=\d+; Path=\/api; HttpOnly; SameSite=Strict$/,
      );
    });

    it(
      '40 addresses × 10 wrong codes without a cookie: the ceiling stops them at 100, and the owner is mailed once',
      async () => {
        const { token } = await account(w, 'target@contoso.com', true);
        await turnOnTwoStep(w, token);
        const result = await attack('target@contoso.com', '');
        // Before: the cookie from the password step lifted the ceiling, and all 400 were evaluated.
        expect(result).toEqual({ sent: 400, evaluated: 100, refused: 300 });
        await outboxDrained(w);
        const mails = alarms(w, 'target@contoso.com');
        expect(mails).toHaveLength(1);
        expect(mails[0]!.subject).toBe('Someone knows your Suite password');
        expect(mails[0]!.text).toContain('correct password');
        expect(mails[0]!.html).toContain('Your password was entered correctly');
        expect(WRONG_SECOND_FACTOR_ALARM).toBe(10);
      },
      ATTACK_TIMEOUT_MS,
    );

    it(
      "with the owner's own trusted-browser cookie: the same 100, and still one mail",
      async () => {
        const { token } = await account(w, 'trusted@contoso.com', true);
        const secret = await turnOnTwoStep(w, token);
        // The owner's browser earns its cookie by a completed sign-in; the attackers carry it (a shared or stolen browser).
        const { done } = await ownerSignsIn(w, '198.51.100.22', 'trusted@contoso.com', secret);
        const cookie = deviceCookieOf(done);
        expect(cookie).not.toBe('');
        expect(await attack('trusted@contoso.com', cookie)).toEqual({ sent: 400, evaluated: 100, refused: 300 });
        await outboxDrained(w);
        expect(alarms(w, 'trusted@contoso.com')).toHaveLength(1);
      },
      ATTACK_TIMEOUT_MS,
    );
  });

  describe('the alarm mail says what happened, in every language', () => {
    it.each(LANGUAGES)('%s: subject, preview and text filled, distinct from the other notices, no code', (language) => {
      const site = { appTitle: 'Suite', publicUrl: 'https://suite.example' };
      const mail = mailContent({ kind: 'password-known', to: 'a@contoso.com', language }, site);
      const notice = mailContent({ kind: 'password-changed', to: 'a@contoso.com', language }, site);
      for (const part of [mail.subject, mail.preview, mail.intro, mail.validity, mail.why, mail.ignore]) {
        expect(part.length).toBeGreaterThan(10);
        expect(part).not.toMatch(/[{}]/);
      }
      expect(mail.subject).toContain('Suite');
      expect(mail.preview).not.toBe(notice.preview);
      expect(mail.subject).not.toBe(notice.subject);
      expect(mail.code).toBeUndefined();
      // Where a new password is chosen: the signed-in home has no password form.
      expect(mail.action?.url).toBe('https://suite.example/user/recovery-password');
      // After a reset code read from the mailbox: other words, and the Security section.
      const mailbox = mailContent({ kind: 'mailbox-known', to: 'a@contoso.com', language }, site);
      for (const part of ['subject', 'preview', 'intro', 'validity', 'why'] as const) {
        expect(mailbox[part]).not.toBe(mail[part]);
        expect(mailbox[part]).not.toMatch(/[{}]/);
      }
      expect(mailbox.action?.url).toBe('https://suite.example/app/security');
    });
  });

  describe('without a captcha', () => {
    let w: AccountsWorld;
    beforeAll(async () => {
      w = await startWorld({ RATE_LIMIT_SCALE: '1' });
    });
    afterAll(async () => w?.close());

    it(
      "past the ceiling a burst from 30 addresses with the owner's cookie: one code goes on, the rest are refused",
      async () => {
        const email = 'burst@contoso.com';
        const { token } = await account(w, email, false);
        const secret = await turnOnTwoStep(w, token);
        const { done } = await ownerSignsIn(w, '198.51.100.40', email, secret, false);
        const cookie = deviceCookieOf(done);
        // Every client signs in first (the password is known); 10 of them reach the ceiling.
        const pendings = new Map<string, string>();
        const pending = async (ip: string) => {
          const res = await login(w, ip, email, PASSWORD, cookie, false);
          expect(res.headers['set-cookie']).toBeUndefined();
          return res.json().pending_token as string;
        };
        for (let client = 0; client < 40; client++) {
          const ip = `192.0.2.${client + 1}`;
          pendings.set(ip, await pending(ip));
        }
        for (let client = 0; client < 10; client++) {
          const ip = `192.0.2.${client + 1}`;
          for (let guess = 0; guess < 10; guess++) {
            if (guess === 5) pendings.set(ip, await pending(ip));
            const res = await secondStep(w, ip, email, pendings.get(ip)!, WRONG_CODE, cookie);
            expect(res.statusCode).not.toBe(429);
          }
        }
        const burst = await Promise.all(
          Array.from({ length: 30 }, (_, client) => {
            const ip = `192.0.2.${client + 11}`;
            return secondStep(w, ip, email, pendings.get(ip)!, WRONG_CODE, cookie);
          }),
        );
        // Before: the cookie kept every one of them out of the address's bucket, and all 30 were evaluated.
        expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(29);
        expect(burst.filter((r) => r.statusCode === 400)).toHaveLength(1);
        await outboxDrained(w);
        expect(alarms(w, email)).toHaveLength(1);
      },
      ATTACK_TIMEOUT_MS,
    );
  });
});

describe('F9 device trust outlives sign-out of all devices and a password change', () => {
  let standIn: Awaited<ReturnType<typeof startSiteverify>>;
  let w: AccountsWorld;
  const email = 'keeper@contoso.com';
  let id = '';
  beforeAll(async () => {
    standIn = await startSiteverify();
    w = await startWorld(captchaEnv(standIn.url));
    id = (await account(w, email, true)).id;
    await account(w, 'sibling@contoso.com', true);
    // 100 wrong recovery codes from 10 clients: the address's ceiling is reached; past it a stranger
    // must bring a captcha answer, a trusted browser goes on (the observable of trust).
    for (let client = 0; client < 10; client++) {
      for (let guess = 0; guess < 10; guess++) {
        const res = await checkRecoveryCode(`192.0.2.${client + 100}`);
        expect(res.json().error_code).not.toBe('ERR_CAPTCHA_REQUIRED');
      }
    }
  });
  afterAll(async () => {
    await w?.close();
    await standIn?.close();
  });
  let probes = 0;
  function checkRecoveryCode(ip: string, cookie = '') {
    return w.app.inject({
      method: 'PUT',
      url: '/api/v2/user/forgot-password/confirm',
      remoteAddress: ip,
      payload: { email, token: '000000' },
      ...(cookie ? { headers: { cookie } } : {}),
    });
  }
  /** Whether the address's ceiling lets this browser's code check through (a fresh client each time). */
  const trusted = async (cookie: string) => {
    probes += 1;
    const res = await checkRecoveryCode(`198.51.100.${probes + 100}`, cookie);
    expect(res.statusCode).toBe(400);
    return res.json().error_code !== 'ERR_CAPTCHA_REQUIRED';
  };

  it('a completed sign-in is trusted; "sign out of all devices" ends that trust', async () => {
    expect(await trusted('')).toBe(false);
    const signedIn = await login(w, '198.51.100.50', email, PASSWORD);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const cookie = deviceCookieOf(signedIn);
    expect(await trusted(cookie)).toBe(true);
    const out = await call(w.app, { method: 'POST', url: '/auth/logout-all', token: signedIn.json().token as string });
    expect(out.statusCode, out.body).toBe(200);
    // Before: the entry stayed good for its 180 days.
    expect(await trusted(cookie)).toBe(false);
    // Signing in again from the same browser trusts it again, under the same device id.
    const again = await login(w, '198.51.100.50', email, PASSWORD, cookie);
    const renewed = deviceCookieOf(again);
    expect(deviceIdOf(renewed)).toBe(deviceIdOf(cookie));
    expect(entriesOf(renewed)).toHaveLength(1);
    expect(await trusted(renewed)).toBe(true);
  });

  it('a password change ends the trust of every browser, the one that changed it included', async () => {
    const signedIn = await login(w, '198.51.100.51', email, PASSWORD);
    const cookie = deviceCookieOf(signedIn);
    expect(await trusted(cookie)).toBe(true);
    const changed = await changePassword(w, { id, token: signedIn.json().token as string }, 'Changed-Pass-5');
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await trusted(cookie)).toBe(false);
    const again = await login(w, '198.51.100.51', email, 'Changed-Pass-5', cookie);
    expect(again.statusCode, again.body).toBe(200);
    expect(await trusted(deviceCookieOf(again))).toBe(true);
  });

  it('each sign-in replaces the account’s entry: one per browser and account, one device id', async () => {
    let cookie = '';
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await login(w, '198.51.100.52', email, 'Changed-Pass-5', cookie);
      expect(res.statusCode, res.body).toBe(200);
      cookie = deviceCookieOf(res);
      ids.add(deviceIdOf(cookie)!);
      // Before: each login a new device id, so a fresh per-device budget every time.
      expect(entriesOf(cookie)).toHaveLength(1);
    }
    expect(ids.size).toBe(1);
    // Another account from the same browser: a second entry, the same device id; nothing names either address.
    const other = await login(w, '198.51.100.52', 'sibling@contoso.com', PASSWORD, cookie);
    const both = deviceCookieOf(other);
    expect(entriesOf(both)).toHaveLength(2);
    expect(new Set(entriesOf(both).map((e) => e.split('.')[0]))).toEqual(ids);
    expect(both).not.toMatch(/keeper|sibling|contoso/);
    expect(await trusted(both)).toBe(true);
    // A failed sign-in sets nothing.
    expect((await login(w, '198.51.100.52', email, 'Wrong-Guess-1', both)).headers['set-cookie']).toBeUndefined();
  });

  it("an entry is the account's alone: moved to another address, or its generation edited, it is not trusted", async () => {
    const sibling = deviceCookieOf(await login(w, '198.51.100.53', 'sibling@contoso.com', PASSWORD));
    // the sibling's entry checked for keeper's address
    expect(await trusted(sibling)).toBe(false);
    const mine = deviceCookieOf(await login(w, '198.51.100.53', email, 'Changed-Pass-5'));
    const [device, expires, generation, mac] = entriesOf(mine)[0]!.split('.');
    const older = `suite_device=${device}.${expires}.${Number(generation) + 1}.${mac}`;
    expect(await trusted(older)).toBe(false);
    const longer = `suite_device=${device}.${Number(expires) + 1}.${generation}.${mac}`;
    expect(await trusted(longer)).toBe(false);
  });
});

describe('F11 per-client limits count an IPv6 client per /64', () => {
  let w: AccountsWorld;
  beforeAll(async () => {
    w = await startWorld({ RATE_LIMIT_SCALE: '1', TRUST_PROXY: '1' });
  });
  afterAll(async () => w?.close());
  const check = (email: string, headers: { ip?: string; forwarded?: string }) =>
    w.app.inject({
      method: 'PUT',
      url: '/api/v2/user/forgot-password/confirm',
      remoteAddress: headers.ip ?? '10.0.0.1',
      payload: { email, token: '000000' },
      ...(headers.forwarded ? { headers: { 'x-forwarded-for': headers.forwarded } } : {}),
    });

  it('the client key: IPv4 as is, IPv4-mapped as IPv4, IPv6 by its /64', () => {
    expect(clientKey('203.0.113.5')).toBe('203.0.113.5');
    expect(clientKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(clientKey('::FFFF:cb00:7105')).toBe('203.0.113.5');
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0DB8:0001:0002::ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('10 wrong codes from 10 addresses of one /64 (behind the proxy): the 11th from the same /64 is refused, another /64 is not', async () => {
    const email = 'v6@contoso.com';
    for (let i = 1; i <= 10; i++) {
      // Before: each /128 was a client of its own, with its own 10 tries.
      expectError(await check(email, { forwarded: `2001:db8:1:2::${i.toString(16)}` }), 400, 'INVALID_TOKEN');
    }
    expectError(await check(email, { forwarded: '2001:db8:1:2:ffff:ffff:ffff:fffe' }), 429, 'ERR_RATE_LIMITED');
    expectError(await check(email, { forwarded: '2001:db8:1:3::1' }), 400, 'INVALID_TOKEN');
  });

  it('IPv4 stays per address, and an IPv4-mapped IPv6 client is that IPv4 client', async () => {
    const email = 'v4@contoso.com';
    for (let i = 0; i < 10; i++) await check(email, { ip: i % 2 ? '::ffff:198.51.100.77' : '198.51.100.77' });
    expectError(await check(email, { ip: '::ffff:198.51.100.77' }), 429, 'ERR_RATE_LIMITED');
    expectError(await check(email, { ip: '198.51.100.77' }), 429, 'ERR_RATE_LIMITED');
    expectError(await check(email, { ip: '198.51.100.78' }), 400, 'INVALID_TOKEN');
  });
});

describe('one cookie mechanism: the signed values of keys.ts', () => {
  const keys = deriveKeys('test-secret-test-secret-test-secret-0123');

  it('opens only for its purpose, its bound fields and an untouched value and MAC', () => {
    const signed = signValue(keys.device, 'device', 'abc.123', ['user-1']);
    expect(openSignedValue(keys.device, 'device', signed, ['user-1'])).toBe('abc.123');
    expect(openSignedValue(keys.device, 'sso-binding', signed, ['user-1'])).toBeNull();
    expect(openSignedValue(keys.device, 'device', signed, ['user-2'])).toBeNull();
    expect(openSignedValue(keys.device, 'device', signed)).toBeNull();
    expect(openSignedValue(keys.sso, 'device', signed, ['user-1'])).toBeNull();
    expect(openSignedValue(keys.device, 'device', signed.replace('abc', 'abd'), ['user-1'])).toBeNull();
    expect(openSignedValue(keys.device, 'device', `${signed.slice(0, -2)}AA`, ['user-1'])).toBeNull();
    for (const junk of [undefined, '', '.', 'abc', 'abc.', `.${'A'.repeat(43)}`]) {
      expect(openSignedValue(keys.device, 'device', junk)).toBeNull();
    }
  });

  it('a value signed before SESSION_SECRET was rotated opens while the old secret is SESSION_SECRET_PREVIOUS', () => {
    const before = signValue(keys.sso, 'sso-binding', 'random-value');
    const rotated = deriveKeys('a-new-secret-a-new-secret-a-new-secret-99', 'test-secret-test-secret-test-secret-0123');
    expect(openSignedValue(rotated.sso, 'sso-binding', before)).toBe('random-value');
    expect(
      openSignedValue(deriveKeys('a-new-secret-a-new-secret-a-new-secret-99').sso, 'sso-binding', before),
    ).toBeNull();
  });

  it('compares secrets of any length in constant time', () => {
    expect(sameSecret('a'.repeat(64), 'a'.repeat(64))).toBe(true);
    expect(sameSecret('a'.repeat(64), 'a'.repeat(63))).toBe(false);
    expect(sameSecret('', '')).toBe(true);
  });
});
