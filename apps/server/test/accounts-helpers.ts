import { ADMIN_API, API, PROOF_FRESH_MS, TOTP_PERIOD_S, apiPath } from '@suite/contract';
import { currentCode } from '../src/modules/accounts/strategies/totp/secrets.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';
import { codeIn, startSmtp, type ReceivedMail, type SmtpFixture } from './smtp.js';
import { SoftAuthenticator } from './soft-authenticator.js';

export interface AccountsWorld {
  t: TestApp;
  app: FastifyInstance;
  smtp: SmtpFixture;
  close(): Promise<void>;
}

/** A server on a fresh database that delivers through a real SMTP server on loopback. */
export async function startWorld(
  env: Record<string, string> = {},
  options?: Parameters<typeof createTestApp>[1],
): Promise<AccountsWorld> {
  const smtp = await startSmtp();
  const t = await createTestApp({ SMTP_URL: smtp.url, RATE_LIMIT_SCALE: '100', ...env }, options);
  return {
    t,
    app: t.app,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}

/**
 * The world of one test file or `describe`: started before its first test, closed after its last. The
 * object is filled in when the world starts, so the tests and the hooks registered after this call use it.
 */
export function useWorld(
  env: Record<string, string> = {},
  options?: Parameters<typeof createTestApp>[1],
): AccountsWorld {
  const world = {} as AccountsWorld;
  let started: AccountsWorld | undefined;
  beforeAll(async () => {
    started = await startWorld(env, options);
    Object.assign(world, started);
  }, 60_000);
  afterAll(async () => started?.close());
  return world;
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

export function call(app: FastifyInstance, c: Call): Promise<LightMyRequestResponse> {
  return app.inject({
    method: c.method,
    url: `/api${c.url}`,
    headers: { ...(c.token ? { authorization: `Bearer ${c.token}` } : {}), ...c.headers },
    ...(c.body === undefined ? {} : { payload: c.body as Record<string, unknown> }),
  });
}

/**
 * A signed-in person's calls, short, for suites of many (the admin console's): `url` as the contract
 * names it (fill its parameters with apiPath), `token` the caller's session. `w` is read at call time.
 */
export const sessionCalls = (w: AccountsWorld) => ({
  get: (url: string, token: string) => call(w.app, { method: 'GET', url, token }),
  post: (url: string, token: string, body: unknown = {}) => call(w.app, { method: 'POST', url, token, body }),
  put: (url: string, token: string, body: unknown) => call(w.app, { method: 'PUT', url, token, body }),
});

/** Asserts the catalogue error shape. */
export function expectError(res: LightMyRequestResponse, status: number, code: string): void {
  expect({ status: res.statusCode, code: res.json().error_code }).toEqual({ status, code });
  expect(typeof res.json().message).toBe('string');
}

/** The next mail to `to` delivered after the first `after` messages. */
export function mailTo(smtp: SmtpFixture, to: string, after = 0): Promise<ReceivedMail> {
  return smtp.waitFor((m) => smtp.messages.indexOf(m) >= after && m.to.includes(to));
}

/**
 * Waits until the mail outbox has nothing left to deliver (every queued mail sent or given up), so that a
 * "no mail to X" check looks after everything the requests before it queued has gone out. Bounded.
 */
export async function outboxDrained(w: AccountsWorld, timeoutMs = 10_000): Promise<void> {
  const pending = async () =>
    (
      await w.app.db.kysely
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .execute()
    ).length;
  await expect.poll(pending, { timeout: timeoutMs, interval: 20, message: 'mails still queued' }).toBe(0);
}

export async function signup(w: AccountsWorld, email: string, extra: Record<string, unknown> = {}): Promise<string> {
  const before = w.smtp.messages.length;
  const res = await call(w.app, { method: 'POST', url: '/v2/user', body: { email, ...extra } });
  expect(res.statusCode, res.body).toBe(201);
  return codeIn(await mailTo(w.smtp, email, before));
}

/** Sign-up (its body `extra` beside the address, e.g. a captcha answer) and the mailed code confirmed. */
export async function confirmed(
  w: AccountsWorld,
  email: string,
  extra: Record<string, unknown> = {},
): Promise<{ token: string; profiles: { _id: string; type: string }[] }> {
  const code = await signup(w, email, extra);
  const res = await call(w.app, { method: 'PUT', url: '/v2/user/confirm', body: { token: code, email } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export const PASSWORD = 'Correct-Horse-42';

/** The welcome step's body (complete-register) of a user who then logs in with PASSWORD. */
export const COMPLETE_REGISTER_BODY = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  password: PASSWORD,
  password_confirmation: PASSWORD,
  accepted_terms: { version: 1 },
};

/** complete-register with a confirmed sign-up's token: COMPLETE_REGISTER_BODY, or other names and password. */
export const completeRegister = (
  w: AccountsWorld,
  token: string,
  names = { first_name: 'Ada', last_name: 'Lovelace' },
  password = PASSWORD,
) =>
  call(w.app, {
    method: 'PUT',
    url: '/v2/user/complete-register',
    token,
    body: { ...COMPLETE_REGISTER_BODY, ...names, password, password_confirmation: password },
  });

/** Sign-up (with `extra` as in confirmed), code, confirm and complete-register: a user who logs in with PASSWORD. */
export async function registered(
  w: AccountsWorld,
  email: string,
  extra: Record<string, unknown> = {},
): Promise<{ token: string; id: string }> {
  const { token } = await confirmed(w, email, extra);
  const res = await completeRegister(w, token);
  expect(res.statusCode, res.body).toBe(200);
  const session = res.json().token as string;
  return { token: session, id: decodeSession(session).user._id };
}

export function decodeSession(token: string): {
  user: { _id: string; email: string; preferences: object; profile_id: string };
  exp: number;
  iat: number;
} {
  const part = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/** Runs the admin CLI against the world's database, as an operator would; its exit code and output. */
export async function runAdminCli(w: AccountsWorld, ...argv: string[]): Promise<{ code: number; text: string }> {
  const { runAdmin } = await import('../bin/admin.js');
  const lines: string[] = [];
  const code = await runAdmin(
    argv,
    {
      DATA_DIR: w.t.dataDir,
      DATABASE_URL: w.t.config.databaseUrl ?? '',
      SESSION_SECRET: w.t.config.sessionSecret,
      PUBLIC_URL: w.t.config.publicUrl,
    },
    (l) => lines.push(l),
  );
  return { code, text: lines.join('\n') };
}

/** Runs the admin CLI (as runAdminCli) expecting success; returns its output. */
export async function admin(w: AccountsWorld, ...argv: string[]): Promise<string> {
  const { code, text } = await runAdminCli(w, ...argv);
  expect(code, text).toBe(0);
  return text;
}

/**
 * Confirms the authenticator app's setup with the code of the step before the current one, so that the
 * current step is still unused for the test's own next code. Should the call straddle a step boundary,
 * that code is two steps old by the time the server reads it and is rightly refused: asked again once.
 */
export async function enableTotp(app: FastifyInstance, token: string, secret: string): Promise<LightMyRequestResponse> {
  const step = () => Math.floor(Date.now() / 1000 / TOTP_PERIOD_S);
  for (let attempt = 1; ; attempt++) {
    const asked = step();
    const on = await call(app, {
      method: 'POST',
      url: '/v2/user/totp/enable',
      token,
      body: { code: await currentCode(secret, Date.now() - TOTP_PERIOD_S * 1000) },
    });
    if (on.statusCode === 200 || step() === asked || attempt === 2) return on;
  }
}

/** Turns the authenticator app on (with a fresh session); returns its secret and recovery codes. */
export async function turnOnTotp(w: AccountsWorld, token: string): Promise<{ secret: string; recovery: string[] }> {
  const setup = await call(w.app, { method: 'POST', url: '/v2/user/totp/setup', token });
  expect(setup.statusCode, setup.body).toBe(200);
  const secret = setup.json().secret as string;
  const on = await enableTotp(w.app, token, secret);
  expect(on.statusCode, on.body).toBe(200);
  return { secret, recovery: on.json().recovery_codes as string[] };
}

/** How many mails arrived once everything queued so far went out: "the next mail" starts after it. */
export async function mailsSoFar(w: AccountsWorld): Promise<number> {
  await outboxDrained(w);
  return w.smtp.messages.length;
}

/** The password sign-in's answer (a session, or the second step it asks for, or the refusal). */
export const signIn = (w: AccountsWorld, email: string, password = PASSWORD) =>
  call(w.app, { method: 'POST', url: '/auth/login', body: { login: email, password } });

/** A second session of the account (another device), signed in with its password: what a thief copies. */
export async function anotherSession(w: AccountsWorld, email: string, password = PASSWORD): Promise<string> {
  const res = await signIn(w, email, password);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}

/** Every session of the token's account proved longer ago than PROOF_FRESH_MS (the row's clock, not a wait). */
export async function staled(w: AccountsWorld, token: string): Promise<string> {
  await w.app.db.kysely
    .updateTable('sessions')
    .set({ proved_at: Date.now() - PROOF_FRESH_MS - 60_000 })
    .where('user_id', '=', decodeSession(token).user._id)
    .execute();
  return token;
}

/** Every session of the token's account proved just now: the other side of `staled`. */
export async function freshened(w: AccountsWorld, token: string): Promise<string> {
  await w.app.db.kysely
    .updateTable('sessions')
    .set({ proved_at: Date.now() })
    .where('user_id', '=', decodeSession(token).user._id)
    .execute();
  return token;
}

export const passkeyOptions = (w: AccountsWorld, token: string) =>
  call(w.app, { method: 'POST', url: '/v2/user/passkeys/options', token });

/** Registers a passkey (a software authenticator's) on the account; the answer and the key. */
export async function addPasskey(w: AccountsWorld, token: string, key = new SoftAuthenticator()) {
  const options = await passkeyOptions(w, token);
  expect(options.statusCode, options.body).toBe(200);
  const res = await call(w.app, {
    method: 'POST',
    url: '/v2/user/passkeys',
    token,
    body: { response: key.register(options.json().options), name: 'Key' },
  });
  return { res, key };
}

/** A challenge for a passkey sign-in, as the sign-in page asks for one. */
export async function passkeyChallenge(w: AccountsWorld): Promise<string> {
  const options = await call(w.app, { method: 'POST', url: '/auth/passkey/options' });
  return (options.json().options as { challenge: string }).challenge;
}

/** A sign-in with the passkey `key` holds. */
export const passkeyLogin = async (w: AccountsWorld, key: SoftAuthenticator) =>
  call(w.app, { method: 'POST', url: '/auth/passkey', body: { response: key.assert(await passkeyChallenge(w)) } });

/** The password step of a sign-in of an account with a second factor: the pending token of its second step. */
export async function pendingOf(w: AccountsWorld, email: string, password = PASSWORD): Promise<string> {
  const res = await signIn(w, email, password);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().second_step, res.body).toBe('totp');
  return res.json().pending_token as string;
}

/** The second step of a sign-in: the pending token and the app's (or a recovery) code. */
export const secondStep = (w: AccountsWorld, email: string, pending: string, code: string) =>
  call(w.app, { method: 'POST', url: '/auth/login/second-step', body: { email, pending_token: pending, code } });

/** The "this wasn't me" token of the next notice mailed to `email` after `before`. */
export async function notMeToken(w: AccountsWorld, email: string, before: number): Promise<string> {
  const mail = await mailTo(w.smtp, email, before);
  const token = /\/security\/not-me#([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect(token, mail.text).toBeDefined();
  return token!;
}

/**
 * A new password set on the account through its session: the current one proves who asks (a session of a
 * recovery by mail passes `{}`, as it needs none; a second factor's code goes in `extra` too).
 */
export const changePassword = (
  w: AccountsWorld,
  user: { id: string; token: string },
  password: string,
  extra: Record<string, unknown> = { current_password: PASSWORD },
) =>
  call(w.app, {
    method: 'PUT',
    url: `/user/${user.id}`,
    token: user.token,
    body: { password, password_confirmation: password, ...extra },
  });

/** "Forgot password": the code mailed to `email`, confirmed; the session of the recovery. */
export async function recoverByMail(w: AccountsWorld, email: string): Promise<string> {
  const before = await mailsSoFar(w);
  const asked = await call(w.app, { method: 'POST', url: '/v2/user/forgot-password', body: { email } });
  expect(asked.statusCode, asked.body).toBe(200);
  const code = codeIn(await mailTo(w.smtp, email, before));
  const res = await call(w.app, {
    method: 'PUT',
    url: '/v2/user/forgot-password/confirm',
    body: { email, token: code },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}

/** A teammate invitation the holder of `token` sends to `email`: the mail it delivers there. */
export async function inviteTeammate(w: AccountsWorld, token: string, email: string): Promise<ReceivedMail> {
  // Not mailsSoFar: this also serves beforeAll hooks, where expect.poll may not run.
  const before = w.smtp.messages.length;
  const res = await call(w.app, { method: 'POST', url: API.inviteTeammates, token, body: { emails: [email] } });
  expect(res.statusCode, res.body).toBe(200);
  return mailTo(w.smtp, email, before);
}

/** The invite token of an invitation mail's link ('' when it has none). */
export const inviteTokenIn = (mail: ReceivedMail) => /inviteToken=([A-Za-z0-9._-]+)/.exec(mail.text)?.[1] ?? '';

/** In the admin console, an admin of `domain` (the holder of `token`) names `email` a further admin. */
export const addDomainAdmin = (w: AccountsWorld, token: string, domain: string, email: string) =>
  call(w.app, { method: 'POST', url: apiPath(ADMIN_API.adminAdmins, { domain }), token, body: { email } });

/** In the admin console, an admin of `domain` (the holder of `token`) removes the admin `userId`. */
export const removeDomainAdmin = (w: AccountsWorld, token: string, domain: string, userId: string) =>
  call(w.app, { method: 'DELETE', url: apiPath(ADMIN_API.adminAdmin, { domain, userId }), token });
