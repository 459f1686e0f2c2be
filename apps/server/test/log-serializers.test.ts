import { describe, expect, it } from 'vitest';
import { errSerializer, redactUrl } from '../src/log-serializers.js';

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
