import { describe, expect, it } from 'vitest';
import { createTestApp } from './helpers.js';
import { errSerializer, redactUrl } from '../src/logging.js';

describe('log serializers keep secrets out of log lines', () => {
  it('an error carrying a submitted password, code or token logs without them', () => {
    const error = Object.assign(new Error('validation failed'), {
      code: 'ERR_VALIDATION',
      issues: [
        { path: ['password'], input: 'hunter2-secret', message: 'too short' },
        { path: ['email'], input: 'ana@example.com', message: 'invalid' },
      ],
      body: { token: 'tok-secret', code: '123456', captcha_token: 'cap-secret', nested: { share_key: 'sk-secret' } },
      headers: { authorization: 'Bearer jwt-secret', Cookie: 'sid=cookie-secret' },
    });
    const line = JSON.stringify(errSerializer(error));
    for (const secret of ['hunter2', 'tok-secret', '123456', 'cap-secret', 'sk-secret', 'jwt-secret', 'cookie-secret'])
      expect(line).not.toContain(secret);
    // What an operator needs stays: the error's own code, message, stack and the harmless fields.
    expect(line).toContain('ERR_VALIDATION');
    expect(line).toContain('validation failed');
    expect(line).toContain('ana@example.com');
    expect(line).toMatch(/"stack":"Error: validation failed\\n\s+at /);
  });

  it("an error's cause is scrubbed too; a driver's error code is kept", () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', password: 'db-secret' });
    const line = JSON.stringify(errSerializer(new Error('database unavailable', { cause })));
    expect(line).toContain('ECONNREFUSED');
    expect(line).not.toContain('db-secret');
  });

  it('secret query parameters are replaced in logged URLs, others kept', () => {
    expect(redactUrl('/api/file/7/download_link?share_key=abc&x=1')).toBe(
      '/api/file/7/download_link?share_key=[redacted]&x=1',
    );
    expect(redactUrl('/auth?token=t0k&next=/app')).toBe('/auth?token=[redacted]&next=/app');
    expect(redactUrl('/user/login')).toBe('/user/login');
  });
});

describe("requests' log lines", () => {
  it("one access line per request with its reqId; a request's own lines carry the same reqId", async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    const t = await createTestApp({}, { logger: { level: 'info', stream } });
    try {
      await t.app.inject({ method: 'GET', url: '/api/config', headers: { 'x-request-id': 'req-config-0001' } });
      // A wrong code is logged by the route (a warning) before the answer.
      const bad = await t.app.inject({
        method: 'PUT',
        url: '/api/v2/user/confirm',
        headers: { 'x-request-id': 'req-confirm-0001' },
        payload: { email: 'nobody@acme-logs.com', token: '123456' },
      });
      expect(bad.statusCode).toBeGreaterThanOrEqual(400);
      const access = lines.filter((l) => l.msg === 'request completed');
      expect(access.map((l) => l.reqId)).toEqual(['req-config-0001', 'req-confirm-0001']);
      expect(access[0]).toMatchObject({
        level: 30,
        req: { method: 'GET', url: '/api/config' },
        res: { statusCode: 200 },
      });
      expect(typeof access[0]!.responseTime).toBe('number');
      for (const line of lines) expect(JSON.stringify(line)).not.toContain('123456');
    } finally {
      await t.close();
    }
  });

  it("a request's own warning carries its reqId, and lines below the level are not written", async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    // Limits scaled down to 1: the second wrong code for an address (from another client) is past the
    // ceiling, and the throttle logs its slow-down through the request's logger.
    const t = await createTestApp({ RATE_LIMIT_SCALE: '0.0001' }, { logger: { level: 'warn', stream } });
    try {
      const payload = { email: 'someone@acme-logs.com', token: '654321' };
      for (const [i, remoteAddress] of ['198.51.100.7', '198.51.100.8'].entries())
        await t.app.inject({
          method: 'PUT',
          url: '/api/v2/user/confirm',
          remoteAddress,
          headers: { 'x-request-id': `req-guess-000${i}` },
          payload,
        });
      const warning = lines.find((l) => l.msg === 'address throttled: slowing down');
      expect(warning).toMatchObject({ level: 40, reqId: 'req-guess-0001' });
      // The access lines are info: below this logger's level.
      expect(lines.some((l) => l.msg === 'request completed')).toBe(false);
    } finally {
      await t.close();
    }
  });

  it.each([
    [{ NODE_ENV: 'production' }, false],
    [{ NODE_ENV: 'production', ACCESS_LOG: 'true' }, true],
    [{ ACCESS_LOG: 'false' }, false],
  ])('access lines with %o: %s', async (env, written) => {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    const t = await createTestApp(env, { logger: { level: 'info', stream } });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect(lines.some((l) => l.msg === 'request completed')).toBe(written);
    } finally {
      await t.close();
    }
  });
});
