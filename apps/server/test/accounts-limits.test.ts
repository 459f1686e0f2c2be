import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startWorld, type AccountsWorld } from './accounts-helpers.js';

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

  it('limits login attempts per address with a 429 and Retry-After, whatever the IP', async () => {
    for (let i = 0; i < 10; i++) expect((await login('target@contoso.com', `10.0.0.${i + 1}`)).statusCode).toBe(401);
    const limited = await login('target@contoso.com', '10.0.1.1');
    expectError(limited, 429, 'ERR_RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(600);
    expect((await login('other@contoso.com', '10.0.1.1')).statusCode).toBe(401);
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

  it('limits resends per address', async () => {
    const resend = () =>
      w.app.inject({
        method: 'PUT',
        url: '/api/v2/user/resend_confirmation',
        remoteAddress: '10.7.7.7',
        payload: { email: 's1@contoso.com' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await resend()).statusCode);
    expect(statuses.slice(0, 4).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
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
  it('keys on the client address from X-Forwarded-For only when TRUST_PROXY is set', async () => {
    const w = await startWorld({ RATE_LIMIT_SCALE: '1', TRUST_PROXY: 'true' });
    try {
      const post = (i: number, client: string) =>
        w.app.inject({
          method: 'POST',
          url: '/api/v2/user',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': client },
          payload: { email: `p${i}@contoso.com` },
        });
      for (let i = 0; i < 20; i++) expect((await post(i, '198.51.100.1')).statusCode).toBe(201);
      expect((await post(20, '198.51.100.1')).statusCode).toBe(429);
      expect((await post(21, '198.51.100.2')).statusCode).toBe(201);
    } finally {
      await w.close();
    }
  });
});
