import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { CAPTCHA_VERIFY_TIMEOUT_MS } from '../src/plugins/captcha.js';
import {
  call,
  COMPLETE_REGISTER_BODY,
  completeRegister,
  expectError,
  mailTo,
  PASSWORD,
  startWorld,
  type AccountsWorld,
} from './accounts-helpers.js';
import { SLOWDOWN_BASE_MS } from '../src/plugins/throttle.js';
import { configProblems, createTestApp, logCapture } from './helpers.js';
import { codeIn, freePort } from './smtp.js';
import { captchaEnv, SECRET, startSiteverify, type StandIn } from './siteverify.js';

describe('captcha on the account routes (CAPTCHA_SITE_KEY set)', () => {
  let standIn: StandIn;
  let w: AccountsWorld;
  beforeAll(async () => {
    standIn = await startSiteverify();
    w = await startWorld(captchaEnv(standIn.url));
  });
  afterAll(async () => {
    await w.close();
    await standIn.close();
  });
  beforeEach(() => {
    standIn.mode = 'answer';
    standIn.received.length = 0;
  });

  const stored = async (email: string) => ({
    users: (await w.app.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute()).length,
    codes: (await w.app.db.kysely.selectFrom('codes').select('email').where('email', '=', email).execute()).length,
    mails: (await w.app.db.kysely.selectFrom('mail_outbox').select('id').where('to_address', '=', email).execute())
      .length,
  });
  const nothing = { users: 0, codes: 0, mails: 0 };
  const signUp = (email: string, captcha_token?: string) =>
    call(w.app, { method: 'POST', url: '/v2/user', body: { email, ...(captcha_token ? { captcha_token } : {}) } });

  it('a valid sign-up token passes (201) and siteverify got secret, response and remoteip as a form', async () => {
    const before = w.smtp.messages.length;
    const res = await signUp('valid@contoso.com', 'ok:signup');
    expect(res.statusCode, res.body).toBe(201);
    expect(codeIn(await mailTo(w.smtp, 'valid@contoso.com', before))).toMatch(/^\d{6}$/);
    expect(standIn.received).toEqual([
      {
        contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/),
        form: { secret: SECRET, response: 'ok:signup', remoteip: '127.0.0.1' },
      },
    ]);
  });

  it('a sign-up without a token is 400 ERR_CAPTCHA_FAILED: nothing stored, nothing mailed, siteverify not asked', async () => {
    const res = await signUp('bot@contoso.com');
    expectError(res, 400, 'ERR_CAPTCHA_FAILED');
    expect(res.json().message).toBe('Could not verify that you are not a robot. Please try again.');
    const empty = await call(w.app, {
      method: 'POST',
      url: '/v2/user',
      body: { email: 'bot@contoso.com', captcha_token: '' },
    });
    expectError(empty, 400, 'ERR_CAPTCHA_FAILED');
    expect(await stored('bot@contoso.com')).toEqual(nothing);
    expect(standIn.received).toEqual([]);
  });

  it.each([
    ['for another action', 'replay@contoso.com', 'ok:login'],
    ["solved on another site (hostname other than PUBLIC_URL's)", 'farmed@contoso.com', 'ok:signup:host=evil.example'],
    ['scored below CAPTCHA_MIN_SCORE (0.5)', 'low@contoso.com', 'low:signup'],
    ['the service rejects (success false)', 'forged@contoso.com', 'fail:signup'],
  ])('a token %s is 400 and stores nothing', async (_, email, token) => {
    expectError(await signUp(email, token), 400, 'ERR_CAPTCHA_FAILED');
    expect(await stored(email)).toEqual(nothing);
    expect(standIn.received).toHaveLength(1);
  });

  it("a token solved on PUBLIC_URL's host (in any case) and a score of exactly the minimum pass", async () => {
    const ours = await signUp('farmed@contoso.com', 'ok:signup:host=LOCALHOST');
    expect(ours.statusCode, ours.body).toBe(201);
    const edge = await signUp('edge@contoso.com', 'edge:signup');
    expect(edge.statusCode, edge.body).toBe(201);
  });

  it('login needs a login token: without one 400 before the password is checked, with one 200', async () => {
    const email = 'login@contoso.com';
    const before = w.smtp.messages.length;
    const signup = await signUp(email, 'ok:signup');
    expect(signup.statusCode, signup.body).toBe(201);
    const code = codeIn(await mailTo(w.smtp, email, before));
    const confirm = await call(w.app, { method: 'PUT', url: '/v2/user/confirm', body: { token: code, email } });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const register = await completeRegister(w, confirm.json().token);
    expect(register.statusCode, register.body).toBe(200);

    const login = (body: Record<string, unknown>) => call(w.app, { method: 'POST', url: '/auth/login', body });
    expectError(await login({ login: email, password: PASSWORD }), 400, 'ERR_CAPTCHA_FAILED');
    expectError(
      await login({ login: email, password: PASSWORD, captcha_token: 'ok:signup' }),
      400,
      'ERR_CAPTCHA_FAILED',
    );
    const ok = await login({ login: email, password: PASSWORD, captcha_token: 'ok:login' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().token).toEqual(expect.any(String));
  });

  it('recovery takes a recovery token (recovery screen) or a resend token (code screen), nothing else', async () => {
    const post = (captcha_token?: string) =>
      call(w.app, {
        method: 'POST',
        url: '/v2/user/forgot-password',
        body: { email: 'someone@contoso.com', ...(captcha_token ? { captcha_token } : {}) },
      });
    expectError(await post(), 400, 'ERR_CAPTCHA_FAILED');
    expectError(await post('ok:login'), 400, 'ERR_CAPTCHA_FAILED');
    expect(await stored('someone@contoso.com')).toEqual(nothing);
    expect((await post('ok:recovery')).statusCode).toBe(200);
    expect((await post('ok:resend')).statusCode).toBe(200);
  });

  it('resend_confirmation takes a resend token', async () => {
    const put = (captcha_token?: string) =>
      call(w.app, {
        method: 'PUT',
        url: '/v2/user/resend_confirmation',
        body: { email: 'valid@contoso.com', ...(captcha_token ? { captcha_token } : {}) },
      });
    expectError(await put(), 400, 'ERR_CAPTCHA_FAILED');
    expectError(await put('ok:recovery'), 400, 'ERR_CAPTCHA_FAILED');
    const ok = await put('ok:resend');
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('routes without a captcha are not asked for one below the address ceiling (the code check)', async () => {
    const res = await call(w.app, {
      method: 'PUT',
      url: '/v2/user/confirm',
      body: { token: '000000', email: 'nobody@contoso.com' },
    });
    expect(res.json().error_code).not.toBe('ERR_CAPTCHA_FAILED');
    expect(standIn.received).toEqual([]);
  });

  it('fails closed: siteverify answering HTTP 500 → 503 with Retry-After, nothing stored', async () => {
    standIn.mode = 'http500';
    const res = await signUp('down500@contoso.com', 'ok:signup');
    expectError(res, 503, 'ERR_SERVICE_UNAVAILABLE');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await stored('down500@contoso.com')).toEqual(nothing);
  });

  it(`fails closed: siteverify not answering within ${CAPTCHA_VERIFY_TIMEOUT_MS} ms → 503 with Retry-After`, async () => {
    standIn.mode = 'hang';
    const started = Date.now();
    const res = await signUp('slow@contoso.com', 'ok:signup');
    const took = Date.now() - started;
    expectError(res, 503, 'ERR_SERVICE_UNAVAILABLE');
    expect(res.headers['retry-after']).toBeDefined();
    expect(took).toBeGreaterThanOrEqual(CAPTCHA_VERIFY_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(CAPTCHA_VERIFY_TIMEOUT_MS + 2000);
    expect(await stored('slow@contoso.com')).toEqual(nothing);
  });
});

describe('captcha step-up past the per-address ceiling (RATE_LIMIT_SCALE 0.05: code checks 1 failure per client, ceiling 5, 2 per IP)', () => {
  let standIn: StandIn;
  let w: AccountsWorld;
  beforeAll(async () => {
    standIn = await startSiteverify();
    w = await startWorld({ ...captchaEnv(standIn.url), RATE_LIMIT_SCALE: '0.05' });
  });
  afterAll(async () => {
    await w.close();
    await standIn.close();
  });
  beforeEach(() => {
    standIn.mode = 'answer';
  });

  /** One request from its own client address (every attacker and the owner use a fresh one). */
  let clients = 0;
  const from = (
    method: 'POST' | 'PUT',
    url: string,
    body: Record<string, unknown>,
    ip = `10.9.0.${++clients}`,
    token?: string,
  ) =>
    w.app.inject({
      method,
      url: `/api${url}`,
      payload: body,
      remoteAddress: ip,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });
  /** Sign-up with a captcha, its code (the first check of a fresh address: no captcha asked). */
  const signupCode = async (email: string) => {
    const before = w.smtp.messages.length;
    const res = await from('POST', '/v2/user', { email, captcha_token: 'ok:signup' });
    expect(res.statusCode, res.body).toBe(201);
    return codeIn(await mailTo(w.smtp, email, before));
  };
  /** A registered user (password PASSWORD) and the code of a recovery asked for them. */
  const recoveryCode = async (email: string) => {
    const confirmed = await from('PUT', '/v2/user/confirm', { email, token: await signupCode(email) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const done = await from(
      'PUT',
      '/v2/user/complete-register',
      COMPLETE_REGISTER_BODY,
      undefined,
      confirmed.json().token as string,
    );
    expect(done.statusCode, done.body).toBe(200);
    const before = w.smtp.messages.length;
    const res = await from('POST', '/v2/user/forgot-password', { email, captcha_token: 'ok:recovery' });
    expect(res.statusCode, res.body).toBe(200);
    return codeIn(await mailTo(w.smtp, email, before));
  };

  for (const flow of ['signup', 'recovery'] as const) {
    it(`${flow} code check: past the ceiling a captcha is asked (the code not spent), and the owner with one gets in`, async () => {
      const email = `stepup-${flow}@contoso.com`;
      const first = flow === 'signup' ? await signupCode(email) : await recoveryCode(email);
      const url = flow === 'signup' ? '/v2/user/confirm' : '/v2/user/forgot-password/confirm';
      const wrong = (code: string) => (code === '000000' ? '111111' : '000000');
      // Five clients guess once each (the code dies after its 3 tries, the failures still count): the
      // address's ceiling over all clients (5) is reached, and no client reached its own limit.
      for (let i = 0; i < 5; i++) {
        const res = await from('PUT', url, { email, token: wrong(first) });
        expect(res.json().error_code).toBe(i < 2 ? 'INVALID_TOKEN' : 'ERR_MAX_TRIES_EXCEEDED');
      }
      // The owner asks for a new code (a captcha'd route, slowed past its own ceiling, never refused).
      const before = w.smtp.messages.length;
      const again =
        flow === 'signup'
          ? await from('PUT', '/v2/user/resend_confirmation', { email, captcha_token: 'ok:resend' })
          : await from('POST', '/v2/user/forgot-password', { email, captcha_token: 'ok:recovery' });
      expect(again.statusCode, again.body).toBe(200);
      const code = codeIn(await mailTo(w.smtp, email, before));
      standIn.received.length = 0;
      // Another client without a captcha answer: refused before the code is looked at.
      const bot = await from('PUT', url, { email, token: wrong(code) });
      expectError(bot, 400, 'ERR_CAPTCHA_REQUIRED');
      expect(bot.json().message).toBe('Too many attempts for this address. Please confirm that you are not a robot.');
      expect(standIn.received).toEqual([]);
      // A failed captcha (low score, another action's token) does not pass either.
      for (const captcha of ['low:code', 'ok:login'])
        expectError(
          await from('PUT', url, { email, token: wrong(code), captcha_token: captcha }),
          400,
          'ERR_CAPTCHA_FAILED',
        );
      // The owner, from a clean client: asked first (not counted against them: their client's limit
      // is 1 failure), then in with a captcha answer — the code's tries were not spent by the refusals.
      const owner = `10.9.1.${flow === 'signup' ? 1 : 2}`;
      expectError(await from('PUT', url, { email, token: code }, owner), 400, 'ERR_CAPTCHA_REQUIRED');
      const ok = await from('PUT', url, { email, token: code, captcha_token: 'ok:code' }, owner);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(typeof ok.json().token).toBe('string');
      expect(standIn.received.at(-1)?.form.response).toBe('ok:code');
    });
  }

  it('login (captcha on every request already): past the ceiling it is slowed, never 429 for the owner from a clean client', async () => {
    const email = 'stepup-login@contoso.com';
    await recoveryCode(email);
    // Seven wrong passwords from seven clients: past the ceiling (5) the 6th and 7th were slowed.
    for (let i = 0; i < 7; i++) {
      const res = await from('POST', '/auth/login', {
        login: email,
        password: 'Wrong-Pass-1',
        captcha_token: 'ok:login',
      });
      expectError(res, 401, 'ERR_INVALID_CREDENTIALS');
    }
    const ok = await from('POST', '/auth/login', { login: email, password: PASSWORD, captcha_token: 'ok:login' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(typeof ok.json().token).toBe('string');
  });

  it('without a captcha configured the code check past the ceiling is slowed, not refused', async () => {
    const plain = await startWorld({ RATE_LIMIT_SCALE: '0.02' });
    try {
      const email = 'stepup-plain@contoso.com';
      const res = await plain.app.inject({
        method: 'POST',
        url: '/api/v2/user',
        payload: { email },
        remoteAddress: '10.8.0.1',
      });
      expect(res.statusCode, res.body).toBe(201);
      const code = codeIn(await mailTo(plain.smtp, email));
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 2; i++) {
        const guess = await plain.app.inject({
          method: 'PUT',
          url: '/api/v2/user/confirm',
          payload: { email, token: wrong },
          remoteAddress: `10.8.1.${i}`,
        });
        expectError(guess, 400, 'INVALID_TOKEN');
      }
      const started = Date.now();
      const ok = await plain.app.inject({
        method: 'PUT',
        url: '/api/v2/user/confirm',
        payload: { email, token: code },
        remoteAddress: '10.8.2.1',
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(SLOWDOWN_BASE_MS);
    } finally {
      await plain.close();
    }
  });
});

describe('captcha verify service unreachable', () => {
  it('a closed port answers 503 ERR_SERVICE_UNAVAILABLE with Retry-After, and nothing is stored', async () => {
    const port = await freePort();
    const t = await createTestApp(captchaEnv(`http://127.0.0.1:${port}/siteverify`));
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/user',
        payload: { email: 'closed@contoso.com', captcha_token: 'ok:signup' },
      });
      expectError(res, 503, 'ERR_SERVICE_UNAVAILABLE');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      const users = await t.app.db.kysely.selectFrom('users').select('id').execute();
      expect(users).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('captcha logging', () => {
  it('logs why a check failed, never the secret or the token', async () => {
    const standIn = await startSiteverify();
    const dataDir = mkdtempSync(join(tmpdir(), 'suite-captcha-'));
    const { lines, stream } = logCapture();
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
      WEB_DIST: join(dataDir, 'no-web'),
      ...captchaEnv(standIn.url),
    });
    const app = await buildApp(config, { logger: { level: 'trace', stream } });
    await app.ready();
    try {
      const post = (captcha_token: string) =>
        app.inject({ method: 'POST', url: '/api/v2/user', payload: { email: 'log@contoso.com', captcha_token } });
      expect((await post('low:signup:token-abc')).statusCode).toBe(400);
      standIn.mode = 'http500';
      expect((await post('ok:signup:token-def')).statusCode).toBe(503);
      await expect.poll(() => lines.filter((l) => l.includes('captcha')).length).toBeGreaterThanOrEqual(2);
      const log = lines.join('');
      expect(log).toContain('captcha check failed');
      expect(log).toContain('captcha verify service unavailable');
      expect(log).not.toContain(SECRET);
      expect(log).not.toContain('token-abc');
      expect(log).not.toContain('token-def');
    } finally {
      await app.close();
      await standIn.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('captcha configuration', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'suite-captcha-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });
  const problemsOf = (env: Record<string, string>) => configProblems(dataDir, env);

  it('CAPTCHA_SECRET is required with CAPTCHA_SITE_KEY, listed with the other problems', () => {
    const problems = problemsOf({ CAPTCHA_SITE_KEY: 'site', PORT: 'nope' });
    expect(problems).toEqual([expect.stringMatching(/^PORT:/), expect.stringMatching(/^CAPTCHA_SECRET: required/)]);
    expect(problemsOf({ CAPTCHA_SITE_KEY: 'site', CAPTCHA_SECRET: '  ' })).toEqual([
      expect.stringMatching(/^CAPTCHA_SECRET: required with CAPTCHA_SITE_KEY/),
    ]);
  });

  it('checks CAPTCHA_VERIFY_URL (http/https) and CAPTCHA_MIN_SCORE (0..1)', () => {
    expect(problemsOf({ CAPTCHA_VERIFY_URL: 'ftp://example.com/verify' })).toEqual([
      expect.stringMatching(/^CAPTCHA_VERIFY_URL:/),
    ]);
    expect(problemsOf({ CAPTCHA_MIN_SCORE: '1.5' })).toEqual([expect.stringMatching(/^CAPTCHA_MIN_SCORE:/)]);
    expect(problemsOf({ CAPTCHA_MIN_SCORE: '-0.1' })).toEqual([expect.stringMatching(/^CAPTCHA_MIN_SCORE:/)]);
  });

  it('defaults: no check without a site key; Google siteverify and 0.5 with one', () => {
    expect(load({}).captcha).toBeUndefined();
    expect(load({ CAPTCHA_SECRET: 'secret' }).captcha).toBeUndefined();
    expect(load({ CAPTCHA_SITE_KEY: 'site', CAPTCHA_SECRET: 'secret' }).captcha).toEqual({
      secret: 'secret',
      verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
      minScore: 0.5,
      hostname: 'localhost',
    });
    expect(
      load({
        CAPTCHA_SITE_KEY: 'site',
        CAPTCHA_SECRET: 'secret',
        CAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/verify',
        CAPTCHA_MIN_SCORE: '0.7',
      }).captcha,
    ).toEqual({ secret: 'secret', verifyUrl: 'http://127.0.0.1:9/verify', minScore: 0.7, hostname: 'localhost' });
  });
});
