import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  anotherSession,
  call,
  mailTo,
  PASSWORD,
  registered,
  signup,
  startWorld,
  type AccountsWorld,
} from './accounts-helpers.js';
import { startPgCluster, type PgCluster } from './pg-cluster.js';
import { codeIn } from './smtp.js';

/** A server on a PostgreSQL of this test's own, which the test stops and starts again. */
let cluster: PgCluster;
let w: AccountsWorld;
beforeAll(async () => {
  cluster = await startPgCluster();
  w = await startWorld({ DATABASE_URL: cluster.url, METRICS_TOKEN });
}, 60_000);
afterAll(async () => {
  await w?.close();
  cluster?.destroy();
});

const unavailable = (res: {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): { error_code?: string };
}) => ({
  status: res.statusCode,
  retryAfter: Number(res.headers['retry-after']) > 0,
  code: res.json().error_code,
});
const OUTAGE = { status: 503, retryAfter: true, code: 'ERR_SERVICE_UNAVAILABLE' };
const METRICS_TOKEN = 'db-outage-metrics-token-0123';
/** The samples of /metrics named `suite_…` without labels, by name. */
async function suiteSamples(): Promise<Record<string, number>> {
  const res = await w.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  const samples: Record<string, number> = {};
  for (const line of res.body.split('\n')) {
    const match = /^(suite_\w+) (\S+)$/.exec(line);
    if (match) samples[match[1]!] = Number(match[2]);
  }
  return samples;
}

describe('PostgreSQL outage', () => {
  it('answers 503 with Retry-After on every route that needs the database, then heals by itself', async () => {
    const { token } = await registered(w, 'ada@contoso.com');
    const pendingCode = await signup(w, 'bob@contoso.com');
    // Healthy just before: a health check's result is reused briefly, never past the database's loss.
    expect((await w.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    const up = await suiteSamples();
    expect(up.suite_database_up).toBe(1);
    cluster.stop();
    try {
      const answers = {
        login: await call(w.app, {
          method: 'POST',
          url: '/auth/login',
          body: { login: 'ada@contoso.com', password: PASSWORD },
        }),
        signup: await call(w.app, { method: 'POST', url: '/v2/user', body: { email: 'cy@contoso.com' } }),
        confirm: await call(w.app, {
          method: 'PUT',
          url: '/v2/user/confirm',
          body: { token: pendingCode, email: 'bob@contoso.com' },
        }),
        forgot: await call(w.app, {
          method: 'POST',
          url: '/v2/user/forgot-password',
          body: { email: 'ada@contoso.com' },
        }),
        me: await call(w.app, { method: 'GET', url: '/v2/user/me', token }),
        guest: await call(w.app, {
          method: 'POST',
          url: '/guest',
          body: { name: 'Guest', accepted_terms: { version: 1 } },
        }),
      };
      for (const [route, res] of Object.entries(answers))
        expect({ route, ...unavailable(res) }).toEqual({ route, ...OUTAGE });

      const health = await w.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);
      expect(Number(health.headers['retry-after'])).toBeGreaterThan(0);
      expect(health.json()).toMatchObject({
        status: 'down',
        database: 'down',
        storage: 'ok',
        error_code: 'ERR_SERVICE_UNAVAILABLE',
      });
      const live = await w.app.inject({ method: 'GET', url: '/api/health/live' });
      expect(live.statusCode).toBe(200);
      // A plain signal for alerts: database down is 0, and the outbox gauges keep their last reading
      // (before: NaN, which alert rules never match).
      const down = await suiteSamples();
      expect(down.suite_database_up).toBe(0);
      for (const name of ['suite_mail_outbox_pending', 'suite_mail_outbox_oldest_age_seconds'])
        expect(Number.isFinite(down[name]), name).toBe(true);
    } finally {
      cluster.start();
    }

    // Back: the same server (no restart) serves again within seconds.
    const health = await vi.waitFor(
      async () => {
        const answer = await w.app.inject({ method: 'GET', url: '/api/health' });
        expect(answer.statusCode).toBe(200);
        return answer;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(health.json()).toMatchObject({ status: 'ok', database: 'ok' });
    expect((await suiteSamples()).suite_database_up).toBe(1);

    // Nothing half-written: the sign-up refused during the outage starts afresh (no 409 for a stray row).
    const before = w.smtp.messages.length;
    const again = await call(w.app, { method: 'POST', url: '/v2/user', body: { email: 'cy@contoso.com' } });
    expect(again.statusCode, again.body).toBe(201);
    expect(codeIn(await mailTo(w.smtp, 'cy@contoso.com', before))).toMatch(/^\d{6}$/);
    // The code mailed before the outage still confirms; the password still logs in.
    const confirm = await call(w.app, {
      method: 'PUT',
      url: '/v2/user/confirm',
      body: { token: pendingCode, email: 'bob@contoso.com' },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    await anotherSession(w, 'ada@contoso.com');
  });
});
