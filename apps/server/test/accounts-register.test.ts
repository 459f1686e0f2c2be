import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  PASSWORD,
  anotherSession,
  call,
  changePassword,
  confirmed,
  decodeSession,
  expectError,
  registered,
  signup,
  useWorld,
} from './accounts-helpers.js';
import { isPostgresSuite } from './helpers.js';

describe('PUT /v2/user/complete-register and PUT /user/{id}', () => {
  const w = useWorld();

  const body = (over: Record<string, unknown> = {}) => ({
    first_name: 'Grace',
    last_name: 'Hopper',
    password: PASSWORD,
    password_confirmation: PASSWORD,
    accepted_terms: { version: 1 },
    ...over,
  });
  const complete = (token: string | undefined, b: Record<string, unknown>) =>
    call(w.app, { method: 'PUT', url: '/v2/user/complete-register', token, body: b });

  it('answers each password and terms rule with its catalogue error, storing nothing', async () => {
    const { token } = await confirmed(w, 'reg1@contoso.com');
    const cases: [Record<string, unknown>, string][] = [
      [{ accepted_terms: undefined }, 'ACCEPT_TERMS'],
      [{ accepted_terms: { version: 2 } }, 'ACCEPT_TERMS'],
      [{ password: 'abc12', password_confirmation: 'abc12' }, 'ERR_PASSWORD_TOO_SHORT'],
      [{ password: 'x'.repeat(65), password_confirmation: 'x'.repeat(65) }, 'USER_VALIDATION_FAILED'],
      [{ password_confirmation: 'Something-Else-1' }, 'CONFIRM_PASSWORD_VALIDATION_FAILED'],
      [{ password: 'qwerty123', password_confirmation: 'qwerty123' }, 'ERR_PASSWORD_TOO_COMMON'],
      [{ password: 'Password1', password_confirmation: 'Password1' }, 'ERR_PASSWORD_TOO_COMMON'],
      // Context words (ASVS 6.1.2): the address, its local part, its domain, the product's name.
      [{ password: 'Reg1@contoso.com', password_confirmation: 'Reg1@contoso.com' }, 'ERR_PASSWORD_GUESSABLE'],
      [{ password: 'Contoso2026', password_confirmation: 'Contoso2026' }, 'ERR_PASSWORD_GUESSABLE'],
      [{ password: 'reg1!!', password_confirmation: 'reg1!!' }, 'ERR_PASSWORD_GUESSABLE'],
      [{ password: 'Suite-123', password_confirmation: 'Suite-123' }, 'ERR_PASSWORD_GUESSABLE'],
      [{ first_name: '' }, 'ERR_VALIDATION'],
      // Control and bidi characters are refused by the one display-name rule, not silently replaced.
      [{ first_name: '\u0007\r\n' }, 'ERR_INVALID_NAME'],
      [{ last_name: 'Love\u202elace' }, 'ERR_INVALID_NAME'],
      // Names that look empty or hide text (Hangul fillers, Braille blank, zero-width).
      [{ first_name: '\u3164' }, 'ERR_INVALID_NAME'],
      [{ first_name: '\u115f\u1160' }, 'ERR_INVALID_NAME'],
      [{ last_name: '\u2800' }, 'ERR_INVALID_NAME'],
      [{ last_name: 'Hop\u200bper' }, 'ERR_INVALID_NAME'],
      [{ first_name: 'x'.repeat(101) }, 'ERR_INVALID_NAME'],
      [{ last_name: undefined }, 'ERR_VALIDATION'],
      [{ password: 'y'.repeat(300), password_confirmation: 'y'.repeat(300) }, 'ERR_VALIDATION'],
    ];
    for (const [over, code] of cases) {
      const res = await complete(token, body(over));
      expect(res.json().error_code, JSON.stringify(over)).toBe(code);
      expect(res.statusCode).toBe(400);
    }
    const row = await w.app.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'reg1@contoso.com')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    expect(row.registered_at).toBeNull();
  });

  it('sets names, terms and an argon2id password once; a second call is refused', async () => {
    const { token } = await confirmed(w, 'reg2@contoso.com');
    const res = await complete(token, body());
    expect(res.statusCode).toBe(200);
    expect(res.json().profiles[0].info).toEqual({
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'reg2@contoso.com',
    });
    const row = await w.app.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'reg2@contoso.com')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.accepted_terms_version).toBe(1);
    expectError(await complete(res.json().token, body()), 403, 'ERR_FORBIDDEN');
  });

  // The confirm step's session is replaced, not left valid beside the new one.
  it('the session it answers replaces the one in hand: one active session afterwards', async () => {
    const { token } = await confirmed(w, 'reg3@contoso.com');
    const res = await complete(token, body());
    expect(res.statusCode).toBe(200);
    const next = res.json().token as string;
    expectError(await call(w.app, { method: 'GET', url: '/v2/user/me', token }), 401, 'ERR_INVALID_ACCESS_TOKEN');
    const list = await call(w.app, { method: 'GET', url: '/v2/user/sessions', token: next });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((s: { current: boolean }) => s.current)).toEqual([true]);
  });

  // The code step's session opens the welcome step and its screen, nothing else.
  it("the code step's session opens the welcome step alone; the session it answers opens everything", async () => {
    const { token } = await confirmed(w, 'reg-scope@contoso.com');
    const elsewhere = [
      { method: 'GET', url: '/files' },
      { method: 'GET', url: '/v2/videoconference' },
      { method: 'POST', url: '/v2/videoconference', body: { title: 'Stand-up' } },
      { method: 'GET', url: '/invite/url' },
      { method: 'POST', url: '/invite/teammates', body: { emails: ['someone@contoso.com'] } },
      { method: 'GET', url: '/v2/user/sessions' },
      { method: 'GET', url: '/v2/user/security' },
    ] as const;
    for (const request of elsewhere) {
      const res = await call(w.app, { ...request, token });
      expect({ ...request, status: res.statusCode, body: res.json() }).toEqual({
        ...request,
        status: 403,
        body: {
          error_code: 'ERR_REGISTRATION_INCOMPLETE',
          message: 'Finish creating your account first: add your name and a password and accept the terms.',
        },
      });
    }
    // What the welcome screen needs answers.
    const me = await call(w.app, { method: 'GET', url: '/v2/user/me', token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: 'reg-scope@contoso.com', confirmed: true, registered: false });
    const done = await complete(token, body());
    expect(done.statusCode).toBe(200);
    const full = done.json().token as string;
    for (const request of elsewhere.filter((r) => r.method === 'GET')) {
      const res = await call(w.app, { ...request, token: full });
      expect({ ...request, status: res.statusCode }).toEqual({ ...request, status: 200 });
    }
    expect((await call(w.app, { method: 'GET', url: '/v2/user/me', token: full })).json().registered).toBe(true);
  });

  it("the code step's session can sign out", async () => {
    const { token } = await confirmed(w, 'reg-out@contoso.com');
    expect((await call(w.app, { method: 'POST', url: '/auth/logout', token })).statusCode).toBe(200);
    expectError(await complete(token, body()), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('needs a session', async () => {
    expectError(await complete(undefined, body()), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('PUT /user/{id} changes the own password only, with the same rules and the current password', async () => {
    const a = await registered(w, 'pw1@contoso.com');
    const b = await registered(w, 'pw2@contoso.com');
    const put = (
      token: string | undefined,
      id: string,
      password: string,
      confirmation = password,
      current: string | undefined = PASSWORD,
    ) =>
      call(w.app, {
        method: 'PUT',
        url: `/user/${id}`,
        token,
        body: { password, password_confirmation: confirmation, current_password: current },
      });
    // With a normal session the current password is required, and checked.
    expectError(await put(a.token, a.id, 'Another-Pass-9', 'Another-Pass-9', ''), 400, 'ERR_VALIDATION');
    expectError(
      await put(a.token, a.id, 'Another-Pass-9', 'Another-Pass-9', 'Wrong-Pass-0'),
      400,
      'ERR_WRONG_CURRENT_PASSWORD',
    );
    expectError(await put(a.token, b.id, 'Another-Pass-9'), 403, 'ERR_FORBIDDEN');
    expectError(await put(undefined, a.id, 'Another-Pass-9'), 401, 'ERR_INVALID_ACCESS_TOKEN');
    expectError(await put(a.token, a.id, 'short'), 400, 'ERR_PASSWORD_TOO_SHORT');
    expectError(
      await put(a.token, a.id, 'Another-Pass-9', 'Another-Pass-8'),
      400,
      'CONFIRM_PASSWORD_VALIDATION_FAILED',
    );
    expectError(await put(a.token, a.id, 'z'.repeat(65)), 400, 'USER_VALIDATION_FAILED');
    expectError(await put(a.token, a.id, 'password'), 400, 'ERR_PASSWORD_TOO_COMMON');
    const ok = await put(a.token, a.id, 'Another-Pass-9');
    expect(ok.statusCode).toBe(200);
    expect(decodeSession(ok.json().token).user._id).toBe(a.id);
  });

  // Sessions per device — the session in hand stays, every other one ends.
  it('a password change ends the other sessions at once and keeps the one in hand', async () => {
    const { id } = await registered(w, 'pw3@contoso.com');
    const login = () =>
      call(w.app, { method: 'POST', url: '/auth/login', body: { login: 'pw3@contoso.com', password: PASSWORD } });
    const first = (await login()).json().token as string;
    const second = (await login()).json().token as string;
    const changed = await changePassword(w, { id, token: first }, 'Changed-Pass-5');
    expect(changed.statusCode).toBe(200);
    const me = (token: string) => call(w.app, { method: 'GET', url: '/v2/user/me', token });
    expect((await me(first)).statusCode).toBe(200);
    expectError(await me(second), 401, 'ERR_INVALID_ACCESS_TOKEN');
    expect((await me(changed.json().token)).statusCode).toBe(200);
  });

  it('answers ERR_COULD_NOT_UPDATE_PASSWORD when the database refuses the change', async () => {
    const { token, id } = await registered(w, 'pw4@contoso.com');
    const db = w.app.db;
    // A real database failure on exactly this write, made with a trigger.
    if (db.dialect === 'sqlite') {
      await sql`CREATE TRIGGER no_pw BEFORE UPDATE OF password_hash ON users BEGIN SELECT RAISE(ABORT, 'refused'); END`.execute(
        db.kysely,
      );
    } else {
      await sql`CREATE FUNCTION no_pw() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`.execute(
        db.kysely,
      );
      await sql`CREATE TRIGGER no_pw BEFORE UPDATE OF password_hash ON users FOR EACH ROW EXECUTE FUNCTION no_pw()`.execute(
        db.kysely,
      );
    }
    try {
      const res = await changePassword(w, { id, token }, 'Blocked-Pass-1');
      expectError(res, 500, 'ERR_COULD_NOT_UPDATE_PASSWORD');
      expect(res.body).not.toContain('refused');
    } finally {
      await sql`DROP TRIGGER no_pw${sql.raw(db.dialect === 'sqlite' ? '' : ' ON users')}`.execute(db.kysely);
    }
    expect((await call(w.app, { method: 'GET', url: '/v2/user/me', token })).statusCode).toBe(200);
  });
});

describe('a database failure between a step and its session (atomic steps, safe retries)', () => {
  const w = useWorld();

  /**
   * Every session write fails as a lost connection does (PostgreSQL: SQLSTATE 57P01; SQLite: the
   * message of one), after the step's own writes: what a database going away between them gives.
   */
  async function withSessionWritesFailing<T>(f: () => Promise<T>, on: 'INSERT' | 'UPDATE' = 'INSERT'): Promise<T> {
    const db = w.app.db.kysely;
    if (isPostgresSuite()) {
      await sql`CREATE OR REPLACE FUNCTION suite_fail() RETURNS trigger AS $$
        BEGIN RAISE EXCEPTION 'injected' USING ERRCODE = '57P01'; END $$ LANGUAGE plpgsql`.execute(db);
      await sql
        .raw(`CREATE TRIGGER suite_fail BEFORE ${on} ON sessions FOR EACH ROW EXECUTE FUNCTION suite_fail()`)
        .execute(db);
    } else {
      await sql
        .raw(
          `CREATE TRIGGER suite_fail BEFORE ${on} ON sessions
          BEGIN SELECT RAISE(ABORT, 'Connection terminated (injected)'); END`,
        )
        .execute(db);
    }
    try {
      return await f();
    } finally {
      await sql.raw(isPostgresSuite() ? 'DROP TRIGGER suite_fail ON sessions' : 'DROP TRIGGER suite_fail').execute(db);
    }
  }
  const expect503 = (res: Awaited<ReturnType<typeof call>>) => {
    expectError(res, 503, 'ERR_SERVICE_UNAVAILABLE');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  };
  const welcome = {
    first_name: 'Grace',
    last_name: 'Hopper',
    password: PASSWORD,
    password_confirmation: PASSWORD,
    accepted_terms: { version: 1 },
  };

  it('complete-register: 503, nothing registered, and the retry with the same session succeeds', async () => {
    const { token } = await confirmed(w, 'atomic-reg@contoso.com');
    const put = () => call(w.app, { method: 'PUT', url: '/v2/user/complete-register', token, body: welcome });
    expect503(await withSessionWritesFailing(put));
    const row = await w.app.db.kysely
      .selectFrom('users')
      .select(['registered_at', 'password_hash'])
      .where('email', '=', 'atomic-reg@contoso.com')
      .executeTakeFirstOrThrow();
    expect(row.registered_at).toBeNull();
    const retry = await put();
    expect(retry.statusCode, retry.body).toBe(200);
    await anotherSession(w, 'atomic-reg@contoso.com');
  });

  it('the code check: 503, the code not spent, and the retry with the same code succeeds', async () => {
    const code = await signup(w, 'atomic-code@contoso.com');
    const put = () =>
      call(w.app, { method: 'PUT', url: '/v2/user/confirm', body: { email: 'atomic-code@contoso.com', token: code } });
    expect503(await withSessionWritesFailing(put));
    const retry = await put();
    expect(retry.statusCode, retry.body).toBe(200);
    expect(typeof retry.json().token).toBe('string');
  });

  it('the password change: 503, the old password still good, and the retry succeeds', async () => {
    const { token, id } = await registered(w, 'atomic-pass@contoso.com');
    const other = await call(w.app, {
      method: 'POST',
      url: '/auth/login',
      body: { login: 'atomic-pass@contoso.com', password: PASSWORD },
    });
    const put = () => changePassword(w, { id, token }, 'New-Pass-123');
    // the session write here is the revocation of the other sessions: an UPDATE
    const failed = await withSessionWritesFailing(put, 'UPDATE');
    expect503(failed);
    // nothing changed: the other device is still signed in, and the retry (same current password) succeeds
    const me = await call(w.app, { method: 'GET', url: '/v2/user/me', token: other.json().token as string });
    expect(me.statusCode).toBe(200);
    const retry = await put();
    expect(retry.statusCode, retry.body).toBe(200);
  });
});
