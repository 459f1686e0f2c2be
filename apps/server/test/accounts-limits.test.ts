import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, call, expectError, registered, startWorld, type AccountsWorld } from './accounts-helpers.js';

describe('rate limits (real limits: RATE_LIMIT_SCALE=1)', () => {
  let w: AccountsWorld;
  beforeAll(async () => {
    w = await startWorld({ RATE_LIMIT_SCALE: '1' });
  });
  afterAll(async () => w.close());

  const login = (email: string, ip: string, headers: Record<string, string> = {}) =>
    w.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ip,
      headers,
      payload: { login: email, password: 'Wrong-Pass-1' },
    });

  // The invite check names the inviter while pending; like every public token check it is
  // limited per client address (60 per 10 minutes), so tokens cannot be tried in bulk.
  it('limits invitation checks per client address (60 per 10 minutes); another client still answers', async () => {
    const check = (ip: string) =>
      w.app.inject({ method: 'GET', url: '/api/invite/validate?inviteToken=not-a-token', remoteAddress: ip });
    for (let i = 0; i < 60; i++) expectError(await check('10.0.9.1'), 400, 'ERR_INVITE_INVALID');
    const limited = await check('10.0.9.1');
    expectError(limited, 429, 'ERR_RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expectError(await check('10.0.9.2'), 400, 'ERR_INVITE_INVALID');
  });

  // The limit is per (address, client); before, 10 failures from anywhere locked the address.
  it('limits failed logins per (address, client) with a 429 and Retry-After; other clients still answer', async () => {
    for (let i = 0; i < 10; i++) expect((await login('target@contoso.com', '10.0.0.1')).statusCode).toBe(401);
    const limited = await login('target@contoso.com', '10.0.0.1');
    expectError(limited, 429, 'ERR_RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(600);
    expect((await login('other@contoso.com', '10.0.0.1')).statusCode).toBe(401);
    expect((await login('target@contoso.com', '10.0.1.1')).statusCode).toBe(401);
  });

  it('limits sign-ups per IP across addresses; X-Forwarded-For is ignored without a trusted proxy', async () => {
    const post = (i: number) =>
      w.app.inject({
        method: 'POST',
        url: '/api/v2/user',
        remoteAddress: '10.9.9.9',
        headers: { 'x-forwarded-for': `172.16.0.${i}` },
        payload: { email: `s${i}@contoso.com` },
      });
    for (let i = 0; i < 20; i++) expect((await post(i)).statusCode).toBe(201);
    const limited = await post(20);
    expectError(limited, 429, 'ERR_RATE_LIMITED');
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('refuses a client over its per-IP limit before its body is parsed: a malformed body gets 429, not 400', async () => {
    // 64 KiB of nested JSON, the body whose parsing a limited client must not make the server pay for.
    const nested = `${'{"a":'.repeat(6_000)}1${'}'.repeat(6_000)}`.padEnd(64 * 1024 - 1, ' ');
    const post = (ip: string, payload: string) =>
      w.app.inject({
        method: 'POST',
        url: '/api/v2/user',
        remoteAddress: ip,
        headers: { 'content-type': 'application/json' },
        payload,
      });
    // Under the limit, the body is read: malformed JSON is a 400.
    expectError(await post('10.7.7.7', '{"email":'), 400, 'ERR_REQUEST');
    for (let i = 0; i < 19; i++) await post('10.7.7.7', JSON.stringify({ email: `p${i}@contoso.com` }));
    // Over it, the same bodies are refused unread.
    expectError(await post('10.7.7.7', '{"email":'), 429, 'ERR_RATE_LIMITED');
    const heavy = await post('10.7.7.7', nested);
    expectError(heavy, 429, 'ERR_RATE_LIMITED');
    expect(Number(heavy.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not affected.
    expectError(await post('10.7.7.8', '{"email":'), 400, 'ERR_REQUEST');
  });

  it('limits resends per address', async () => {
    const resend = () =>
      w.app.inject({
        method: 'PUT',
        url: '/api/v2/user/resend_confirmation',
        remoteAddress: '10.7.7.7',
        // No code sent to it yet: the first resend goes through.
        payload: { email: 'resend-limit@contoso.com' },
      });
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await resend();
      answers.push(`${res.statusCode} ${res.json().error_code ?? ''}`.trim());
    }
    // The first is sent; the next ones inside the minute are told a code was just sent (codes spacing);
    // past the per-address budget the throttle answers, whatever the spacing would have said.
    expect(answers[0]).toBe('200');
    expect(answers.slice(1, 5).every((a) => a === '429 ERR_CODE_SENT_RECENTLY')).toBe(true);
    expect(answers.at(-1)).toBe('429 ERR_RATE_LIMITED');
  });

  it('limits recovery requests and code submissions per address', async () => {
    const forgot = () =>
      w.app.inject({
        method: 'POST',
        url: '/api/v2/user/forgot-password',
        remoteAddress: '10.6.6.6',
        payload: { email: 'r@contoso.com' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await forgot()).statusCode);
    expect(statuses.at(-1)).toBe(429);
    const confirm = () =>
      call(w.app, { method: 'PUT', url: '/v2/user/confirm', body: { email: 's2@contoso.com', token: '000000' } });
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await confirm()).statusCode);
    expect(codes.at(-1)).toBe(429);
  });
});

describe('rate limits behind a trusted proxy', () => {
  it('with TRUST_PROXY=1 keys on the right-most X-Forwarded-For entry, which the proxy wrote', async () => {
    const w = await startWorld({ RATE_LIMIT_SCALE: '1', TRUST_PROXY: '1' });
    try {
      // The client writes whatever it likes on the left; the proxy appends the address it saw.
      const post = (i: number, client: string) =>
        w.app.inject({
          method: 'POST',
          url: '/api/v2/user',
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-for': `203.0.113.${i}, ${client}` },
          payload: { email: `p${i}@contoso.com` },
        });
      for (let i = 0; i < 20; i++) expect((await post(i, '198.51.100.1')).statusCode).toBe(201);
      expect((await post(20, '198.51.100.1')).statusCode).toBe(429);
      expect((await post(21, '198.51.100.2')).statusCode).toBe(201);
    } finally {
      await w.close();
    }
  });

  it('with a proxy address list trusts X-Forwarded-For only from those proxies', async () => {
    const w = await startWorld({ RATE_LIMIT_SCALE: '1', TRUST_PROXY: '10.0.0.0/8, ::1' });
    try {
      const post = (i: number, peer: string) =>
        w.app.inject({
          method: 'POST',
          url: '/api/v2/user',
          remoteAddress: peer,
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
          payload: { email: `q${i}@contoso.com` },
        });
      // Through the proxy: every client has its own bucket.
      for (let i = 0; i < 25; i++) expect((await post(i, '10.1.2.3')).statusCode).toBe(201);
      // Straight from elsewhere: the header is ignored, the peer is the key.
      for (let i = 25; i < 45; i++) expect((await post(i, '192.0.2.50')).statusCode).toBe(201);
      expect((await post(45, '192.0.2.50')).statusCode).toBe(429);
    } finally {
      await w.close();
    }
  });
});

describe('more rate limits (RATE_LIMIT_SCALE=1)', () => {
  let w: AccountsWorld;
  beforeAll(async () => {
    w = await startWorld({ RATE_LIMIT_SCALE: '1' });
  });
  afterAll(async () => w.close());

  const from = (ip: string, method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>, token?: string) =>
    w.app.inject({
      method,
      url: `/api${url}`,
      remoteAddress: ip,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const expect429 = (res: Awaited<ReturnType<typeof from>>) => {
    expectError(res, 429, 'ERR_RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  };

  it('counts an address with any number of trailing dots in one login bucket', async () => {
    for (let i = 0; i < 10; i++) {
      const login = i % 2 ? 'dots@contoso.com.' : 'dots@contoso.com..';
      expect((await from('10.3.0.1', 'POST', '/auth/login', { login, password: 'Wrong-Pass-1' })).statusCode).toBe(401);
    }
    expect429(
      await from('10.3.0.1', 'POST', '/auth/login', { login: 'dots@contoso.com...', password: 'Wrong-Pass-1' }),
    );
  });

  it.each([
    ['login', 'POST', '/auth/login', (i: number) => ({ login: `ip${i}@contoso.com`, password: 'Wrong-Pass-1' })],
    ['confirm', 'PUT', '/v2/user/confirm', (i: number) => ({ email: `ip${i}@contoso.com`, token: '000000' })],
    [
      'recovery code',
      'PUT',
      '/v2/user/forgot-password/confirm',
      (i: number) => ({ email: `ip${i}@contoso.com`, token: '000000' }),
    ],
  ] as const)('limits %s per IP across addresses (30 per 10 minutes)', async (name, method, url, body) => {
    const ip = `10.4.${name.length}.1`;
    for (let i = 0; i < 30; i++) expect((await from(ip, method, url, body(i))).statusCode, name).not.toBe(429);
    expect429(await from(ip, method, url, body(30)));
    expect((await from('10.4.200.1', method, url, body(31))).statusCode).not.toBe(429);
  });

  it('limits sign-ups per (address, client) (5 per 10 minutes); another client is not refused', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await from('10.5.0.1', 'POST', '/v2/user', { email: 'again@contoso.com' })).statusCode);
    }
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    expect429(await from('10.5.0.1', 'POST', '/v2/user', { email: 'again@contoso.com' }));
    expect((await from('10.5.1.1', 'POST', '/v2/user', { email: 'again@contoso.com' })).statusCode).toBe(409);
  });

  it('limits PUT /user/{id} per user whatever the IP (10 per 10 minutes)', async () => {
    const { token, id } = await registered(w, 'changer@contoso.com');
    const change = (ip: string) =>
      from(
        ip,
        'PUT',
        `/user/${id}`,
        { password: 'New-Pass-123', password_confirmation: 'Other-Pass-123', current_password: PASSWORD },
        token,
      );
    for (let i = 0; i < 10; i++)
      expectError(await change(`10.6.0.${i + 1}`), 400, 'CONFIRM_PASSWORD_VALIDATION_FAILED');
    expect429(await change('10.6.1.1'));
  });

  it('limits teammate invitations per user (10 calls an hour)', async () => {
    const { token } = await registered(w, 'inviter@fabrikam.com');
    for (let i = 0; i < 10; i++) {
      expect(
        (await from(`10.7.0.${i + 1}`, 'POST', '/invite/teammates', { emails: [`t${i}@fabrikam.com`] }, token))
          .statusCode,
      ).toBe(200);
    }
    expect429(await from('10.7.1.1', 'POST', '/invite/teammates', { emails: ['t10@fabrikam.com'] }, token));
  });
});
