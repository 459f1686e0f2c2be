import { beforeAll, describe, expect, it } from 'vitest';
import { RECOVERY_CODE_COUNT } from '@suite/contract';
import { currentCode } from '../src/modules/accounts/strategies/totp/secrets.js';
import {
  PASSWORD,
  call,
  enableTotp,
  expectError,
  mailTo,
  registered,
  startWorld,
  useWorld,
} from './accounts-helpers.js';
import { SoftAuthenticator } from './soft-authenticator.js';

/** Passkeys and two-step verification, through the API with a real software authenticator. */
describe('passkeys', () => {
  const w = useWorld();
  let ana: { token: string; id: string };
  let bruno: { token: string; id: string };
  beforeAll(async () => {
    ana = await registered(w, 'ana@contoso.com');
    bruno = await registered(w, 'bruno@contoso.com');
  });

  const registrationOptions = async (token: string) => {
    const res = await call(w.app, { method: 'POST', url: '/v2/user/passkeys/options', token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().options as { challenge: string; user: { id: string }; rp: { id: string } };
  };
  const addPasskey = (token: string, response: unknown, name = 'Laptop') =>
    call(w.app, { method: 'POST', url: '/v2/user/passkeys', token, body: { response, name } });
  const loginChallenge = async () => {
    const res = await call(w.app, { method: 'POST', url: '/auth/passkey/options' });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().options as { challenge: string; userVerification: string }).challenge;
  };
  const passkeyLogin = (response: unknown) => call(w.app, { method: 'POST', url: '/auth/passkey', body: { response } });
  const security = async (token: string) =>
    (await call(w.app, { method: 'GET', url: '/v2/user/security', token })).json();

  async function enrolled(token: string): Promise<SoftAuthenticator> {
    const key = new SoftAuthenticator();
    const res = await addPasskey(token, key.register(await registrationOptions(token)));
    expect(res.statusCode, res.body).toBe(200);
    return key;
  }

  it('adds a passkey (RP = PUBLIC_URL host, user verification required, discoverable), mails a notice, lists it', async () => {
    const options = await registrationOptions(ana.token);
    expect(options.rp.id).toBe('localhost');
    expect(options).toMatchObject({
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const before = w.smtp.messages.length;
    const key = new SoftAuthenticator();
    const res = await addPasskey(ana.token, key.register(options), 'Work laptop');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Work laptop', last_used_at: null, synced: true });
    const mail = await mailTo(w.smtp, 'ana@contoso.com', before);
    expect(mail.subject).toBe('A passkey was added to your Suite account');
    expect(mail.text).toContain('If it was not you');
    const state = await security(ana.token);
    expect(state.passkeys.map((p: { name: string }) => p.name)).toEqual(['Work laptop']);
    expect(state).toMatchObject({ totp: false, has_password: true, totp_available: true });
  });

  it('signs in with a passkey: no password, no second step; last use shown', async () => {
    const key = await enrolled(ana.token);
    const res = await passkeyLogin(key.assert(await loginChallenge()));
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json().token as string;
    const me = await call(w.app, { method: 'GET', url: '/v2/user/me', token: session });
    expect(me.json().email).toBe('ana@contoso.com');
    const sessions = await call(w.app, { method: 'GET', url: '/v2/user/sessions', token: session });
    expect(sessions.json().data.find((s: { current: boolean }) => s.current).method).toBe('passkey');
    const mine = (await security(session)).passkeys.find((p: { last_used_at: string | null }) => p.last_used_at);
    expect(mine).toBeDefined();
  });

  it('refuses a replayed challenge: the same assertion twice, and a registration challenge answered twice', async () => {
    const key = await enrolled(ana.token);
    const assertion = key.assert(await loginChallenge());
    expect((await passkeyLogin(assertion)).statusCode).toBe(200);
    expectError(await passkeyLogin(assertion), 400, 'ERR_PASSKEY_FAILED');
    // A fresh assertion over a spent challenge (counter moved on) is refused the same way.
    expectError(
      await passkeyLogin(
        key.assert(JSON.parse(Buffer.from(assertion.response.clientDataJSON, 'base64url').toString()).challenge),
      ),
      400,
      'ERR_PASSKEY_FAILED',
    );

    const options = await registrationOptions(ana.token);
    const other = new SoftAuthenticator();
    expect((await addPasskey(ana.token, new SoftAuthenticator().register(options))).statusCode).toBe(200);
    expectError(await addPasskey(ana.token, other.register(options)), 400, 'ERR_PASSKEY_FAILED');
  });

  it('refuses an assertion made for another origin or another RP ID, and one without user verification', async () => {
    const key = await enrolled(ana.token);
    expectError(
      await passkeyLogin(key.assert(await loginChallenge(), { origin: 'https://evil.example' })),
      400,
      'ERR_PASSKEY_FAILED',
    );
    expectError(
      await passkeyLogin(key.assert(await loginChallenge(), { rpId: 'evil.example' })),
      400,
      'ERR_PASSKEY_FAILED',
    );
    expectError(await passkeyLogin(key.assert(await loginChallenge(), { uv: false })), 400, 'ERR_PASSKEY_FAILED');
    const phished = new SoftAuthenticator('localhost', 'http://localhost:9999');
    expectError(
      await addPasskey(ana.token, phished.register(await registrationOptions(ana.token))),
      400,
      'ERR_PASSKEY_FAILED',
    );
    // The real origin still works afterwards.
    expect((await passkeyLogin(key.assert(await loginChallenge()))).statusCode).toBe(200);
  });

  it("refuses another user's credential: a registration challenge of Bruno answered in Ana's session, and a user handle that is not the key's", async () => {
    const brunoOptions = await registrationOptions(bruno.token);
    expectError(await addPasskey(ana.token, new SoftAuthenticator().register(brunoOptions)), 400, 'ERR_PASSKEY_FAILED');
    const key = await enrolled(ana.token);
    const brunoHandle = Buffer.from(bruno.id).toString('base64url');
    expectError(
      await passkeyLogin(key.assert(await loginChallenge(), { userHandle: brunoHandle })),
      400,
      'ERR_PASSKEY_FAILED',
    );
    // Bruno cannot rename or remove Ana's passkey.
    const anaKeyId = (await security(ana.token)).passkeys[0]._id as string;
    expectError(
      await call(w.app, { method: 'DELETE', url: `/v2/user/passkeys/${anaKeyId}`, token: bruno.token }),
      404,
      'ERR_NOT_FOUND',
    );
    expectError(
      await call(w.app, {
        method: 'PATCH',
        url: `/v2/user/passkeys/${anaKeyId}`,
        token: bruno.token,
        body: { name: 'mine' },
      }),
      404,
      'ERR_NOT_FOUND',
    );
  });

  it('refuses a counter that goes backwards (a cloned authenticator), and an unknown credential', async () => {
    const key = await enrolled(ana.token);
    expect((await passkeyLogin(key.assert(await loginChallenge(), { counter: 5 }))).statusCode).toBe(200);
    expectError(await passkeyLogin(key.assert(await loginChallenge(), { counter: 3 })), 400, 'ERR_PASSKEY_FAILED');
    expectError(await passkeyLogin(key.assert(await loginChallenge(), { counter: 5 })), 400, 'ERR_PASSKEY_FAILED');
    expect((await passkeyLogin(key.assert(await loginChallenge(), { counter: 6 }))).statusCode).toBe(200);
    expectError(await passkeyLogin(new SoftAuthenticator().assert(await loginChallenge())), 401, 'ERR_PASSKEY_UNKNOWN');
  });

  it('renames and removes a passkey; removed, it no longer signs in', async () => {
    const key = await enrolled(bruno.token);
    const id = (await security(bruno.token)).passkeys[0]._id as string;
    const renamed = await call(w.app, {
      method: 'PATCH',
      url: `/v2/user/passkeys/${id}`,
      token: bruno.token,
      body: { name: 'Phone' },
    });
    expect(renamed.json().name).toBe('Phone');
    // The one name rule (refused, not silently cleaned), the name unchanged.
    for (const name of ['Ph\u202eone', '\u3164', 'Phone\u200b']) {
      const res = await call(w.app, {
        method: 'PATCH',
        url: `/v2/user/passkeys/${id}`,
        token: bruno.token,
        body: { name },
      });
      expectError(res, 400, 'ERR_INVALID_NAME');
    }
    const refused = await addPasskey(
      bruno.token,
      new SoftAuthenticator().register(await registrationOptions(bruno.token)),
      '\u2800',
    );
    expectError(refused, 400, 'ERR_INVALID_NAME');
    expect((await security(bruno.token)).passkeys.map((p: { name: string }) => p.name)).toEqual(['Phone']);
    expect(
      (await call(w.app, { method: 'DELETE', url: `/v2/user/passkeys/${id}`, token: bruno.token })).statusCode,
    ).toBe(200);
    expectError(await passkeyLogin(key.assert(await loginChallenge())), 401, 'ERR_PASSKEY_UNKNOWN');
  });

  it('refuses to remove the last way to sign in (an account without a password and one passkey)', async () => {
    const carla = await registered(w, 'carla@contoso.com');
    await enrolled(carla.token);
    await w.app.db.kysely.updateTable('users').set({ password_hash: null }).where('id', '=', carla.id).execute();
    const id = (await security(carla.token)).passkeys[0]._id as string;
    expectError(
      await call(w.app, { method: 'DELETE', url: `/v2/user/passkeys/${id}`, token: carla.token }),
      409,
      'ERR_LAST_SIGN_IN_METHOD',
    );
  });

  it('keeps challenges short-lived and answers malformed WebAuthn bodies with 400, never 500', async () => {
    const key = await enrolled(ana.token);
    const challenge = await loginChallenge();
    await w.app.db.kysely
      .updateTable('flow_state')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    expectError(await passkeyLogin(key.assert(challenge)), 400, 'ERR_PASSKEY_FAILED');
    const junk = key.assert(await loginChallenge());
    junk.response.clientDataJSON = Buffer.from('not json').toString('base64url');
    expectError(await passkeyLogin(junk), 400, 'ERR_PASSKEY_FAILED');
    const res = await call(w.app, { method: 'POST', url: '/auth/passkey', body: { response: { id: 'x' } } });
    expect(res.statusCode).toBe(400);
  });
});

describe('two-step verification (authenticator app)', () => {
  const w = useWorld();

  const login = (email: string, password = PASSWORD, headers: Record<string, string> = {}) =>
    call(w.app, { method: 'POST', url: '/auth/login', body: { login: email, password }, headers });
  const secondStep = (email: string, pending: string, code: string, headers: Record<string, string> = {}) =>
    call(w.app, {
      method: 'POST',
      url: '/auth/login/second-step',
      body: { email, pending_token: pending, code },
      headers,
    });

  /** Turns TOTP on; returns the secret, the recovery codes, and the time the confirming code was made at. */
  async function turnOn(email: string, token: string) {
    const setup = await call(w.app, { method: 'POST', url: '/v2/user/totp/setup', token });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, uri, qr_svg } = setup.json() as { secret: string; uri: string; qr_svg: string };
    expect(uri).toMatch(/^otpauth:\/\/totp\/Suite:.*secret=/);
    expect(qr_svg).toMatch(/^<svg/);
    const before = w.smtp.messages.length;
    // The confirming code is the previous step's, so the current one is still unused for the login.
    const on = await enableTotp(w.app, token, secret);
    expect(on.statusCode, on.body).toBe(200);
    const codes = on.json().recovery_codes as string[];
    expect((await mailTo(w.smtp, email, before)).subject).toBe('Two-step verification was turned on');
    return { secret, codes };
  }

  it('enrols with one code, gives 10 distinct recovery codes stored only hashed', async () => {
    const { token, id } = await registered(w, 'dora@contoso.com');
    const wrong = await call(w.app, { method: 'POST', url: '/v2/user/totp/setup', token });
    expect(wrong.statusCode).toBe(200);
    expectError(
      await call(w.app, { method: 'POST', url: '/v2/user/totp/enable', token, body: { code: '000000' } }),
      400,
      'ERR_TOTP_CODE_INVALID',
    );
    const { secret, codes } = await turnOn('dora@contoso.com', token);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    const stored = await w.app.db.kysely.selectFrom('recovery_codes').selectAll().where('user_id', '=', id).execute();
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''));
    const factor = await w.app.db.kysely
      .selectFrom('totp_factors')
      .selectAll()
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(factor.secret_enc).not.toContain(secret);
    expectError(await call(w.app, { method: 'POST', url: '/v2/user/totp/setup', token }), 409, 'ERR_TOTP_ALREADY_ON');
  });

  it('login asks for the second step (no session), accepts a current code once, refuses it reused', async () => {
    const { token } = await registered(w, 'eva@contoso.com');
    const { secret } = await turnOn('eva@contoso.com', token);
    const first = await login('eva@contoso.com');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ second_step: 'totp', pending_token: expect.any(String), trust_allowed: true });
    expect(first.json().token).toBeUndefined();
    const code = await currentCode(secret);
    const ok = await secondStep('eva@contoso.com', first.json().pending_token, code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(typeof ok.json().token).toBe('string');
    // The pending token is single-use, and the code is spent.
    expectError(await secondStep('eva@contoso.com', first.json().pending_token, code), 401, 'ERR_SECOND_STEP_EXPIRED');
    const again = await login('eva@contoso.com');
    expectError(await secondStep('eva@contoso.com', again.json().pending_token, code), 400, 'ERR_SECOND_STEP_INVALID');
  });

  it('a recovery code works once; the pending token dies after 5 wrong codes; another address cannot use it', async () => {
    const { token } = await registered(w, 'fabio@contoso.com');
    const { codes } = await turnOn('fabio@contoso.com', token);
    const pending = (await login('fabio@contoso.com')).json().pending_token as string;
    expectError(await secondStep('eva@contoso.com', pending, codes[0]!), 401, 'ERR_SECOND_STEP_EXPIRED');
    const ok = await secondStep('fabio@contoso.com', pending, codes[0]!.toUpperCase());
    expect(ok.statusCode, ok.body).toBe(200);
    const state = (await call(w.app, { method: 'GET', url: '/v2/user/security', token: ok.json().token })).json();
    expect(state.recovery_codes_left).toBe(RECOVERY_CODE_COUNT - 1);
    const next = (await login('fabio@contoso.com')).json().pending_token as string;
    expectError(await secondStep('fabio@contoso.com', next, codes[0]!), 400, 'ERR_SECOND_STEP_INVALID');
    for (let i = 0; i < 3; i += 1)
      expectError(await secondStep('fabio@contoso.com', next, '123456'), 400, 'ERR_SECOND_STEP_INVALID');
    expectError(await secondStep('fabio@contoso.com', next, '123456'), 401, 'ERR_SECOND_STEP_EXPIRED');
    // Even the right code is refused now: the password is asked again.
    expectError(await secondStep('fabio@contoso.com', next, codes[1]!), 401, 'ERR_SECOND_STEP_EXPIRED');
  });

  it('brute force from many clients: each client is stopped at 10 failures, the owner still gets in', async () => {
    const limited = await startWorld({ RATE_LIMIT_SCALE: '1' });
    try {
      const { token } = await registered(limited, 'gil@contoso.com');
      const setup = (await call(limited.app, { method: 'POST', url: '/v2/user/totp/setup', token })).json();
      expect((await enableTotp(limited.app, token, setup.secret)).statusCode).toBe(200);
      const step = (pending: string, code: string, ip: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/login/second-step',
          remoteAddress: ip,
          payload: { email: 'gil@contoso.com', pending_token: pending, code },
        });
      const pendingFor = async (ip: string) =>
        (
          await limited.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            remoteAddress: ip,
            payload: { login: 'gil@contoso.com', password: PASSWORD },
          })
        ).json().pending_token as string;
      // An attacker who has the password guesses from three clients: 5 guesses per pending token, 10 per client.
      const statuses: number[] = [];
      for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) {
        for (let round = 0; round < 3; round += 1) {
          const pending = await pendingFor(ip);
          for (let i = 0; i < 5; i += 1) statuses.push((await step(pending, String(100000 + i), ip)).statusCode);
        }
      }
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s === 200)).toHaveLength(0);
      // Client 10.0.0.1 is refused even the right code; the owner's own client is not.
      const blocked = await step(await pendingFor('10.0.0.1'), await currentCode(setup.secret), '10.0.0.1');
      expect(blocked.statusCode).toBe(429);
      const owner = await step(await pendingFor('192.168.1.7'), await currentCode(setup.secret), '192.168.1.7');
      expect(owner.statusCode, owner.body).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('turning off takes the password and a code, and mails a notice; then login needs no second step', async () => {
    const { token } = await registered(w, 'ivo@contoso.com');
    const { secret } = await turnOn('ivo@contoso.com', token);
    const off = (password: string, code: string) =>
      call(w.app, { method: 'POST', url: '/v2/user/totp/disable', token, body: { password, code } });
    expectError(await off('wrong-password-1', await currentCode(secret)), 400, 'ERR_WRONG_CURRENT_PASSWORD');
    expectError(await off(PASSWORD, '000000'), 400, 'ERR_TOTP_CODE_INVALID');
    const before = w.smtp.messages.length;
    expect((await off(PASSWORD, await currentCode(secret))).statusCode).toBe(200);
    expect((await mailTo(w.smtp, 'ivo@contoso.com', before)).subject).toBe('Two-step verification was turned off');
    expect(typeof (await login('ivo@contoso.com')).json().token).toBe('string');
  });

  it('is not offered to single-sign-on accounts', async () => {
    const { token } = await registered(w, 'jo@fabrikam.com');
    await w.app.db.kysely
      .insertInto('domains')
      .values({ name: 'fabrikam.com', sso_only: 1, free_plan_limit: null, updated_at: Date.now() })
      .execute();
    expect((await call(w.app, { method: 'GET', url: '/v2/user/security', token })).json().totp_available).toBe(false);
    expectError(await call(w.app, { method: 'POST', url: '/v2/user/totp/setup', token }), 403, 'ERR_TOTP_SSO');
  });
});
