import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';
import { freePort } from './smtp.js';

const TOKEN = 'metrics-token-0123456789';
const opened: TestApp[] = [];
afterAll(async () => Promise.all(opened.map((t) => t.close())));
const open = async (env: Record<string, string>) => {
  const t = await createTestApp(env);
  opened.push(t);
  return t;
};

/** The value of one sample line `name{labels} value` (labels matched as given, in order). */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}` : ''}`) && !l.startsWith('#'));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('/metrics', () => {
  it('is not served at all without METRICS_TOKEN or METRICS_PORT', async () => {
    const t = await open({});
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
  });

  it('with METRICS_TOKEN: 401 without the bearer token, Prometheus text with it', async () => {
    const t = await open({ METRICS_TOKEN: TOKEN });
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);

    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'POST', url: '/api/v2/user', payload: { email: 'dev@contoso.com' } });
    t.app.recordStorageError('get');
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(
      sample(text, 'http_request_duration_seconds_count', 'method="GET",route="/api/health",status_code="200"'),
    ).toBe(2);
    expect(
      sample(text, 'http_request_duration_seconds_count', 'method="POST",route="/api/v2/user",status_code="201"'),
    ).toBe(1);
    // The sign-up's code mail is queued (or already sent): depth and age are numbers, never negative.
    expect(sample(text, 'suite_mail_outbox_pending')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'suite_mail_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'suite_rate_limit_fallbacks_total')).toBe(0);
    expect(sample(text, 'suite_storage_errors_total', 'operation="get"')).toBe(1);
    expect(text).toContain('process_cpu_seconds_total');
    // The scrape itself is not counted as traffic.
    expect(text).not.toContain('route="/metrics"');
  });

  it('with METRICS_PORT: served on that port only, not through the public one', async () => {
    const port = await freePort();
    const t = await open({ METRICS_PORT: String(port) });
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('suite_mail_outbox_pending');
  });
});
